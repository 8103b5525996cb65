import type { FileLayout } from '../../adapters/layouts.js';
import { singleFile } from '../kit/files.js';
import { ghgColumns, ghgReader, type GhgKey } from './ghg-disclosure.js';
import { singleGetPlan } from '../kit/single-get.js';
import { OGDL_TW, OWNERS } from '../kit/registry-info.js';
import type { SourceModule } from '../kit/source.js';

/** SRC-TWSE-ESG-GHG: GHG disclosures of TWSE-listed companies (t187ap46_L_1). */
const URL = 'https://openapi.twse.com.tw/v1/opendata/t187ap46_L_1';

export const twseGhgLayout = {
  file: 't187ap46_L_1.json',
  alternatives: ['t187ap46_L_1.csv'],
  sourceId: 'SRC-TWSE-ESG-GHG',
  columns: ghgColumns,
} as const satisfies FileLayout<GhgKey>;

export const twseGhgModule: SourceModule = {
  info: {
    source_id: 'SRC-TWSE-ESG-GHG',
    name: '企業ESG資訊揭露彙總資料-溫室氣體排放 (listed companies, t187ap46_L_1)',
    ...OWNERS.TWSE,
    licence: OGDL_TW,
    update_frequency: 'annual',
    homepage_url: URL,
    description:
      'Scope 1, 2 and 3 emissions as disclosed by TWSE-listed companies for their latest reporting year. No ' +
      'record-level link is known: facts link to the dataset (one JSON array), where the row is the one with 公司代號 = ' +
      'the ticker.',
    record_link: null,
  },
  files: singleFile(twseGhgLayout),
  read: { kind: 'disclosures', read: (c) => readTwseGhg(c.dir, c.rejects, c.tally) },
  plan: singleGetPlan(twseGhgLayout.file, URL),
  // Every listed company files; most disclose scope 1 (a figure of their own).
  assertions: { minRecords: 600, maxRecords: 1500, minOfPrevious: 0.8, minLinkedShare: 0.8, minFilled: { what: 'a scope 1 figure', share: 0.5 } },
};

export const readTwseGhg = ghgReader(twseGhgLayout);

import type { FileLayout } from '../../adapters/layouts.js';
import { singleFile } from '../kit/files.js';
import { ghgColumns, ghgReader, type GhgKey } from './ghg-disclosure.js';
import { singleGetPlan } from '../kit/single-get.js';
import { OGDL_TW, OWNERS } from '../kit/registry-info.js';
import type { SourceModule } from '../kit/source.js';

/** SRC-TPEX-ESG-GHG: GHG disclosures of TPEx-listed (OTC) companies (t187ap46_O_1). */
const URL = 'https://www.tpex.org.tw/openapi/v1/t187ap46_O_1';

export const tpexGhgLayout = {
  file: 't187ap46_O_1.json',
  alternatives: ['t187ap46_O_1.csv'],
  sourceId: 'SRC-TPEX-ESG-GHG',
  columns: ghgColumns,
} as const satisfies FileLayout<GhgKey>;

export const tpexGhgModule: SourceModule = {
  info: {
    source_id: 'SRC-TPEX-ESG-GHG',
    name: '企業ESG資訊揭露彙總資料-溫室氣體排放 (OTC companies, t187ap46_O_1)',
    ...OWNERS.TPEX,
    licence: OGDL_TW,
    update_frequency: 'annual',
    homepage_url: URL,
    description:
      'Scope 1, 2 and 3 emissions as disclosed by TPEx-listed (OTC) companies for their latest reporting year. No ' +
      'record-level link is known: facts link to the dataset (one JSON array), where the row is the one with 公司代號 = ' +
      'the ticker.',
    record_link: null,
  },
  files: singleFile(tpexGhgLayout),
  read: { kind: 'disclosures', read: (c) => readTpexGhg(c.dir, c.rejects, c.tally) },
  plan: singleGetPlan(tpexGhgLayout.file, URL),
  // Every OTC company files; most disclose scope 1 (a figure of their own).
  assertions: { minRecords: 400, maxRecords: 1200, minOfPrevious: 0.8, minLinkedShare: 0.8, minFilled: { what: 'a scope 1 figure', share: 0.5 } },
};

export const readTpexGhg = ghgReader(tpexGhgLayout);

import type { FileLayout } from '../../adapters/layouts.js';
import { sanctionColumns, sanctionReader, type SanctionKey } from './conduct-reader.js';
import { singleFile } from '../kit/files.js';
import { OGDL_TW, OWNERS } from '../kit/registry-info.js';
import { singleGetPlan } from '../kit/single-get.js';
import type { SourceModule } from '../kit/source.js';

/** SRC-TWSE-SANCTIONS: 上市公司金管會證券期貨局裁罰案件專區 (listed companies, t187ap22_L). */
const URL = 'https://openapi.twse.com.tw/v1/opendata/t187ap22_L';

export const twseSanctionLayout = {
  file: 't187ap22_L.json',
  alternatives: ['t187ap22_L.csv'],
  sourceId: 'SRC-TWSE-SANCTIONS',
  columns: sanctionColumns,
} as const satisfies FileLayout<SanctionKey>;

export const readTwseSanctions = sanctionReader(twseSanctionLayout, URL);

export const twseSanctionsModule: SourceModule = {
  info: {
    source_id: 'SRC-TWSE-SANCTIONS',
    name: '上市公司金管會證券期貨局裁罰案件專區 (listed companies, t187ap22_L)',
    ...OWNERS.TWSE,
    licence: OGDL_TW,
    update_frequency: 'irregular',
    homepage_url: URL,
    description:
      'Sanctions of the Financial Supervisory Commission (金管會證券期貨局, FSC Securities and Futures Bureau) in cases of ' +
      "listed companies, as relayed by the Taiwan Stock Exchange: the decisions are the FSC's, the dataset the " +
      "exchange's. About the last year of decisions: date of the letter (發函日期), the case, the law broken (違反法規) and " +
      'the decision as text (裁處情形; a fine appears only there, often against a person whose name is masked). No ' +
      'record-level link is known: facts link to the dataset (one JSON array), where the row is the one with 股票代號 = ' +
      'the ticker and the same 發函日期.',
    record_link: null,
  },
  files: singleFile(twseSanctionLayout),
  read: { kind: 'conduct', read: (c) => readTwseSanctions(c.dir, c.rejects, c.tally) },
  plan: singleGetPlan(twseSanctionLayout.file, URL),
  // About the last year of decisions (TWSE: 65 rows of 2025); decisions come irregularly, so the count may fall a lot.
  assertions: { minRecords: 5, maxRecords: 2000, minOfPrevious: 0.3 },
};

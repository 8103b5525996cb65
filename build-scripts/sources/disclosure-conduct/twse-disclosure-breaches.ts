import type { FileLayout } from '../../adapters/layouts.js';
import { breachColumns, breachReader, type BreachKey } from './conduct-reader.js';
import { singleFile } from '../kit/files.js';
import { OGDL_TW, OWNERS } from '../kit/registry-info.js';
import { singleGetPlan } from '../kit/single-get.js';
import type { SourceModule } from '../kit/source.js';

/** SRC-TWSE-DISCLOSURE-BREACHES: 上市公司違反資訊申報、重大訊息及說明記者會規定專區 (listed companies, t187ap23_L). */
const URL = 'https://openapi.twse.com.tw/v1/opendata/t187ap23_L';

export const twseBreachLayout = {
  file: 't187ap23_L.json',
  alternatives: ['t187ap23_L.csv'],
  sourceId: 'SRC-TWSE-DISCLOSURE-BREACHES',
  columns: breachColumns,
} as const satisfies FileLayout<BreachKey>;

export const readTwseBreaches = breachReader(twseBreachLayout, URL);

export const twseDisclosureBreachesModule: SourceModule = {
  info: {
    source_id: 'SRC-TWSE-DISCLOSURE-BREACHES',
    name: '上市公司違反資訊申報、重大訊息及說明記者會規定專區 (listed companies, t187ap23_L)',
    ...OWNERS.TWSE,
    licence: OGDL_TW,
    update_frequency: 'irregular',
    homepage_url: URL,
    description:
      'Penalties (違約金) the Taiwan Stock Exchange imposed on listed companies for late or wrong filings and material ' +
      'information, about the last year of decisions: date of the letter (發函日期), the breach as described, the articles ' +
      'of the filing rules broken and the amount (裁罰金額(萬), in NT$10,000). No record-level link is known: facts link to ' +
      'the dataset (one JSON array), where the row is the one with 股票代號 = the ticker and the same 發函日期.',
    record_link: null,
  },
  files: singleFile(twseBreachLayout),
  read: { kind: 'conduct', read: (c) => readTwseBreaches(c.dir, c.rejects, c.tally) },
  plan: singleGetPlan(twseBreachLayout.file, URL),
  // About the last year of decisions (TWSE: 79 rows of 2025); decisions come irregularly, so the count may fall a lot.
  assertions: { minRecords: 5, maxRecords: 2000, minOfPrevious: 0.3 },
};

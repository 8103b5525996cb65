import type { FileLayout } from '../../adapters/layouts.js';
import { breachColumns, breachReader, type BreachKey } from './conduct-reader.js';
import { singleFile } from '../kit/files.js';
import { OGDL_TW, OWNERS } from '../kit/registry-info.js';
import { singleGetPlan } from '../kit/single-get.js';
import type { SourceModule } from '../kit/source.js';

/** SRC-TPEX-DISCLOSURE-BREACHES: 上櫃公司違反資訊申報、重大訊息及說明記者會規定專區 (OTC companies, mopsfin_t187ap23_O). */
const URL = 'https://www.tpex.org.tw/openapi/v1/mopsfin_t187ap23_O';

export const tpexBreachLayout = {
  file: 'mopsfin_t187ap23_O.json',
  alternatives: ['mopsfin_t187ap23_O.csv'],
  sourceId: 'SRC-TPEX-DISCLOSURE-BREACHES',
  columns: breachColumns,
} as const satisfies FileLayout<BreachKey>;

export const readTpexBreaches = breachReader(tpexBreachLayout, URL);

export const tpexDisclosureBreachesModule: SourceModule = {
  info: {
    source_id: 'SRC-TPEX-DISCLOSURE-BREACHES',
    name: '上櫃公司違反資訊申報、重大訊息及說明記者會規定專區 (OTC companies, mopsfin_t187ap23_O)',
    ...OWNERS.TPEX,
    licence: OGDL_TW,
    update_frequency: 'irregular',
    homepage_url: URL,
    description:
      'Penalties (違約金) the Taipei Exchange imposed on TPEx-listed (OTC) companies for late or wrong filings and material ' +
      'information, about the last year of decisions: date of the letter (發函日期), the breach as described, the articles ' +
      'of the filing rules broken and the amount (裁罰金額, in NT$10,000). No record-level link is known: facts link to the ' +
      'dataset (one JSON array), where the row is the one with SecuritiesCompanyCode = the ticker and the same 發函日期.',
    record_link: null,
  },
  files: singleFile(tpexBreachLayout),
  read: { kind: 'conduct', read: (c) => readTpexBreaches(c.dir, c.rejects, c.tally) },
  plan: singleGetPlan(tpexBreachLayout.file, URL),
  // About the last year of decisions (TWSE: 79 rows of 2025); decisions come irregularly, so the count may fall a lot.
  assertions: { minRecords: 5, maxRecords: 2000, minOfPrevious: 0.3 },
};

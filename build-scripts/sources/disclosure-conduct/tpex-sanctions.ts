import type { FileLayout } from '../../adapters/layouts.js';
import { sanctionColumns, sanctionReader, type SanctionKey } from './conduct-reader.js';
import { singleFile } from '../kit/files.js';
import { OGDL_TW, OWNERS } from '../kit/registry-info.js';
import { singleGetPlan } from '../kit/single-get.js';
import type { SourceModule } from '../kit/source.js';

/** SRC-TPEX-SANCTIONS: 上櫃公司金管會證券期貨局裁罰案件專區 (OTC companies, mopsfin_t187ap22_O). */
const URL = 'https://www.tpex.org.tw/openapi/v1/mopsfin_t187ap22_O';

export const tpexSanctionLayout = {
  file: 'mopsfin_t187ap22_O.json',
  alternatives: ['mopsfin_t187ap22_O.csv'],
  sourceId: 'SRC-TPEX-SANCTIONS',
  columns: sanctionColumns,
} as const satisfies FileLayout<SanctionKey>;

export const readTpexSanctions = sanctionReader(tpexSanctionLayout, URL);

export const tpexSanctionsModule: SourceModule = {
  info: {
    source_id: 'SRC-TPEX-SANCTIONS',
    name: '上櫃公司金管會證券期貨局裁罰案件專區 (OTC companies, mopsfin_t187ap22_O)',
    ...OWNERS.TPEX,
    licence: OGDL_TW,
    update_frequency: 'irregular',
    homepage_url: URL,
    description:
      'Sanctions of the Financial Supervisory Commission (金管會證券期貨局, FSC Securities and Futures Bureau) in cases of ' +
      "TPEx-listed (OTC) companies, as relayed by the Taipei Exchange: the decisions are the FSC's, the dataset the " +
      "exchange's. About the last year of decisions: date of the letter (發函日期), the case, the law broken (違反法規) and " +
      'the decision as text (裁處情形; a fine appears only there, often against a person whose name is masked). No ' +
      'record-level link is known: facts link to the dataset (one JSON array), where the row is the one with ' +
      'SecuritiesCompanyCode = the ticker and the same 發函日期.',
    record_link: null,
  },
  files: singleFile(tpexSanctionLayout),
  read: { kind: 'conduct', read: (c) => readTpexSanctions(c.dir, c.rejects, c.tally) },
  plan: singleGetPlan(tpexSanctionLayout.file, URL),
  // About the last year of decisions (TWSE: 65 rows of 2025); decisions come irregularly, so the count may fall a lot.
  assertions: { minRecords: 5, maxRecords: 2000, minOfPrevious: 0.3 },
};

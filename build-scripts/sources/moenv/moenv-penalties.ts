import { z } from 'zod';
import type { FileLayout } from '../../adapters/layouts.js';
import { opt, req } from '../../adapters/layouts.js';
import { readLayoutFile, type RejectLog } from '../../adapters/read-layout.js';
import { amount, publisherDate, optionalBusinessId, requiredText, text, yesNo } from '../../adapters/values.js';
import type { PenaltyRow } from '../kit/facts.js';
import { filesOf } from '../kit/files.js';
import { moenvDatasetPage, moenvPageFiles, moenvPlan } from './moenv-v2.js';
import { OGDL_TW, OWNERS } from '../kit/registry-info.js';
import type { SourceModule } from '../kit/source.js';
import { ExactCopies, type SourceTally } from '../kit/tally.js';

const DATASET = 'EMS_P_46';

/**
 * SRC-MOENV-EMS_P_46: environmental penalty decisions (列管事業污染源裁處資料), MOENV open data v2.
 * API key or Chinese label; one third-party parser reads the business ID from `ban`.
 */
export const penaltyLayout = {
  file: `${DATASET}.json`,
  alternatives: [`${DATASET}.csv`],
  sourceId: 'SRC-MOENV-EMS_P_46',
  columns: {
    emsNo: opt('管制事業編號', 'ems_no'),
    facilityName: opt('事業名稱', 'fac_name'),
    uniformNo: req('統一編號', 'fac_uniformno', 'ban'),
    agencyName: req('裁處機關', 'county_name'),
    documentNo: req('裁處書字號', 'document_no'),
    transgressDate: opt('違反時間', 'transgress_date'),
    transgressLaw: opt('違反法令', 'transgress_law'),
    transgressType: opt('污染類別', 'transgress_type'),
    facts: opt('違反事實', 'openinfor'),
    penaltyDate: req('裁處時間', 'penalty_date'),
    penaltyMoney: req('裁處金額', 'penalty_money'),
    gist: opt('裁處理由及法令', 'gist_define'),
    subject: opt('主旨', 'subject'),
    otherPenalty: opt('其他處罰方式', 'penaltykind'),
    illegalGain: opt('不法利得', 'illegal_money'),
    serious: req('情節重大', 'isimportant'),
    improveDeadline: opt('限改日期', 'improve_deadline'),
    improved: opt('改善完妥與否', 'is_improve'),
    petition: opt('是否訴願訴訟', 'ispetition'),
    petitionResult: opt('訴願訴訟結果', 'petition_results'),
    paid: opt('罰鍰是否繳清', 'paymentstate'),
    facilityAddress: opt('fac_address'),
    transgressAddress: opt('transgress_address'),
    transgressor: opt('違規人名稱', 'transgress_name'),
  },
} as const satisfies FileLayout;

export const moenvPenaltiesModule: SourceModule = {
  info: {
    source_id: 'SRC-MOENV-EMS_P_46',
    name: '列管事業污染源裁處資料 (environmental penalties on regulated businesses)',
    ...OWNERS.MOENV,
    licence: OGDL_TW,
    update_frequency: 'monthly',
    homepage_url: moenvDatasetPage(DATASET),
    description:
      'Penalty decisions by the Ministry of Environment and local environmental protection bureaus, by business ID ' +
      '(統一編號). Each penalty links to its record in MOENV’s public penalty query (prtr.moenv.gov.tw): the company’s ' +
      'business ID with the penalty date as both bounds.',
    record_link: {
      template: 'https://prtr.moenv.gov.tw/api/v1/Penalty?UniformNo={uniform_no}&StartDate={date}&EndDate={date}&PageNumber=1&PageSize=-1',
      confirmed: '2026-11-23',
      how: 'third-party code calling the query behind prtr.moenv.gov.tw/sanctions.html (records under Result.Data with COUNTY and DOCUMENTNO); see shared/spec/sources.md, record-level links',
    },
  },
  files: { answers: moenvPageFiles(DATASET), placed: [penaltyLayout.file, ...penaltyLayout.alternatives] },
  plan: moenvPlan(DATASET),
  read: { kind: 'penalties', read: (c) => readPenalties(c.dir, c.rejects, c.tally) },
  // Several hundred thousand decisions; a few hundred listed companies among the penalised.
  assertions: { minRecords: 100_000, maxRecords: 2_000_000, minOfPrevious: 0.9, minLinkedCompanies: 30 },
};

export type { PenaltyRow };

/**
 * Short codes for the penalising agencies named in EMS_P_46's 裁處機關: the Ministry itself or a
 * city/county environmental protection bureau. Codes follow the ISO 3166-2:TW subdivision codes.
 */
const COUNTY_CODES: Readonly<Record<string, string>> = {
  臺北市: 'TPE',
  新北市: 'NWT',
  桃園市: 'TAO',
  臺中市: 'TXG',
  臺南市: 'TNN',
  高雄市: 'KHH',
  基隆市: 'KEE',
  新竹市: 'HSZ',
  新竹縣: 'HSQ',
  苗栗縣: 'MIA',
  彰化縣: 'CHA',
  南投縣: 'NAN',
  雲林縣: 'YUN',
  嘉義市: 'CYI',
  嘉義縣: 'CYQ',
  屏東縣: 'PIF',
  宜蘭縣: 'ILA',
  花蓮縣: 'HUA',
  臺東縣: 'TTT',
  澎湖縣: 'PEN',
  金門縣: 'KIN',
  連江縣: 'LIE',
};

/** `MOENV` for the ministry (or its former name), `XXX-EPB` for a local bureau, else null. */
export function agencyCode(name: string): string | null {
  const n = name.trim().replace(/台/g, '臺');
  if (n.startsWith('環境部') || n.startsWith('行政院環境保護署')) return 'MOENV';
  for (const [county, code] of Object.entries(COUNTY_CODES)) {
    if (n.startsWith(county)) return `${code}-EPB`;
  }
  return null;
}

const schema = z.object({
  uniformNo: optionalBusinessId,
  documentNo: requiredText,
  agencyName: requiredText,
  penaltyDate: publisherDate,
  penaltyMoney: amount,
  serious: yesNo,
  facts: text,
  subject: text,
  transgressLaw: text,
});

/**
 * Streams every page (the real source has ~400k rows) in order. A decision's identity is (裁處機關,
 * 裁處書字號): each county numbers its own, so the number alone names decisions of several counties.
 * Only a record equal in every field to an earlier one is a copy (a page served twice): counted, not
 * scored twice. A record with no business ID is valid: it is read and counted, and links to no company.
 */
export async function* readPenalties(dir: string, rejects: RejectLog, tally: SourceTally): AsyncGenerator<PenaltyRow> {
  const sourceId = penaltyLayout.sourceId;
  const copies = new ExactCopies(tally.of(sourceId));
  for (const file of filesOf(dir, moenvPenaltiesModule)) {
    for await (const { row, raw } of readLayoutFile(dir, file, penaltyLayout, schema, rejects)) {
      // A copy is equal in every field the layout maps, as read.
      if (!copies.first(`${row.agencyName}\u0000${row.documentNo}`, Object.values(raw))) continue;
      if (row.uniformNo?.padded) tally.paddedId(sourceId);
      const known = agencyCode(row.agencyName);
      if (known === null) tally.unknownValue(sourceId, `agency "${row.agencyName}" (not in the agency table: kept as named)`);
      yield {
        uniformNo: row.uniformNo?.id ?? null,
        recordId: row.documentNo,
        agency: known ?? row.agencyName,
        agencyName: row.agencyName,
        date: row.penaltyDate,
        fine: row.penaltyMoney,
        serious: row.serious,
        summary: row.facts || row.subject || row.transgressLaw || '(no summary in source)',
      };
    }
  }
}

import { z } from 'zod';
import { agencyCode } from '../adapters/agencies.js';
import type { FileLayout } from '../adapters/layouts.js';
import { opt, req } from '../adapters/layouts.js';
import { readLayoutFile, type RejectLog } from '../adapters/read-layout.js';
import { amount, isoDate, optionalBusinessId, requiredText, text, yesNo } from '../adapters/values.js';
import { filesOf } from './files.js';
import { moenvPageFiles, moenvPlan } from './moenv-v2.js';
import { OGDL_TW, OWNERS } from './registry-info.js';
import type { SourceModule } from './source.js';
import { ExactCopies, type SourceTally } from './tally.js';

/**
 * SRC-MOENV-EMS_P_46: environmental penalty decisions (列管事業污染源裁處資料), MOENV open data v2.
 * API key or Chinese label; one third-party parser reads the business ID from `ban`.
 */
export const penaltyLayout = {
  file: 'EMS_P_46.json',
  alternatives: ['EMS_P_46.csv'],
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

const URL = 'https://data.moenv.gov.tw/api/v2/EMS_P_46';

export const moenvPenaltiesModule: SourceModule = {
  info: {
    source_id: 'SRC-MOENV-EMS_P_46',
    name: '列管事業污染源裁處資料 (environmental penalties on regulated businesses)',
    ...OWNERS.MOENV,
    licence: OGDL_TW,
    update_frequency: 'monthly',
    homepage_url: 'https://data.moenv.gov.tw/dataset/detail/EMS_P_46',
    description: 'Penalty decisions by the Ministry of Environment and local environmental protection bureaus, by business ID (統一編號). Each penalty links to its record in MOENV’s public penalty query (prtr.moenv.gov.tw): the company’s business ID with the penalty date as both bounds.',
    record_link: {
      template: 'https://prtr.moenv.gov.tw/api/v1/Penalty?UniformNo={uniform_no}&StartDate={date}&EndDate={date}&PageNumber=1&PageSize=-1',
      confirmed: '2026-11-23',
      how: 'third-party code calling the query behind prtr.moenv.gov.tw/sanctions.html (records under Result.Data with COUNTY and DOCUMENTNO); see shared/spec/sources.md, record-level links',
    },
  },
  files: { answers: moenvPageFiles('EMS_P_46'), placed: [penaltyLayout.file, ...penaltyLayout.alternatives] },
  plan: moenvPlan('EMS_P_46', URL),
  // Several hundred thousand decisions; a few hundred listed companies among the penalised.
  assertions: { minRecords: 100_000, maxRecords: 2_000_000, minOfPrevious: 0.9, minLinkedCompanies: 30 },
};

/** One penalty decision, linked to a company by 統一編號 (none for a vehicle or a person). */
export interface PenaltyRow {
  uniformNo: string | null;
  recordId: string;
  /** MOENV, `XXX-EPB`, or the agency's name as served when the table does not know it. */
  agency: string;
  agencyName: string;
  date: string;
  fine: number;
  serious: boolean;
  summary: string;
}

const schema = z.object({
  uniformNo: optionalBusinessId,
  documentNo: requiredText,
  agencyName: requiredText,
  penaltyDate: isoDate,
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

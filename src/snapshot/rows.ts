import type { Reader, RowOf } from './define-table.js';
import {
  ASSURANCES,
  CARBON_DISCLOSURES,
  CARBON_FEES,
  COMPANIES,
  DISCLOSURE_CONDUCT,
  ETFS,
  FLAGS,
  PENALTIES,
  SOURCE_FILES,
  SOURCES,
} from './schema.js';
/**
 * The records the store reads, each with its reader: the SELECT list and the decoder made from its
 * table's description (schema.ts). Rows are read raw (arrays, not objects); a record's columns may
 * start past a leading ticker (`at`), which the facts reads merge on.
 */
export type { Raw } from './define-table.js';

/** A `companies` row, decoded (the CBAM sectors are read by the downloads alone). */
export type CompanyRecord = Omit<RowOf<typeof COMPANIES.columns>, 'cbam_sectors'>;
export const COMPANY = COMPANIES.readerWithout(['cbam_sectors']);

/** A ranking row: what a compact ranking entry shows. */
export type RankedCompany = Pick<CompanyRecord, 'ticker' | 'company_name' | 'credibility_score' | 'verdict' | 'rank'>;
export const RANKED = COMPANIES.reader(['ticker', 'company_name', 'credibility_score', 'verdict', 'rank']);

/** A company's records lead with its ticker, which the record leaves out. */
export type PenaltyRecord = Omit<RowOf<typeof PENALTIES.columns>, 'ticker'>;
export const PENALTY = PENALTIES.readerWithout(['ticker']);

export type ConductRecord = Omit<RowOf<typeof DISCLOSURE_CONDUCT.columns>, 'ticker'>;
export const CONDUCT = DISCLOSURE_CONDUCT.readerWithout(['ticker']);

type DisclosureRow = RowOf<typeof CARBON_DISCLOSURES.columns>;
export type DisclosureRecord = Omit<DisclosureRow, 'ticker' | 'registry_total' | 'registry_source_id' | 'registry_deep_link'> & {
  registry: { total: number; source_id: string; deep_link: string } | null;
};
export const DISCLOSURE = CARBON_DISCLOSURES.reader([
  'year',
  'scope1',
  'scope2',
  'scope3',
  'scope1_verified',
  'scope2_verified',
  'scope3_verified',
  'boundary',
  'boundary_text',
  'report_date',
  'source_id',
  'deep_link',
  { group: 'registry', fields: { total: 'registry_total', source_id: 'registry_source_id', deep_link: 'registry_deep_link' } },
]) as unknown as Reader<DisclosureRecord>;

export type CarbonFeeRecord = Omit<RowOf<typeof CARBON_FEES.columns>, 'ticker'>;
export const CARBON_FEE = CARBON_FEES.readerWithout(['ticker']);

export type AssuranceRecord = Omit<RowOf<typeof ASSURANCES.columns>, 'ticker'>;
export const ASSURANCE = ASSURANCES.readerWithout(['ticker']);

export type FlagRecord = Pick<RowOf<typeof FLAGS.columns>, 'flag_id' | 'severity' | 'label' | 'source_id'>;
export const FLAG = FLAGS.reader(['flag_id', 'severity', 'label', 'source_id']);

/** A source's file; rows lead with its source_id. */
export type SourceFileRecord = Omit<RowOf<typeof SOURCE_FILES.columns>, 'source_id'>;
export const SOURCE_FILE = SOURCE_FILES.readerWithout(['source_id']);

export type SourceRecord = RowOf<typeof SOURCES.columns> & {
  /** The files this snapshot read for the source (from source_files). */
  files: SourceFileRecord[];
};
export const SOURCE = SOURCES.readerWithout([]);

export type EtfRecord = RowOf<typeof ETFS.columns>;
export const ETF = ETFS.readerWithout([]);

export interface EtfHoldingRecord {
  ticker: string;
  name: string;
  weight: number;
}

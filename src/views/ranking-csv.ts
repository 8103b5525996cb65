import type { CompanySummary } from '../contract/company.js';
import { csvQuote, UTF8_BOM } from '../contract/csv.js';
import type { SnapshotMeta } from '../snapshot/schema.js';
import type { CompanyRecord } from '../snapshot/rows.js';
import { companySummary } from './company.js';

/** Contract 4.2 CSV export: the columns of `mode=full`, in the summary's order. */
export const CSV_COLUMNS = [
  'ticker',
  'company_name',
  'company_name_norm',
  'market_type',
  'industry',
  'credibility_score',
  'verdict',
  'rank',
  'percentile',
  'assurance_level',
  'has_assurance',
  'top_flags',
  'top_signal_labels',
  'carbon_fee_liable',
  'cbam_exposed',
  'score_breakdown',
  'citation',
] as const satisfies readonly (keyof CompanySummary)[];

export const rankingCsvFilename = (meta: SnapshotMeta) => `ranking-${meta.dataset_snapshot_id}.csv`;

/** Arrays are joined with `|`; a breakdown component is `component:points/max_points`. */
function cell(v: unknown): string {
  if (!Array.isArray(v)) return csvQuote(String(v));
  return csvQuote(
    v.map((x) => (typeof x === 'object' && x !== null && 'component' in x ? `${x.component}:${x.points}/${x.max_points}` : String(x))).join('|'),
  );
}

/** The header, after a UTF-8 byte-order mark: without it Excel reads the file as ANSI and garbles Chinese names. */
export const rankingCsvHeader = (): string => `${UTF8_BOM}${CSV_COLUMNS.join(',')}\n`;

/** One company's CSV line, line end included. */
export function rankingCsvLine(meta: SnapshotMeta, company: CompanyRecord): string {
  const s = companySummary(meta, company);
  return `${CSV_COLUMNS.map((k) => cell(s[k])).join(',')}\n`;
}

import type { CompanySummary } from '../contract/company.js';
import { csvQuote, UTF8_BOM } from '../contract/csv.js';
import type { SnapshotMeta } from '../snapshot/schema.js';
import type { CompanyRecord } from '../snapshot/rows.js';
import type { ConductSummary } from '../snapshot/store.js';
import { companySummary } from './company.js';

/** Contract 4.2 CSV export: the columns of `mode=full`, in the summary's order. */
const SUMMARY_COLUMNS = [
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

/**
 * The canonical view's `disclosure_conduct` section in two cells (methodology 1.2): how many rows the
 * company has, and the newest one's date (empty when none). The rows themselves are in the company's
 * canonical view and in the downloads' `disclosure_conduct.csv`.
 */
export const CONDUCT_COLUMNS = ['disclosure_conduct_count', 'disclosure_conduct_latest'] as const;

/** The summary's columns, then the conduct columns before the citation (kept last). */
export const CSV_COLUMNS = [...SUMMARY_COLUMNS.slice(0, -1), ...CONDUCT_COLUMNS, 'citation'] as const;

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
export function rankingCsvLine(meta: SnapshotMeta, company: CompanyRecord, conduct: ConductSummary): string {
  const s = companySummary(meta, company);
  const row: Record<(typeof CSV_COLUMNS)[number], unknown> = {
    ...s,
    disclosure_conduct_count: conduct.count,
    disclosure_conduct_latest: conduct.latest ?? '',
  };
  return `${CSV_COLUMNS.map((k) => cell(row[k])).join(',')}\n`;
}

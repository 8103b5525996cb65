import type { SnapshotKind } from '../contract/vocabulary.js';
/**
 * The snapshot's SQLite layout: written once by the builder, read-only afterwards. Methodology
 * results (score, verdict, rank, flags, ETF statistics) are computed once at build time and stored,
 * so every reader sees the same numbers. JSON columns hold small arrays that are only ever read whole.
 */
export const SNAPSHOT_DDL = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;

CREATE TABLE sources (
  source_id TEXT PRIMARY KEY, name TEXT NOT NULL, owner_org TEXT NOT NULL, owner_org_name TEXT NOT NULL,
  is_government INTEGER NOT NULL, licence_id TEXT NOT NULL, licence_name TEXT NOT NULL, licence_url TEXT NOT NULL,
  update_frequency TEXT NOT NULL, homepage_url TEXT NOT NULL, description TEXT NOT NULL,
  record_count INTEGER NOT NULL, retrieved_at TEXT NOT NULL,
  -- JSON {attempted_at, reason} when this snapshot used the source's previous good answers (contract 9); else NULL.
  carried_forward TEXT
) WITHOUT ROWID;

-- The exact files a snapshot was built from: where each was fetched (null when not fetched by
-- npm run fetch), when, and its size and sha256 as the builder read it.
CREATE TABLE source_files (
  source_id TEXT NOT NULL, file TEXT NOT NULL, url TEXT, retrieved_at TEXT NOT NULL,
  bytes INTEGER NOT NULL, sha256 TEXT NOT NULL,
  PRIMARY KEY (source_id, file)
) WITHOUT ROWID;

CREATE TABLE companies (
  id INTEGER PRIMARY KEY,
  ticker TEXT NOT NULL UNIQUE,
  company_name TEXT NOT NULL,
  company_name_norm TEXT NOT NULL,
  uniform_no TEXT NOT NULL,
  market_type TEXT NOT NULL,
  industry_code TEXT NOT NULL,
  industry TEXT NOT NULL,
  source_id TEXT NOT NULL,
  cbam_exposed INTEGER NOT NULL,
  cbam_sectors TEXT NOT NULL,
  credibility_score INTEGER NOT NULL,
  verdict TEXT NOT NULL,
  rank INTEGER NOT NULL,
  percentile REAL NOT NULL,
  assurance_level TEXT NOT NULL,
  carbon_fee_liable INTEGER NOT NULL,
  top_flags TEXT NOT NULL,
  top_signal_labels TEXT NOT NULL,
  score_breakdown TEXT NOT NULL
);
-- The default ranking order (score, ticker); filtered rankings use the in-memory index (src/snapshot/ranking-index.ts).
CREATE INDEX companies_by_score ON companies (credibility_score DESC, ticker);

CREATE TABLE penalties (
  ticker TEXT NOT NULL, record_id TEXT NOT NULL, agency TEXT NOT NULL, agency_name TEXT NOT NULL,
  date TEXT NOT NULL, fine REAL NOT NULL, serious INTEGER NOT NULL, summary TEXT NOT NULL,
  source_id TEXT NOT NULL, source_url TEXT NOT NULL
);
CREATE INDEX penalties_by_company ON penalties (ticker, date DESC, record_id);

CREATE TABLE carbon_disclosures (
  ticker TEXT PRIMARY KEY, year INTEGER NOT NULL, scope1 REAL, scope2 REAL, scope3 REAL,
  scope1_verified INTEGER NOT NULL, scope2_verified INTEGER NOT NULL, boundary TEXT NOT NULL,
  report_date TEXT NOT NULL, source_id TEXT NOT NULL, deep_link TEXT NOT NULL,
  -- The government registry's total for the same year (GF-V01 compares against it); NULL when unregistered.
  registry_total REAL, registry_source_id TEXT, registry_deep_link TEXT
) WITHOUT ROWID;

-- basis_tco2e: the figure basis states (the deciding manufacturing site's total, whole tonnes); NULL when it states none.
CREATE TABLE carbon_fees (
  ticker TEXT PRIMARY KEY, obligated INTEGER NOT NULL, basis TEXT NOT NULL, registry_year INTEGER,
  source_id TEXT NOT NULL, deep_link TEXT NOT NULL, basis_tco2e REAL
) WITHOUT ROWID;

-- The company's most recent assured report. kind: cpa or third_party; standard as the filing states
-- it; verifications: JSON array of {provider, standard}, the verifiers beside a CPA assurance.
CREATE TABLE assurances (
  ticker TEXT PRIMARY KEY, provider TEXT NOT NULL, level TEXT NOT NULL, year INTEGER NOT NULL,
  source_id TEXT NOT NULL, deep_link TEXT NOT NULL,
  kind TEXT NOT NULL, standard TEXT, verifications TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE flags (
  ticker TEXT NOT NULL, flag_id TEXT NOT NULL, severity TEXT NOT NULL, label TEXT NOT NULL, source_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  PRIMARY KEY (ticker, flag_id)
) WITHOUT ROWID;
CREATE INDEX flags_by_id ON flags (flag_id, ticker);

CREATE TABLE registry_sites (
  year INTEGER NOT NULL, uniform_no TEXT NOT NULL, ticker TEXT, industry_code TEXT NOT NULL,
  direct REAL NOT NULL, indirect REAL NOT NULL
);
CREATE INDEX registry_by_company ON registry_sites (uniform_no, year);

CREATE TABLE cbam_products (ticker TEXT NOT NULL, sector TEXT NOT NULL, product TEXT NOT NULL);

-- source_id: the holdings' source. holdings_period: the quarter (2025Q3), holdings_asof its last day;
-- holdings_min_weight: the publisher's cut-off (0.01, or 0 when every holding is listed);
-- listed_weight: the listed weights' sum, 4 decimals.
CREATE TABLE etfs (
  etf_code TEXT PRIMARY KEY, etf_name TEXT NOT NULL, holdings_asof TEXT NOT NULL, total INTEGER NOT NULL,
  covered INTEGER NOT NULL, avg_score REAL, min_score REAL, assurance_coverage_pct REAL, source_id TEXT NOT NULL,
  holdings_period TEXT NOT NULL, holdings_min_weight REAL NOT NULL, listed_weight REAL NOT NULL
) WITHOUT ROWID;

CREATE TABLE etf_holdings (
  etf_code TEXT NOT NULL, position INTEGER NOT NULL, ticker TEXT NOT NULL, name TEXT NOT NULL, weight REAL NOT NULL,
  PRIMARY KEY (etf_code, position)
) WITHOUT ROWID;
`;

/** Keys of the meta table. */
export interface SnapshotMeta {
  dataset_snapshot_id: string;
  data_asof: string;
  methodology_version: string;
  kind: SnapshotKind;
  published_at: string;
  registry_year: string;
  /** Host named in citations (SERVICE_HOST at build time). */
  service_host: string;
}

/** INTEGER columns holding 0/1 booleans (decoded by the store; `boolean` in the download schema). */
export const BOOLEAN_COLUMNS: ReadonlySet<string> = new Set([
  'cbam_exposed', 'carbon_fee_liable', 'serious', 'scope1_verified', 'scope2_verified', 'obligated', 'is_government',
]);

/** TEXT columns holding a JSON array (decoded by the store; `array` in the download schema). */
export const JSON_ARRAY_COLUMNS: ReadonlySet<string> = new Set(['top_flags', 'top_signal_labels', 'score_breakdown', 'cbam_sectors', 'verifications']);

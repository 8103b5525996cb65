import type {
  AssuranceKind,
  AssuranceLevel,
  AssuredLevel,
  Boundary,
  ConductKind,
  MarketType,
  Severity,
  SnapshotKind,
  UpdateFrequency,
  Verdict,
} from '../contract/vocabulary.js';
import { col, defineTable, type Table } from './define-table.js';

/**
 * The snapshot's SQLite layout: written once by the builder, read-only afterwards. Methodology
 * results (score, verdict, rank, flags, ETF statistics) are computed once at build time and stored,
 * so every reader sees the same numbers. JSON columns hold small arrays that are only ever read whole.
 * Each table is described here once (define-table.ts makes its DDL, INSERT, SELECT lists and
 * decoders); the column order is the published download's (its CSVs and datapackage.json).
 */

/**
 * The layout's version, in meta.format_version: the build writes it, and a reader refuses a snapshot
 * of another (format.ts). Raise it with any change to a table below, and add the step that brings
 * the previous format's snapshots to it to `npm run migrate` (build-scripts/migrate/steps.ts).
 */
export const FORMAT_VERSION = 2;

export const META = defineTable('meta', { key: col.text('PRIMARY KEY'), value: col.text() }, { withoutRowid: true });

export const SOURCES = defineTable(
  'sources',
  {
    source_id: col.text('PRIMARY KEY'),
    name: col.text(),
    owner_org: col.text(),
    owner_org_name: col.text(),
    is_government: col.boolean(),
    licence_id: col.text(),
    licence_name: col.text(),
    licence_url: col.text(),
    update_frequency: col.text<UpdateFrequency>(),
    homepage_url: col.text(),
    description: col.text(),
    record_count: col.integer(),
    retrieved_at: col.text(),
    /** Set when this snapshot used the source's previous good answers (contract 3.3, 9); else NULL. */
    carried_forward: col.nullable.json<{ attempted_at: string; reason: string }>(),
    /** The newest date the publisher stamped on the answers read (出表日期), ISO; NULL when they carry none (format 2). */
    publisher_date: col.nullable.text(),
  },
  { withoutRowid: true },
);

/**
 * The exact files a snapshot was built from: where each was fetched (null when not fetched by
 * npm run fetch), when, and its size and sha256 as the builder read it.
 */
export const SOURCE_FILES = defineTable(
  'source_files',
  { source_id: col.text(), file: col.text(), url: col.nullable.text(), retrieved_at: col.text(), bytes: col.integer(), sha256: col.text() },
  { key: 'PRIMARY KEY (source_id, file)', withoutRowid: true },
);

export interface ScoreComponent {
  component: 'disclosure' | 'assurance' | 'compliance' | 'consistency';
  points: number;
  max_points: number;
  detail: string;
}

export const COMPANIES = defineTable(
  'companies',
  {
    id: col.integer('PRIMARY KEY'),
    ticker: col.text('NOT NULL UNIQUE'),
    company_name: col.text(),
    company_name_norm: col.text(),
    uniform_no: col.text(),
    market_type: col.text<MarketType>(),
    industry_code: col.text(),
    industry: col.text(),
    source_id: col.text(),
    cbam_exposed: col.boolean(),
    cbam_sectors: col.jsonArray<string[]>(),
    credibility_score: col.integer(),
    verdict: col.text<Verdict>(),
    rank: col.integer(),
    percentile: col.real(),
    assurance_level: col.text<AssuranceLevel>(),
    carbon_fee_liable: col.boolean(),
    top_flags: col.jsonArray<string[]>(),
    top_signal_labels: col.jsonArray<string[]>(),
    score_breakdown: col.jsonArray<ScoreComponent[]>(),
  },
  // The default ranking order (score, ticker); filtered rankings use the in-memory index (ranking-index.ts).
  { indexes: { companies_by_score: '(credibility_score DESC, ticker)' } },
);

export const PENALTIES = defineTable(
  'penalties',
  {
    ticker: col.text(),
    record_id: col.text(),
    agency: col.text(),
    agency_name: col.text(),
    date: col.text(),
    fine: col.real(),
    serious: col.boolean(),
    summary: col.text(),
    source_id: col.text(),
    source_url: col.text(),
  },
  { indexes: { penalties_by_company: '(ticker, date DESC, record_id)' } },
);

/**
 * Format 2 (methodology 1.2): each company's disclosure conduct (contract 3.2): the exchanges'
 * penalties for disclosure breaches and the FSC sanctions in its cases, one row a decision.
 */
export const DISCLOSURE_CONDUCT = defineTable(
  'disclosure_conduct',
  {
    ticker: col.text(),
    record_id: col.text(),
    kind: col.text<ConductKind>(),
    date: col.text(),
    summary: col.text(),
    rule: col.nullable.text(),
    fine: col.nullable.real(),
    decision: col.nullable.text(),
    source_id: col.text(),
    source_url: col.text(),
  },
  { indexes: { conduct_by_company: '(ticker, date DESC, record_id)' } },
);

export const CARBON_DISCLOSURES = defineTable(
  'carbon_disclosures',
  {
    ticker: col.text('PRIMARY KEY'),
    year: col.integer(),
    scope1: col.nullable.real(),
    scope2: col.nullable.real(),
    scope3: col.nullable.real(),
    scope1_verified: col.boolean(),
    scope2_verified: col.boolean(),
    boundary: col.nullable.text<Boundary>(),
    report_date: col.text(),
    source_id: col.text(),
    deep_link: col.text(),
    // The government registry's total for the same year (GF-V01 compares against it); NULL when unregistered.
    registry_total: col.nullable.real(),
    registry_source_id: col.nullable.text(),
    registry_deep_link: col.nullable.text(),
    // Format 2: scope 3's 取得驗證, and scope 1's 資料邊界 as served (NULL with `boundary`).
    scope3_verified: col.boolean(),
    boundary_text: col.nullable.text(),
  },
  { withoutRowid: true },
);

/** basis_tco2e: the figure basis states (the deciding manufacturing site's total, whole tonnes); NULL when it states none. */
export const CARBON_FEES = defineTable(
  'carbon_fees',
  {
    ticker: col.text('PRIMARY KEY'),
    obligated: col.boolean(),
    basis: col.text(),
    registry_year: col.nullable.integer(),
    source_id: col.text(),
    deep_link: col.text(),
    basis_tco2e: col.nullable.real(),
  },
  { withoutRowid: true },
);

/**
 * The company's most recent assured report. kind: cpa or third_party; standard as the filing states
 * it; verifications: the verifiers beside a CPA assurance.
 */
export const ASSURANCES = defineTable(
  'assurances',
  {
    ticker: col.text('PRIMARY KEY'),
    provider: col.text(),
    level: col.text<AssuredLevel>(),
    year: col.integer(),
    source_id: col.text(),
    deep_link: col.text(),
    kind: col.text<AssuranceKind>(),
    standard: col.nullable.text(),
    verifications: col.jsonArray<{ provider: string; standard: string | null }[]>(),
  },
  { withoutRowid: true },
);

export const FLAGS = defineTable(
  'flags',
  { ticker: col.text(), flag_id: col.text(), severity: col.text<Severity>(), label: col.text(), source_id: col.text(), position: col.integer() },
  { key: 'PRIMARY KEY (ticker, flag_id)', withoutRowid: true, indexes: { flags_by_id: '(flag_id, ticker)' } },
);

export const REGISTRY_SITES = defineTable(
  'registry_sites',
  { year: col.integer(), uniform_no: col.text(), ticker: col.nullable.text(), industry_code: col.text(), direct: col.real(), indirect: col.real() },
  { indexes: { registry_by_company: '(uniform_no, year)' } },
);

export const CBAM_PRODUCTS = defineTable('cbam_products', { ticker: col.text(), sector: col.text(), product: col.text() });

/**
 * source_id: the holdings' source. holdings_period: the quarter (2025Q3), holdings_asof its last day;
 * holdings_min_weight: the publisher's cut-off (0.01, or 0 when every holding is listed);
 * listed_weight: the listed weights' sum, 4 decimals.
 */
export const ETFS = defineTable(
  'etfs',
  {
    etf_code: col.text('PRIMARY KEY'),
    etf_name: col.text(),
    holdings_asof: col.text(),
    total: col.integer(),
    covered: col.integer(),
    avg_score: col.nullable.real(),
    min_score: col.nullable.real(),
    assurance_coverage_pct: col.nullable.real(),
    source_id: col.text(),
    holdings_period: col.text(),
    holdings_min_weight: col.real(),
    listed_weight: col.real(),
  },
  { withoutRowid: true },
);

export const ETF_HOLDINGS = defineTable(
  'etf_holdings',
  { etf_code: col.text(), position: col.integer(), ticker: col.text(), name: col.text(), weight: col.real() },
  { key: 'PRIMARY KEY (etf_code, position)', withoutRowid: true },
);

/** Every table, in the order the DDL creates them. */
export const SNAPSHOT_TABLES: readonly Table<any>[] = [
  META,
  SOURCES,
  SOURCE_FILES,
  COMPANIES,
  PENALTIES,
  DISCLOSURE_CONDUCT,
  CARBON_DISCLOSURES,
  CARBON_FEES,
  ASSURANCES,
  FLAGS,
  REGISTRY_SITES,
  CBAM_PRODUCTS,
  ETFS,
  ETF_HOLDINGS,
];

export const SNAPSHOT_DDL = SNAPSHOT_TABLES.map((t) => t.ddl).join('\n');

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

const columnsWith = (codec: string): ReadonlySet<string> =>
  new Set(SNAPSHOT_TABLES.flatMap((t) => t.names.filter((n: string) => (t.columns[n] as { codec: string }).codec === codec)));

/** INTEGER columns holding 0/1 booleans (decoded by the store; `boolean` in the download schema). */
export const BOOLEAN_COLUMNS = columnsWith('boolean');

/** TEXT columns holding a JSON array (decoded by the store; `array` in the download schema). */
export const JSON_ARRAY_COLUMNS = columnsWith('jsonArray');

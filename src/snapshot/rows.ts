import type { AssuranceKind, AssuranceLevel, AssuredLevel, Boundary, MarketType, Severity, UpdateFrequency, Verdict } from '../contract/vocabulary.js';
/**
 * How each table's rows become records. A record type, its column list and its builder sit side by
 * side, and every query selects that column list, so the order cannot drift. Rows are read raw
 * (arrays, not objects): the tree writer decodes a few hundred thousand of them, and building each
 * record once, in a fixed shape, is what keeps that cheap. SQLite stores booleans as 0/1 and small
 * arrays as JSON text; they are decoded here.
 */

/** A raw row: the selected columns in order. `at` is where a record's columns start in it. */
export type Raw = unknown[];

/** A `companies` row, decoded. */
export interface CompanyRecord {
  id: number;
  ticker: string;
  company_name: string;
  company_name_norm: string;
  uniform_no: string;
  market_type: MarketType;
  industry_code: string;
  industry: string;
  source_id: string;
  cbam_exposed: boolean;
  credibility_score: number;
  verdict: Verdict;
  rank: number;
  percentile: number;
  assurance_level: AssuranceLevel;
  carbon_fee_liable: boolean;
  top_flags: string[];
  top_signal_labels: string[];
  score_breakdown: { component: 'disclosure' | 'assurance' | 'compliance' | 'consistency'; points: number; max_points: number; detail: string }[];
}
export const COMPANY_COLUMNS = `id, ticker, company_name, company_name_norm, uniform_no, market_type, industry_code, industry,
  source_id, cbam_exposed, credibility_score, verdict, rank, percentile, assurance_level, carbon_fee_liable, top_flags,
  top_signal_labels, score_breakdown`;
export function companyFromRow(r: Raw, at = 0): CompanyRecord {
  return {
    id: r[at] as number,
    ticker: r[at + 1] as string,
    company_name: r[at + 2] as string,
    company_name_norm: r[at + 3] as string,
    uniform_no: r[at + 4] as string,
    market_type: r[at + 5] as CompanyRecord['market_type'],
    industry_code: r[at + 6] as string,
    industry: r[at + 7] as string,
    source_id: r[at + 8] as string,
    cbam_exposed: r[at + 9] === 1,
    credibility_score: r[at + 10] as number,
    verdict: r[at + 11] as CompanyRecord['verdict'],
    rank: r[at + 12] as number,
    percentile: r[at + 13] as number,
    assurance_level: r[at + 14] as CompanyRecord['assurance_level'],
    carbon_fee_liable: r[at + 15] === 1,
    top_flags: JSON.parse(r[at + 16] as string) as string[],
    top_signal_labels: JSON.parse(r[at + 17] as string) as string[],
    score_breakdown: JSON.parse(r[at + 18] as string) as CompanyRecord['score_breakdown'],
  };
}

/** A ranking row: what a compact ranking entry shows. */
export interface RankedCompany {
  ticker: string;
  company_name: string;
  credibility_score: number;
  verdict: CompanyRecord['verdict'];
  rank: number;
}
export const RANKED_COLUMNS = 'ticker, company_name, credibility_score, verdict, rank';
export function rankedFromRow(r: Raw, at = 0): RankedCompany {
  return {
    ticker: r[at] as string,
    company_name: r[at + 1] as string,
    credibility_score: r[at + 2] as number,
    verdict: r[at + 3] as CompanyRecord['verdict'],
    rank: r[at + 4] as number,
  };
}

export interface PenaltyRecord {
  record_id: string; agency: string; agency_name: string; date: string; fine: number; serious: boolean;
  summary: string; source_id: string; source_url: string;
}
export const PENALTY_COLUMNS = 'record_id, agency, agency_name, date, fine, serious, summary, source_id, source_url';
export function penaltyFromRow(r: Raw, at = 0): PenaltyRecord {
  return {
    record_id: r[at] as string,
    agency: r[at + 1] as string,
    agency_name: r[at + 2] as string,
    date: r[at + 3] as string,
    fine: r[at + 4] as number,
    serious: r[at + 5] === 1,
    summary: r[at + 6] as string,
    source_id: r[at + 7] as string,
    source_url: r[at + 8] as string,
  };
}

export interface DisclosureRecord {
  year: number; scope1: number | null; scope2: number | null; scope3: number | null; scope1_verified: boolean;
  scope2_verified: boolean; boundary: Boundary; report_date: string; source_id: string; deep_link: string;
  registry: { total: number; source_id: string; deep_link: string } | null;
}
export const DISCLOSURE_COLUMNS = 'year, scope1, scope2, scope3, scope1_verified, scope2_verified, boundary, report_date, source_id, deep_link, registry_total, registry_source_id, registry_deep_link';
export function disclosureFromRow(r: Raw, at = 0): DisclosureRecord {
  return {
    year: r[at] as number,
    scope1: r[at + 1] as number | null,
    scope2: r[at + 2] as number | null,
    scope3: r[at + 3] as number | null,
    scope1_verified: r[at + 4] === 1,
    scope2_verified: r[at + 5] === 1,
    boundary: r[at + 6] as DisclosureRecord['boundary'],
    report_date: r[at + 7] as string,
    source_id: r[at + 8] as string,
    deep_link: r[at + 9] as string,
    registry: r[at + 10] === null ? null : { total: r[at + 10] as number, source_id: r[at + 11] as string, deep_link: r[at + 12] as string },
  };
}

export interface CarbonFeeRecord {
  obligated: boolean; basis: string; registry_year: number | null; source_id: string; deep_link: string; basis_tco2e: number | null;
}
export const CARBON_FEE_COLUMNS = 'obligated, basis, registry_year, source_id, deep_link, basis_tco2e';
/** From a snapshot written before the basis's figure was stored: its figure reads as none (its English basis still states it). */
export const LEGACY_CARBON_FEE_COLUMNS = CARBON_FEE_COLUMNS.replace('basis_tco2e', 'NULL');
export function carbonFeeFromRow(r: Raw, at = 0): CarbonFeeRecord {
  return {
    obligated: r[at] === 1,
    basis: r[at + 1] as string,
    registry_year: r[at + 2] as number | null,
    source_id: r[at + 3] as string,
    deep_link: r[at + 4] as string,
    basis_tco2e: r[at + 5] as number | null,
  };
}

export interface AssuranceRecord {
  provider: string; level: AssuredLevel; year: number; source_id: string; deep_link: string;
  kind: AssuranceKind; standard: string | null; verifications: { provider: string; standard: string | null }[];
}
export const ASSURANCE_COLUMNS = 'provider, level, year, source_id, deep_link, kind, standard, verifications';
/**
 * The same columns from a snapshot written before kinds were stored, which did not record whether a
 * provider was a CPA firm or a verifier: the kind reads as `cpa`, with no standard or verifications.
 * A build reads such a snapshot as the previous one, to explain changes, and that reads the level
 * and year alone.
 */
export const LEGACY_ASSURANCE_COLUMNS = "provider, level, year, source_id, deep_link, 'cpa', NULL, '[]'";
export function assuranceFromRow(r: Raw, at = 0): AssuranceRecord {
  return {
    provider: r[at] as string,
    level: r[at + 1] as AssuranceRecord['level'],
    year: r[at + 2] as number,
    source_id: r[at + 3] as string,
    deep_link: r[at + 4] as string,
    kind: r[at + 5] as AssuranceRecord['kind'],
    standard: r[at + 6] as string | null,
    verifications: JSON.parse(r[at + 7] as string) as AssuranceRecord['verifications'],
  };
}

export interface FlagRecord { flag_id: string; severity: Severity; label: string; source_id: string }
export const FLAG_COLUMNS = 'flag_id, severity, label, source_id';
export function flagFromRow(r: Raw, at = 0): FlagRecord {
  return {
    flag_id: r[at] as string,
    severity: r[at + 1] as FlagRecord['severity'],
    label: r[at + 2] as string,
    source_id: r[at + 3] as string,
  };
}

export interface SourceFileRecord { file: string; url: string | null; retrieved_at: string; bytes: number; sha256: string }
export const SOURCE_FILE_COLUMNS = 'source_id, file, url, retrieved_at, bytes, sha256';
export function sourceFileFromRow(r: Raw): SourceFileRecord {
  return { file: r[1] as string, url: r[2] as string | null, retrieved_at: r[3] as string, bytes: r[4] as number, sha256: r[5] as string };
}

export interface SourceRecord {
  source_id: string; name: string; owner_org: string; owner_org_name: string; is_government: boolean;
  licence_id: string; licence_name: string; licence_url: string; update_frequency: UpdateFrequency;
  homepage_url: string; description: string; record_count: number; retrieved_at: string;
  /** Set when the publisher's latest answer was empty, blocked or unavailable and this snapshot used the previous good answers (contract 3.3, 9). */
  carried_forward: { attempted_at: string; reason: string } | null;
  /** The files this snapshot read for the source (from source_files). */
  files: SourceFileRecord[];
}
export const SOURCE_COLUMNS = `source_id, name, owner_org, owner_org_name, is_government, licence_id, licence_name, licence_url,
  update_frequency, homepage_url, description, record_count, retrieved_at, carried_forward`;
/** A snapshot written before sources could be carried forward: none was. */
export const LEGACY_SOURCE_COLUMNS = SOURCE_COLUMNS.replace('carried_forward', 'NULL AS carried_forward');
export function sourceFromRow(r: Raw): SourceRecord {
  return {
    source_id: r[0] as string,
    name: r[1] as string,
    owner_org: r[2] as string,
    owner_org_name: r[3] as string,
    is_government: r[4] === 1,
    licence_id: r[5] as string,
    licence_name: r[6] as string,
    licence_url: r[7] as string,
    update_frequency: r[8] as SourceRecord['update_frequency'],
    homepage_url: r[9] as string,
    description: r[10] as string,
    record_count: r[11] as number,
    retrieved_at: r[12] as string,
    carried_forward: r[13] === null || r[13] === undefined ? null : (JSON.parse(r[13] as string) as SourceRecord['carried_forward']),
    files: [],
  };
}

export interface EtfRecord {
  etf_code: string; etf_name: string; holdings_asof: string; total: number; covered: number;
  avg_score: number | null; min_score: number | null; assurance_coverage_pct: number | null;
  /** The holdings' source. */
  source_id: string;
  holdings_period: string; holdings_min_weight: number; listed_weight: number;
}
export const ETF_COLUMNS = `etf_code, etf_name, holdings_asof, total, covered, avg_score, min_score, assurance_coverage_pct, source_id,
  holdings_period, holdings_min_weight, listed_weight`;
/**
 * The same columns from a snapshot written before they were stored, when every fund came from the
 * MOPS form: it lists every holding (cut-off 0), the period is the quarter holdings_asof ends, and
 * the listed weight is the sum of the stored weights.
 */
export const LEGACY_ETF_COLUMNS = `etf_code, etf_name, holdings_asof, total, covered, avg_score, min_score, assurance_coverage_pct, source_id,
  substr(holdings_asof, 1, 4) || 'Q' || ((CAST(substr(holdings_asof, 6, 2) AS INTEGER) + 2) / 3), 0,
  (SELECT IFNULL(ROUND(SUM(h.weight), 4), 0) FROM etf_holdings h WHERE h.etf_code = etfs.etf_code)`;
export function etfFromRow(r: Raw): EtfRecord {
  return {
    etf_code: r[0] as string,
    etf_name: r[1] as string,
    holdings_asof: r[2] as string,
    total: r[3] as number,
    covered: r[4] as number,
    avg_score: r[5] as number | null,
    min_score: r[6] as number | null,
    assurance_coverage_pct: r[7] as number | null,
    source_id: r[8] as string,
    holdings_period: r[9] as string,
    holdings_min_weight: r[10] as number,
    listed_weight: r[11] as number,
  };
}
export interface EtfHoldingRecord { ticker: string; name: string; weight: number }

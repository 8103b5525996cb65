import type Database from 'better-sqlite3';
import { ASSURANCE_KINDS } from '../../src/contract/vocabulary.js';
import { verdictFor } from '../../src/methodology/rules.js';

/**
 * Checks a written snapshot database before it may be published. Returns the list of violations
 * (empty when sound); each names what is wrong and where.
 */
export function checkInvariants(db: Database.Database): string[] {
  const problems: string[] = [];
  const fail: Fail = (sql, message) => {
    for (const row of db.prepare(sql).all() as Record<string, unknown>[]) problems.push(message(row));
  };
  scoresAddUp(db, problems);
  ranksFollowScores(fail);
  sourcesResolve(fail);
  recordsAreWhole(fail);
  return problems;
}

/** Records a violation for every row the query returns. */
type Fail = (sql: string, message: (row: Record<string, unknown>) => string) => void;

/** Each score is its breakdown's sum, within 0–100, each component within its maximum, and its verdict the score's. */
function scoresAddUp(db: Database.Database, problems: string[]): void {
  const companies = db.prepare('SELECT ticker, credibility_score, verdict, score_breakdown FROM companies').all() as {
    ticker: string;
    credibility_score: number;
    verdict: string;
    score_breakdown: string;
  }[];
  for (const c of companies) {
    const parts = JSON.parse(c.score_breakdown) as { points: number; max_points: number }[];
    const sum = parts.reduce((s, p) => s + p.points, 0);
    if (sum !== c.credibility_score) problems.push(`${c.ticker}: breakdown sums to ${sum}, score is ${c.credibility_score}`);
    if (parts.some((p) => p.points < 0 || p.points > p.max_points)) problems.push(`${c.ticker}: a component is outside 0..max`);
    if (c.credibility_score < 0 || c.credibility_score > 100) problems.push(`${c.ticker}: score ${c.credibility_score} outside 0–100`);
    if (verdictFor(c.credibility_score) !== c.verdict) problems.push(`${c.ticker}: verdict ${c.verdict} does not match score`);
  }
}

/** Rank and percentile are the scores' own. */
function ranksFollowScores(fail: Fail): void {
  // Window functions recompute both in one pass (a correlated count would be quadratic at 100k).
  fail(
    `SELECT ticker, rank, expected_rank, percentile, expected_percentile FROM (
       SELECT ticker, rank, percentile,
         RANK() OVER (ORDER BY credibility_score DESC) AS expected_rank,
         ROUND(1000.0 * (RANK() OVER (ORDER BY credibility_score ASC) - 1) / COUNT(*) OVER ()) / 10.0 AS expected_percentile
       FROM companies)
     WHERE rank != expected_rank OR ABS(percentile - expected_percentile) > 1e-9`,
    (r) => `${r.ticker}: rank ${r.rank} / percentile ${r.percentile}, expected ${r.expected_rank} / ${r.expected_percentile}`,
  );
}

/** Every source id resolves in the registry, and every link is an expanded https URL. */
function sourcesResolve(fail: Fail): void {
  for (const table of ['companies', 'penalties', 'carbon_disclosures', 'carbon_fees', 'assurances', 'flags', 'etfs']) {
    fail(
      `SELECT DISTINCT t.source_id FROM ${table} t LEFT JOIN sources s ON s.source_id = t.source_id WHERE s.source_id IS NULL`,
      (r) => `${table}: source_id ${r.source_id} does not resolve in the registry`,
    );
  }
  fail(
    `SELECT ticker, registry_source_id FROM carbon_disclosures d LEFT JOIN sources s ON s.source_id = d.registry_source_id
     WHERE d.registry_source_id IS NOT NULL AND s.source_id IS NULL`,
    (r) => `carbon_disclosures: registry source_id ${r.registry_source_id} of ${r.ticker} does not resolve in the registry`,
  );
  for (const [table, column] of [
    ['penalties', 'source_url'],
    ['carbon_disclosures', 'deep_link'],
    ['carbon_fees', 'deep_link'],
    ['assurances', 'deep_link'],
  ]) {
    fail(
      `SELECT ticker, ${column} AS url FROM ${table} WHERE ${column} LIKE '%{%' OR ${column} LIKE '%}%' OR ${column} NOT LIKE 'https://%'`,
      (r) => `${table}.${column} of ${r.ticker}: not an expanded https URL: ${r.url}`,
    );
  }
}

/** Each record is whole: assurances' kinds, funds' periods and weights, top flags, the carbon fee. */
function recordsAreWhole(fail: Fail): void {
  // Contract 3.2: a known kind; verifications a JSON array, listed only beside a CPA assurance.
  fail(
    `SELECT ticker, kind FROM assurances WHERE kind NOT IN (${ASSURANCE_KINDS.map((k) => `'${k}'`).join(', ')})
       OR json_valid(verifications) = 0 OR json_type(verifications) != 'array'
       OR (kind != 'cpa' AND json_array_length(verifications) > 0)`,
    (r) => `assurances of ${r.ticker}: kind ${r.kind} with verifications that are not an array, or that only a CPA assurance may list`,
  );
  // Contract 4.3: the period is a quarter and holdings_asof its last day; listed_weight is the stored weights' sum.
  fail(
    `SELECT e.etf_code, e.holdings_period, e.holdings_asof, e.listed_weight, e.total, COUNT(h.position) AS n, IFNULL(SUM(h.weight), 0) AS sum
     FROM etfs e LEFT JOIN etf_holdings h ON h.etf_code = e.etf_code GROUP BY e.etf_code
     HAVING e.total != n OR ABS(e.listed_weight - sum) > 0.00005 + 1e-9 OR e.holdings_min_weight NOT BETWEEN 0 AND 1
       OR e.holdings_period NOT GLOB '[0-9][0-9][0-9][0-9]Q[1-4]'
       OR e.holdings_asof != date(substr(e.holdings_period, 1, 4) || '-' || printf('%02d', 3 * CAST(substr(e.holdings_period, 6) AS INTEGER)) || '-01', '+1 month', '-1 day')`,
    (r) =>
      `etfs ${r.etf_code}: period ${r.holdings_period} as of ${r.holdings_asof}, listed weight ${r.listed_weight} of ${r.total} holdings, but ${r.n} holdings summing to ${r.sum}`,
  );
  fail(
    `SELECT c.ticker, j.value AS flag FROM companies c, json_each(c.top_flags) j
     LEFT JOIN flags f ON f.ticker = c.ticker AND f.flag_id = j.value WHERE f.flag_id IS NULL`,
    (r) => `${r.ticker}: top flag ${r.flag} is not among its flags`,
  );
  fail(
    `SELECT c.ticker FROM companies c JOIN carbon_fees f ON f.ticker = c.ticker WHERE c.carbon_fee_liable != f.obligated`,
    (r) => `${r.ticker}: carbon_fee_liable disagrees with carbon_fee.obligated`,
  );
  fail(
    `SELECT c.ticker FROM companies c LEFT JOIN carbon_fees f ON f.ticker = c.ticker WHERE f.ticker IS NULL`,
    (r) => `${r.ticker}: no carbon_fee fact`,
  );
}

import type { SourceModule } from './source.js';
import type { SourceCounts } from './tally.js';

/**
 * The data assertions of contract-less reality: each source module states the least it must yield
 * and the most it may (source.ts, `SourceAssertions`). A minimum not met fails the fetch or the
 * build and names the assertion; a maximum exceeded is a warning in the summary. Absolute minima
 * are scaled by `ASSERT_MIN_SCALE` (a small test universe); an empty source fails at any scale (the fetch
 * carries an empty answer forward first: fetch/carry-forward.ts).
 */

export const MIN_SCALE_VARIABLE = 'ASSERT_MIN_SCALE';

export interface Outcome {
  failures: string[];
  warnings: string[];
}

/** `ASSERT_MIN_SCALE` as a number in (0, 1]; 1 when unset. */
export function minScale(env: NodeJS.ProcessEnv): number {
  const raw = env[MIN_SCALE_VARIABLE];
  if (raw === undefined || raw === '') return 1;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0 || n > 1) throw new Error(`${MIN_SCALE_VARIABLE} must be a number in (0, 1], got ${JSON.stringify(raw)}`);
  return n;
}

const scaled = (n: number, scale: number) => Math.max(1, Math.ceil(n * scale));

/** After a fetch: the records it yielded against the absolute minimum, the previous fetch and the maximum. */
export function checkFetched(m: SourceModule, records: number, previous: number | null, scale: number): Outcome {
  const a = m.assertions;
  const id = m.info.source_id;
  const out: Outcome = { failures: [], warnings: [] };
  const least = scaled(a.minRecords, scale);
  if (records < least)
    out.failures.push(
      `${id}: assertion minRecords failed: ${records} records, at least ${least} expected${scale !== 1 ? ` (${a.minRecords} × ${MIN_SCALE_VARIABLE}=${scale})` : ''}`,
    );
  const share = a.minOfPrevious ?? 0.5;
  if (previous !== null && previous > 0 && records < previous * share) {
    out.failures.push(
      `${id}: assertion minOfPrevious failed: ${records} records, under ${Math.round(share * 100)} % of the previous fetch's ${previous}`,
    );
  }
  if (records > a.maxRecords) out.warnings.push(`${id}: ${records} records, above the ${a.maxRecords} expected (assertion maxRecords)`);
  return out;
}

/**
 * After the build read a source: its records (absolute minima for production builds only, since a
 * demo universe may be any size; never empty), the share of records linking to a company, the
 * companies linked, and the share carrying the key figure.
 */
export function checkRead(m: SourceModule, c: SourceCounts, o: { scale: number; absolute: boolean }): Outcome {
  const a = m.assertions;
  const id = m.info.source_id;
  const out: Outcome = { failures: [], warnings: [] };
  const least = o.absolute ? scaled(a.minRecords, o.scale) : 1;
  if (c.records < least) out.failures.push(`${id}: assertion minRecords failed: ${c.records} records read, at least ${least} expected`);
  if (c.records > a.maxRecords) out.warnings.push(`${id}: ${c.records} records read, above the ${a.maxRecords} expected (assertion maxRecords)`);
  if (c.records === 0) return out;
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
  if (a.minLinkedShare !== undefined && c.linked / c.records < a.minLinkedShare) {
    out.failures.push(
      `${id}: assertion minLinkedShare failed: ${pct(c.linked / c.records)} of ${c.records} records link to a ` +
        `company of the universe, at least ${pct(a.minLinkedShare)} expected (a join that matches almost nothing: a ` +
        `renamed code or number?)`,
    );
  }
  if (a.minLinkedCompanies !== undefined && o.absolute && c.companies.size < scaled(a.minLinkedCompanies, o.scale)) {
    out.failures.push(
      `${id}: assertion minLinkedCompanies failed: the records link to ${c.companies.size} companies, at least ${scaled(a.minLinkedCompanies, o.scale)} expected`,
    );
  }
  if (a.minFilled !== undefined && c.filled / c.records < a.minFilled.share) {
    out.failures.push(
      `${id}: assertion minFilled failed: ${pct(c.filled / c.records)} of records carry ${a.minFilled.what}, at least ${pct(a.minFilled.share)} expected`,
    );
  }
  return out;
}

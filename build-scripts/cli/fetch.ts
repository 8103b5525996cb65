import { parseArgs } from 'node:util';
import { fetchSources } from '../fetch/fetch-sources.js';

/**
 * npm run fetch -- --out DIR [--only SRC-… (repeatable)] [--asof YYYY-MM-DD]
 * Environment: MOENV_API_KEY (required for the MOENV sources; never printed or stored),
 * FETCH_URL_<SOURCE_ID> per-source URL overrides, FETCH_TIMEOUT_MS, FETCH_MIN_INTERVAL_MS.
 */
const { values } = parseArgs({
  options: {
    out: { type: 'string' },
    only: { type: 'string', multiple: true },
    asof: { type: 'string' },
  },
});

if (!values.out) {
  console.error('usage: npm run fetch -- --out DIR [--only SRC-… ...] [--asof YYYY-MM-DD]');
  process.exit(2);
}
if (values.asof !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(values.asof)) {
  console.error('--asof must be YYYY-MM-DD');
  process.exit(2);
}
const number = (name: string): number | undefined => {
  const v = process.env[name];
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) {
    console.error(`${name} must be a number of milliseconds ≥ 0`);
    process.exit(2);
  }
  return n;
};

const start = performance.now();
try {
  const result = await fetchSources({
    outDir: values.out,
    only: values.only,
    asof: values.asof,
    env: process.env,
    log: (m) => console.error(`[fetch] ${m}`),
    http: {
      ...(number('FETCH_TIMEOUT_MS') !== undefined ? { timeoutMs: number('FETCH_TIMEOUT_MS') } : {}),
      ...(number('FETCH_MIN_INTERVAL_MS') !== undefined ? { minIntervalMs: number('FETCH_MIN_INTERVAL_MS') } : {}),
      ...(number('FETCH_RETRY_BASE_MS') !== undefined ? { retryBaseMs: number('FETCH_RETRY_BASE_MS') } : {}),
    },
  });
  const lines = [`Fetched into ${result.outDir} in ${((performance.now() - start) / 1000).toFixed(1)} s:`];
  for (const f of result.fetched) lines.push(`  ${f.source_id.padEnd(24)} ${String(f.records).padStart(8)} records  ${f.file}  sha256 ${f.sha256.slice(0, 12)}…`);
  if (result.carried.length > 0) lines.push(`Kept from the previous folder: ${result.carried.join(', ')}`);
  for (const m of result.missing) lines.push(`Missing ${m.sourceId} (${m.file}): ${m.note}, or put ${m.file} into ${result.outDir} yourself.`);
  console.log(lines.join('\n'));
} catch (e) {
  console.error(`fetch failed: ${(e as Error).message}`);
  console.error('The previous sources folder (if any) is unchanged.');
  process.exit(1);
}

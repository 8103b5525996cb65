import { parseArgs } from 'node:util';
import { fetchSources } from '../fetch/fetch-sources.js';
import { httpOptionsFromEnv } from '../fetch/http-env.js';
import { formatFetchSummary } from './fetch-summary.js';

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
const start = performance.now();
try {
  const result = await fetchSources({
    outDir: values.out,
    only: values.only,
    asof: values.asof,
    env: process.env,
    log: (m) => console.error(`[fetch] ${m}`),
    http: httpOptionsFromEnv(process.env),
  });
  console.log(formatFetchSummary(result, performance.now() - start));
} catch (e) {
  console.error(`fetch failed: ${(e as Error).message}`);
  console.error('The previous sources folder (if any) is unchanged.');
  process.exit(1);
}

import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { refresh } from '../refresh.js';
import { httpOptionsFromEnv } from '../fetch/http-env.js';
import { minScale } from '../sources/kit/assertions.js';
import { stderrProgress } from '../snapshot/progress.js';
import { snapshotsDirFromEnv } from '../../src/snapshot/published.js';
import { formatFetchSummary } from './fetch-summary.js';
import { formatSummary } from './summary.js';

/**
 * npm run refresh [-- --sources DIR] [--max-rejects N]: the monthly run in one command, for cron or a
 * systemd timer. Fetches every source from its publisher into DIR (the previous folder stays until
 * the new one is complete), builds, checks and publishes a production snapshot. Any failure exits 1
 * with the reason, leaving the current snapshot as it was; the summary says what each source gave.
 */
const { values } = parseArgs({
  options: {
    sources: { type: 'string', default: 'data/sources/latest' },
    'max-rejects': { type: 'string', default: '0' },
  },
});
const maxRejects = Number(values['max-rejects']);
if (!Number.isInteger(maxRejects) || maxRejects < 0) {
  console.error('--max-rejects must be a whole number ≥ 0');
  process.exit(2);
}

const start = performance.now();
try {
  await refresh({
    sourcesDir: resolve(values.sources!),
    snapshotsDir: snapshotsDirFromEnv(),
    env: process.env,
    now: new Date(),
    maxRejects,
    assertScale: minScale(process.env),
    serviceHost: process.env.SERVICE_HOST,
    http: httpOptionsFromEnv(process.env),
    log: (m) => console.error(`[fetch] ${m}`),
    progress: stderrProgress('snapshot'),
    onFetched: (r) => console.log(formatFetchSummary(r, performance.now() - start)),
  }).then(({ built }) => console.log(formatSummary(built, performance.now() - start)));
} catch (e) {
  console.error(`refresh failed: ${(e as Error).message}`);
  console.error('The current snapshot is unchanged.');
  process.exit(1);
}

import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildAndPublish } from '../build.js';
import { stderrProgress } from '../snapshot/progress.js';
import { snapshotsDirFromEnv } from '../../src/snapshot/published.js';
import { formatSummary } from './summary.js';
import { minScale } from '../sources/kit/assertions.js';

const USAGE = [
  'usage: npm run snapshot -- --sources DIR [--asof YYYY-MM-DD] [--max-rejects N] [--kind production|demo]',
  "  --kind  what the sources must be. The sources decide: the demo generator's folders (tickers D…) make a demo",
  "          snapshot, the publishers' files a production one; a --kind they contradict fails, nothing published.",
].join('\n');

/**
 * Builds and publishes a snapshot from a sources folder. Its kind follows the sources
 * (build-scripts/snapshot/snapshot-kind.ts): the demo generator's folders make a demo snapshot, the
 * publishers' files a production one. `--kind` states what the operator expects, and a build whose
 * sources say otherwise fails with nothing published.
 */
const { values } = parseArgs({
  options: {
    sources: { type: 'string' },
    asof: { type: 'string' },
    'max-rejects': { type: 'string', default: '0' },
    kind: { type: 'string' },
  },
});

const maxRejects = Number(values['max-rejects']);
if (!values.sources) {
  console.error(USAGE);
  process.exit(2);
}
if (!Number.isInteger(maxRejects) || maxRejects < 0) {
  console.error('--max-rejects must be a whole number ≥ 0');
  process.exit(2);
}
if (values.asof !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(values.asof)) {
  console.error('--asof must be YYYY-MM-DD');
  process.exit(2);
}
if (values.kind !== undefined && values.kind !== 'production' && values.kind !== 'demo') {
  console.error('--kind must be production or demo (leave it out: the kind the sources are)');
  process.exit(2);
}
const start = performance.now();
try {
  const result = await buildAndPublish({
    sourcesDir: resolve(values.sources),
    snapshotsDir: snapshotsDirFromEnv(),
    kind: values.kind,
    now: new Date(),
    asof: values.asof,
    maxRejects,
    assertScale: minScale(process.env),
    serviceHost: process.env.SERVICE_HOST,
    progress: stderrProgress('snapshot'),
  });
  console.log(formatSummary(result, performance.now() - start));
} catch (e) {
  console.error(`snapshot build failed: ${(e as Error).message}`);
  process.exit(1);
}

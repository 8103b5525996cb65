import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildAndPublish } from '../build.js';
import { generateDemo } from '../demo/generate.js';
import { stderrProgress } from '../snapshot/progress.js';
import { DEFAULT_DEMO_SOURCES, demoPublishTime } from './defaults.js';
import { snapshotsDirFromEnv } from '../../src/snapshot/published.js';
import { formatSummary } from './summary.js';

/** npm run demo [-- --companies N --seed N --sources DIR --now ISO]: generate the demo sources, build, publish. */
const { values } = parseArgs({
  options: {
    companies: { type: 'string', default: '1800' },
    seed: { type: 'string' },
    sources: { type: 'string', default: DEFAULT_DEMO_SOURCES },
    now: { type: 'string' },
  },
});

const companies = Number(values.companies);
if (!Number.isInteger(companies) || companies < 50) {
  console.error('--companies must be a whole number ≥ 50');
  process.exit(2);
}
const start = performance.now();
const progress = stderrProgress('demo');
try {
  const sourcesDir = resolve(values.sources);
  const generated = await generateDemo({ outDir: sourcesDir, companies, ...(values.seed ? { seed: Number(values.seed) } : {}) });
  progress.step(`demo sources written to ${sourcesDir}`);
  const result = await buildAndPublish({
    sourcesDir,
    snapshotsDir: snapshotsDirFromEnv(),
    kind: 'demo',
    now: values.now ? new Date(values.now) : demoPublishTime(generated.asof),
    serviceHost: process.env.SERVICE_HOST,
    progress,
  });
  console.log(formatSummary(result, performance.now() - start));
} catch (e) {
  console.error(`demo build failed: ${(e as Error).message}`);
  process.exit(1);
}

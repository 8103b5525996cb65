import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildAndPublish } from '../build.js';
import { generateDemo } from '../demo/generate.js';
import { stderrProgress } from '../snapshot/progress.js';
import { DEFAULT_DEMO_SOURCES, demoPublishTime } from './defaults.js';
import { currentSnapshotDir, snapshotsDirFromEnv } from '../../src/snapshot/published.js';
import { formatSummary } from './summary.js';

/**
 * Run by `npm start` before the server: on a fresh clone nothing is published, so it generates the
 * demo universe and publishes a snapshot from it; otherwise it does nothing. The server itself
 * never builds (server/ imports nothing from build-scripts/).
 */
const snapshotsDir = snapshotsDirFromEnv();
const current = currentSnapshotDir(snapshotsDir);
if (current === null || !existsSync(current)) {
  console.error(`No snapshot published in ${snapshotsDir}: building the demo snapshot.`);
  const start = performance.now();
  try {
    const generated = await generateDemo({ outDir: resolve(DEFAULT_DEMO_SOURCES) });
    const result = await buildAndPublish({
      sourcesDir: resolve(DEFAULT_DEMO_SOURCES),
      snapshotsDir,
      kind: 'demo',
      now: demoPublishTime(generated.asof),
      serviceHost: process.env.SERVICE_HOST,
      progress: stderrProgress('demo'),
    });
    console.error(formatSummary(result, performance.now() - start));
  } catch (e) {
    console.error(`demo build failed: ${(e as Error).message}`);
    process.exit(1);
  }
}

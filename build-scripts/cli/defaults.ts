import { buildAndPublish } from '../build.js';
import { generateDemo } from '../demo/generate.js';
import { stderrProgress } from '../snapshot/progress.js';
import { snapshotsDirFromEnv } from '../../src/snapshot/published.js';
import { formatSummary } from './summary.js';
export const DEFAULT_DEMO_SOURCES = 'data/demo-sources';

/** The demo's publish moment is fixed (the day after its as-of date) so demo builds are reproducible. */
export function demoPublishTime(asof: string): Date {
  const d = new Date(`${asof}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d;
}

/**
 * Generates the demo sources and builds and publishes a snapshot from them, printing the summary:
 * what `npm run demo` does, and what `npm start` does on a fresh clone.
 */
export async function publishDemo(o: { sourcesDir: string; companies?: number; seed?: number; now?: Date }): Promise<void> {
  const start = performance.now();
  const progress = stderrProgress('demo');
  try {
    const generated = await generateDemo({ outDir: o.sourcesDir, ...(o.companies ? { companies: o.companies } : {}), ...(o.seed ? { seed: o.seed } : {}) });
    progress.step(`demo sources written to ${o.sourcesDir}`);
    const result = await buildAndPublish({
      sourcesDir: o.sourcesDir,
      snapshotsDir: snapshotsDirFromEnv(),
      kind: 'demo',
      now: o.now ?? demoPublishTime(generated.asof),
      serviceHost: process.env.SERVICE_HOST,
      progress,
    });
    console.error(formatSummary(result, performance.now() - start));
  } catch (e) {
    console.error(`demo build failed: ${(e as Error).message}`);
    process.exit(1);
  }
}

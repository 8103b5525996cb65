import { join } from 'node:path';
import { DEMO_INPUTS } from './demo-fixtures.js';
import { cachedFixture } from './fixture-cache.js';

/**
 * The snapshots folder holding the evolving demo (`npm run demo`): two 1,800-company months, pages
 * included. Built when a test file first imports this module and cached between runs
 * (fixture-cache.ts): import it only where a test needs it, and never write into it (copy it first).
 * The builder is imported only when the cache has no folder for these inputs (demo-snapshots-dir.ts says why).
 */
export const demoSeriesSnapshotsDir = join(
  await cachedFixture({
    name: 'demo-series',
    inputs: DEMO_INPUTS,
    build: async (root) => {
      const { buildDemoSeries } = await import('./demo-series.js');
      await buildDemoSeries({ root });
    },
  }),
  'snapshots',
);

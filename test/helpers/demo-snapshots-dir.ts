import { join } from 'node:path';
import { DEMO_INPUTS } from './demo-fixtures.js';
import { cachedFixture } from './fixture-cache.js';

/**
 * The snapshots folder holding the default (1,800-company) demo snapshot, pages included. Built when
 * a test file first imports this module and cached between runs (fixture-cache.ts): import it only
 * where a test needs it, and never write into it (copy it first). The builder is imported only when
 * the cache has no folder for these inputs: importing the whole build (demo-snapshot.ts, about 1.3 s
 * of evaluation) was most of the import time of the 70-odd test files that only read the snapshot.
 */
export const demoSnapshotsDir = join(
  await cachedFixture({
    name: 'demo',
    inputs: DEMO_INPUTS,
    build: async (root) => {
      const { buildDemoSnapshot } = await import('./demo-snapshot.js');
      await buildDemoSnapshot({ root });
    },
  }),
  'snapshots',
);

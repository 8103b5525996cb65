import { join } from 'node:path';
import { DEMO_INPUTS } from './demo-fixtures.js';
import { buildDemoSeries } from './demo-series.js';
import { cachedFixture } from './fixture-cache.js';

/**
 * The snapshots folder holding the evolving demo (`npm run demo`): two 1,800-company months, pages
 * included. Built when a test file first imports this module and cached between runs
 * (fixture-cache.ts): import it only where a test needs it, and never write into it (copy it first).
 */
export const demoSeriesSnapshotsDir = join(
  await cachedFixture({ name: 'demo-series', inputs: DEMO_INPUTS, build: async (root) => void (await buildDemoSeries({ root })) }),
  'snapshots',
);

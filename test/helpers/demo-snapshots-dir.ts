import { join } from 'node:path';
import { DEMO_INPUTS } from './demo-fixtures.js';
import { buildDemoSnapshot } from './demo-snapshot.js';
import { cachedFixture } from './fixture-cache.js';

/**
 * The snapshots folder holding the default (1,800-company) demo snapshot, pages included. Built when
 * a test file first imports this module and cached between runs (fixture-cache.ts): import it only
 * where a test needs it, and never write into it (copy it first).
 */
export const demoSnapshotsDir = join(
  await cachedFixture({ name: 'demo', inputs: DEMO_INPUTS, build: async (root) => void (await buildDemoSnapshot({ root })) }),
  'snapshots',
);

import { parentPort, workerData } from 'node:worker_threads';
import type { SnapshotsResponse } from '../../src/contract/snapshots.js';
import type { Locale } from '../../src/site/i18n/locales.js';
import { SnapshotStore } from '../../src/snapshot/store.js';
import { abandonChunks, type ChunkPlan } from '../tree/company-chunks.js';
import { writeCompanyPages } from './company-pages.js';
import { industrySlugs } from './industry-slugs.js';
import { PageFiles } from './page-files.js';
import { createRenderer } from './render.js';
import { writeSharedPages } from './shared-pages.js';
import { readChanges, treeOf } from './tree-bodies.js';

/**
 * One page worker: claims jobs from the shared plan until none is left. Job 0 is every page that is
 * not a company's own (claimed first, as it is the longest); job k is company chunk k − 1.
 */
const { snapshotDir, treeDir, plan, snapshots, locales } = workerData as {
  snapshotDir: string;
  treeDir: string;
  plan: ChunkPlan;
  snapshots: SnapshotsResponse;
  locales: Locale[];
};
const NEXT_JOB = 0;
const store = SnapshotStore.open(snapshotDir);
try {
  const render = await createRenderer();
  const files = new PageFiles(treeDir);
  const slug = industrySlugs(store);
  // The JSON the build wrote into this snapshot's tree; the changes once per thread, not per company.
  const tree = treeOf(snapshotDir);
  const bodies = { treeDir: tree, changes: readChanges(tree) };
  const jobs = plan.bounds.length;
  for (let job = Atomics.add(plan.counters, NEXT_JOB, 1); job < jobs; job = Atomics.add(plan.counters, NEXT_JOB, 1)) {
    if (job === 0) await writeSharedPages(store, render, files, snapshots, locales);
    else await writeCompanyPages(store, store.factsBetween(plan.bounds[job - 1]!, plan.bounds[job]!), render, files, bodies, slug, locales);
  }
  parentPort!.postMessage({ stats: files.stats });
} catch (e) {
  abandonChunks(plan);
  parentPort!.postMessage({ error: { message: (e as Error).stack ?? (e as Error).message } });
} finally {
  store.close();
}

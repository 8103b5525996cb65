import { parentPort, workerData } from 'node:worker_threads';
import { SnapshotStore } from '../../src/snapshot/store.js';
import { companyResources } from './static-resources.js';
import { writeResources } from './write-tree.js';

/** One tree worker: renders and writes the company files of tickers in [from, to). */
const { snapshotDir, treeDir, from, to } = workerData as { snapshotDir: string; treeDir: string; from: string; to: string };
const store = SnapshotStore.open(snapshotDir);
try {
  parentPort!.postMessage({ stats: writeResources(companyResources(store, store.factsBetween(from, to)), treeDir) });
} catch (e) {
  parentPort!.postMessage({ error: (e as Error).message });
} finally {
  store.close();
}

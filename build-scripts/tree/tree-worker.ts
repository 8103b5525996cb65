import { parentPort, workerData } from 'node:worker_threads';
import { SnapshotStore } from '../../src/snapshot/store.js';
import { abandonChunks, writeCompanyChunks, type ChunkPlan } from './company-chunks.js';
import { TreeFiles } from './tree-files.js';

/** One tree worker: claims chunks of company files from the shared plan until none is left. */
const { snapshotDir, treeDir, plan } = workerData as { snapshotDir: string; treeDir: string; plan: ChunkPlan };
const store = SnapshotStore.open(snapshotDir);
try {
  const files = new TreeFiles(treeDir);
  writeCompanyChunks(store, files, plan);
  parentPort!.postMessage({ stats: files.stats });
} catch (e) {
  abandonChunks(plan);
  parentPort!.postMessage({ error: { name: (e as Error).name, message: (e as Error).message } });
} finally {
  store.close();
}

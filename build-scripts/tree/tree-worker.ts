import { parentPort, workerData } from 'node:worker_threads';
import { SnapshotStore } from '../../src/snapshot/store.js';
import { HistoryPass, type HistoryOptions } from '../history/chunk-history.js';
import { abandonChunks, writeCompanyChunks, type ChunkPlan } from './company-chunks.js';
import { TreeFiles } from '../output/tree-files.js';

/** One tree worker: claims chunks of company files (and their histories) from the shared plan until none is left. */
const {
  snapshotDir,
  treeDir,
  plan,
  history: historyOptions,
} = workerData as { snapshotDir: string; treeDir: string; plan: ChunkPlan; history: HistoryOptions | null };
const store = SnapshotStore.open(snapshotDir);
let history: HistoryPass | null = null;
try {
  history = historyOptions ? new HistoryPass(store.meta, historyOptions) : null;
  const files = new TreeFiles(treeDir);
  writeCompanyChunks(store, files, plan, history);
  parentPort!.postMessage({ stats: files.stats, changes: history?.changes ?? [] });
} catch (e) {
  abandonChunks(plan);
  parentPort!.postMessage({ error: { name: (e as Error).name, message: (e as Error).message } });
} finally {
  history?.close();
  store.close();
}

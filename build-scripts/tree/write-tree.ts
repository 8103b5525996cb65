import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { SnapshotStore } from '../../src/snapshot/store.js';
import { abandonChunks, planChunks, writeCompanyChunks, type ChunkPlan } from './company-chunks.js';
import { sharedResources } from './shared-resources.js';
import { HistoryPass, ownRecord, type HistoryOptions } from '../history/chunk-history.js';
import { createHistoryDb, sealHistoryDb } from '../history/history-db.js';
import { HISTORY_DB } from '../../src/snapshot/history-store.js';
import type { IndexedChange } from '../../src/snapshot/changes-store.js';
import { compareChanges } from '../../src/views/changes.js';
import { TreeFiles, TreeValidationError, type TreeStats } from '../output/tree-files.js';

/** Below this many companies, a thread costs more to start than it saves. */
const PARALLEL_FROM = 5_000;
/** Companies per claimed chunk: small enough to balance threads, large enough that a claim is rare. */
const CHUNK_SIZE = 1_000;
/** How often the build's progress line moves. */
const PROGRESS_EVERY = 50_000;

interface WorkerResult {
  stats: TreeStats;
  changes: IndexedChange[];
}

function runWorker(snapshotDir: string, treeDir: string, plan: ChunkPlan, history: HistoryOptions | null): Promise<WorkerResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./tree-worker-entry.mjs', import.meta.url), { workerData: { snapshotDir, treeDir, plan, history } });
    let result: WorkerResult | null = null;
    let failure: Error | null = null;
    worker.once('message', (m: Partial<WorkerResult> & { error?: { name: string; message: string } }) => {
      if (m.error) failure = m.error.name === 'TreeValidationError' ? new TreeValidationError(m.error.message) : new Error(m.error.message);
      else result = { stats: m.stats!, changes: m.changes! };
    });
    worker.once('error', (e) => (failure ??= e));
    worker.once('exit', (code) => (result ? resolve(result) : reject(failure ?? new Error(`tree worker exited with code ${code}`))));
  });
}

/**
 * Renders every static resource of the snapshot into treeDir, each body validated first. Company
 * files (two per company, nearly all of the tree) are cut into chunks that this thread and
 * `threads - 1` workers claim from a shared counter; this thread writes the shared resources first,
 * while the workers start. Every thread has stopped writing when this settles, failure or not.
 *
 * With `history`, the same pass writes each company's history file and its entry for the history
 * store, and explains what changed since the previous snapshot (contract section 10): those are
 * per company too, and reading each chunk's facts once for all of them is most of what they cost.
 * `changes` then holds every change, in the contract's order.
 */
export async function writeTree(
  store: SnapshotStore,
  treeDir: string,
  o: { threads?: number; chunkSize?: number; onProgress?: (files: number) => void; history?: HistoryOptions } = {},
): Promise<TreeStats & { changes: IndexedChange[] }> {
  const tickers = store.tickers();
  const threads = tickers.length < PARALLEL_FROM && o.threads === undefined ? 1 : Math.max(1, Math.min(o.threads ?? availableParallelism(), 8));
  const plan = planChunks(tickers, o.chunkSize ?? CHUNK_SIZE);
  const historyOptions = o.history ?? null;
  const ownEntries = historyOptions ? join(historyOptions.snapshotDir, HISTORY_DB) : null;
  if (ownEntries) createHistoryDb(ownEntries, ownRecord(store.meta, historyOptions!));
  const workers = Array.from({ length: threads - 1 }, () => runWorker(store.dir, treeDir, plan, historyOptions));
  const files = new TreeFiles(treeDir);
  let history: HistoryPass | null = null;
  let reported = 0;
  try {
    files.writeAll(sharedResources(store));
    history = historyOptions ? new HistoryPass(store.meta, historyOptions) : null;
    writeCompanyChunks(store, files, plan, history, (done) => {
      if (Math.floor(done / PROGRESS_EVERY) > Math.floor(reported / PROGRESS_EVERY)) o.onProgress?.(done);
      reported = done;
    });
  } catch (e) {
    abandonChunks(plan);
    await Promise.allSettled(workers);
    throw e;
  } finally {
    history?.close();
  }
  const done = await Promise.allSettled(workers);
  const failed = done.find((d) => d.status === 'rejected');
  if (failed) throw failed.reason;
  if (ownEntries) sealHistoryDb(ownEntries);
  const results = done.map((d) => (d as PromiseFulfilledResult<WorkerResult>).value);
  const changes = [...(history?.changes ?? []), ...results.flatMap((r) => r.changes)].sort((a, b) => compareChanges(a.item, b.item));
  const stats = results.reduce((a, r) => ({ files: a.files + r.stats.files, bytes: a.bytes + r.stats.bytes }), files.stats);
  return { ...stats, changes };
}

import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { SnapshotStore } from '../../src/snapshot/store.js';
import { abandonChunks, planChunks, writeCompanyChunks, type ChunkPlan } from './company-chunks.js';
import { sharedResources } from './shared-resources.js';
import { TreeFiles, TreeValidationError, type TreeStats } from './tree-files.js';

/** Below this many companies, a thread costs more to start than it saves. */
const PARALLEL_FROM = 5_000;
/** Companies per claimed chunk: small enough to balance threads, large enough that a claim is rare. */
const CHUNK_SIZE = 1_000;
/** How often the build's progress line moves. */
const PROGRESS_EVERY = 50_000;

function runWorker(snapshotDir: string, treeDir: string, plan: ChunkPlan): Promise<TreeStats> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./tree-worker-entry.mjs', import.meta.url), { workerData: { snapshotDir, treeDir, plan } });
    let result: TreeStats | null = null;
    let failure: Error | null = null;
    worker.once('message', (m: { stats?: TreeStats; error?: { name: string; message: string } }) => {
      if (m.error) failure = m.error.name === 'TreeValidationError' ? new TreeValidationError(m.error.message) : new Error(m.error.message);
      else result = m.stats!;
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
 */
export async function writeTree(
  store: SnapshotStore,
  treeDir: string,
  o: { threads?: number; chunkSize?: number; onProgress?: (files: number) => void } = {},
): Promise<TreeStats> {
  const tickers = store.tickers();
  const threads = tickers.length < PARALLEL_FROM && o.threads === undefined ? 1 : Math.max(1, Math.min(o.threads ?? availableParallelism(), 8));
  const plan = planChunks(tickers, o.chunkSize ?? CHUNK_SIZE);
  const workers = Array.from({ length: threads - 1 }, () => runWorker(store.dir, treeDir, plan));
  const files = new TreeFiles(treeDir);
  let reported = 0;
  try {
    files.writeAll(sharedResources(store));
    writeCompanyChunks(store, files, plan, (done) => {
      if (Math.floor(done / PROGRESS_EVERY) > Math.floor(reported / PROGRESS_EVERY)) o.onProgress?.(done);
      reported = done;
    });
  } catch (e) {
    abandonChunks(plan);
    await Promise.allSettled(workers);
    throw e;
  }
  const done = await Promise.allSettled(workers);
  const failed = done.find((d) => d.status === 'rejected');
  if (failed) throw failed.reason;
  return done.reduce((a, d) => {
    const s = (d as PromiseFulfilledResult<TreeStats>).value;
    return { files: a.files + s.files, bytes: a.bytes + s.bytes };
  }, files.stats);
}

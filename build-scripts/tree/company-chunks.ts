import type { SnapshotStore } from '../../src/snapshot/store.js';
import type { HistoryPass } from '../history/chunk-history.js';
import { companyResources } from './company-resources.js';
import type { TreeFiles } from '../output/tree-files.js';

/** Sorts after every code ([0-9A-Z]): the open upper bound of the last ticker range. */
const AFTER_EVERY_CODE = '~';
/** Sorts before every code: the first range's lower bound, so a range pass over an older snapshot misses none of its companies. */
const BEFORE_EVERY_CODE = '';

/**
 * The company files cut into ticker ranges that threads claim one at a time from a shared counter,
 * so a thread that starts late or runs slow simply takes fewer: no thread waits on a fixed share.
 * `bounds[i]` to `bounds[i + 1]` is chunk i; `counters[0]` is the next unclaimed chunk and
 * `counters[1]` the files written so far, both shared between threads (a SharedArrayBuffer).
 */
export interface ChunkPlan {
  bounds: string[];
  counters: Int32Array;
}

const NEXT_CHUNK = 0;
const FILES_DONE = 1;

export function planChunks(tickers: readonly string[], chunkSize: number): ChunkPlan {
  // One chunk at least, even with no company: the history pass still explains the companies that left.
  const bounds: string[] = [BEFORE_EVERY_CODE];
  for (let i = chunkSize; i < tickers.length; i += chunkSize) bounds.push(tickers[i]!);
  bounds.push(AFTER_EVERY_CODE);
  return { bounds, counters: new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT)) };
}

/**
 * Writes chunks until none is left; returns after each chunk's files are on disk. With a history
 * pass, each chunk's histories and changes are written from the same facts.
 */
export function writeCompanyChunks(
  store: SnapshotStore,
  files: TreeFiles,
  plan: ChunkPlan,
  history: HistoryPass | null,
  onChunk?: (filesDone: number) => void,
): void {
  const chunks = plan.bounds.length - 1;
  for (let i = Atomics.add(plan.counters, NEXT_CHUNK, 1); i < chunks; i = Atomics.add(plan.counters, NEXT_CHUNK, 1)) {
    const before = files.stats.files;
    const [from, to] = [plan.bounds[i]!, plan.bounds[i + 1]!];
    const facts = store.factsBetween(from, to);
    files.writeAll(companyResources(store, facts));
    history?.chunk(from, to, facts, files);
    const done = Atomics.add(plan.counters, FILES_DONE, files.stats.files - before) + files.stats.files - before;
    onChunk?.(done);
  }
}

/** After a failure anywhere: every thread stops at its next claim. */
export function abandonChunks(plan: ChunkPlan): void {
  Atomics.store(plan.counters, NEXT_CHUNK, plan.bounds.length);
}

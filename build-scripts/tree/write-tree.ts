import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { z } from 'zod';
import { validatorFor } from '../../src/contract/validate.js';
import { fileForUrlPath } from '../../src/site/static-paths.js';
import type { SnapshotStore } from '../../src/snapshot/store.js';
import { companyResources, sharedResources, type StaticResource } from './static-resources.js';

export class TreeValidationError extends Error {
  override name = 'TreeValidationError';
}

export interface TreeStats {
  files: number;
  bytes: number;
}

/** Validates a body against its contract schema; a failure names the URL and the first problem. */
export function assertValid(url: string, schema: z.ZodType | null, body: unknown): void {
  if (!schema) return;
  const problem = validatorFor(schema)(body);
  if (problem !== null) throw new TreeValidationError(`${url}: body does not match its schema: ${problem}`);
}

/**
 * Writes one JSON file under treeDir for a URL path. Plain synchronous writes: for 200k small files
 * they beat streams and promise-based fs (the per-call overhead is what dominates).
 */
export function writeJsonFile(treeDir: string, url: string, body: unknown, createdDirs: Set<string>): number {
  const file = join(treeDir, fileForUrlPath(url));
  const dir = dirname(file);
  if (!createdDirs.has(dir)) {
    mkdirSync(dir, { recursive: true });
    createdDirs.add(dir);
  }
  const bytes = Buffer.from(JSON.stringify(body), 'utf8');
  writeFileSync(file, bytes);
  return bytes.length;
}

/** Validates and writes a stream of resources; returns what it wrote. */
export function writeResources(resources: Iterable<StaticResource>, treeDir: string, onProgress?: (files: number) => void): TreeStats {
  const createdDirs = new Set<string>();
  const stats: TreeStats = { files: 0, bytes: 0 };
  for (const r of resources) {
    assertValid(r.url, r.schema, r.body);
    stats.bytes += writeJsonFile(treeDir, r.url, r.body, createdDirs);
    if (++stats.files % 50_000 === 0) onProgress?.(stats.files);
  }
  return stats;
}

/** Sorts after every code ([0-9A-Z]): the open upper bound of a ticker range. */
const AFTER_EVERY_CODE = '~';

/** Below this many companies, threads cost more than they save. */
const PARALLEL_FROM = 5_000;

function runWorker(snapshotDir: string, treeDir: string, from: string, to: string): Promise<TreeStats> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./tree-worker-entry.mjs', import.meta.url), { workerData: { snapshotDir, treeDir, from, to } });
    let result: TreeStats | null = null;
    worker.once('message', (m: { stats?: TreeStats; error?: string }) => {
      if (m.error) reject(new TreeValidationError(m.error));
      else result = m.stats!;
    });
    worker.once('error', reject);
    worker.once('exit', (code) => (result ? resolve(result) : reject(new Error(`tree worker exited with code ${code}`))));
  });
}

/**
 * Renders every static resource of the snapshot into treeDir, each body validated first. Company
 * files (two per company, nearly all of the tree) are shared out over worker threads by ticker
 * range, one per core; the main thread writes the rest meanwhile.
 */
export async function writeTree(
  store: SnapshotStore,
  treeDir: string,
  o: { workers?: number; onProgress?: (files: number) => void } = {},
): Promise<TreeStats> {
  const tickers = store.tickers();
  const workers = Math.min(o.workers ?? availableParallelism(), 8);
  if (workers <= 1 || tickers.length < PARALLEL_FROM) {
    const a = writeResources(companyResources(store, store.factsBetween('', AFTER_EVERY_CODE)), treeDir, o.onProgress);
    const b = writeResources(sharedResources(store), treeDir);
    return { files: a.files + b.files, bytes: a.bytes + b.bytes };
  }
  const bounds = Array.from({ length: workers }, (_, i) => tickers[Math.floor((i * tickers.length) / workers)]!);
  bounds.push(AFTER_EVERY_CODE);
  const parts = bounds.slice(0, -1).map((from, i) => runWorker(store.dir, treeDir, from, bounds[i + 1]!));
  const shared = writeResources(sharedResources(store), treeDir);
  const done = await Promise.all(parts);
  return done.reduce((a, b) => ({ files: a.files + b.files, bytes: a.bytes + b.bytes }), shared);
}

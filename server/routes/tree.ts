import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileForUrlPath } from '../../src/contract/api-paths.js';
import { ApiError, notFound } from '../../src/contract/errors.js';
import { etagOf, sendBody, type CachedFile } from '../http.js';
import type { RouteContext } from '../context.js';
import type { SnapshotSource } from '../snapshot-source.js';
import type { SnapshotStore } from '../../src/snapshot/store.js';
import { Lru } from '../../src/lru.js';
import { storedHistoryFile } from './pinned-history.js';

/** Recently served tree files (JSON and pages) with their ETags, bounded in bytes (snapshot files never change). */
const cache = new Lru<CachedFile>(16 * 1024 * 1024, (f) => f.bytes.length);

/**
 * One file of a snapshot's tree, by its path inside the tree, with its ETag; null when there is no
 * such file. Files are small (a few KB) and usually in the page cache, so one synchronous read costs
 * less than the four thread-pool round trips of an async one; hot files are served from memory.
 */
export function readSnapshotFile(snapshotDir: string, treePath: string): CachedFile | null {
  const path = join(snapshotDir, 'tree', treePath);
  let file = cache.get(path);
  if (!file) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(path);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return null;
      throw new ApiError('UPSTREAM_FAILURE', 'The snapshot’s static files cannot be read.');
    }
    file = { bytes, etag: etagOf(bytes) };
    cache.set(path, file);
  }
  return file;
}

/** The file of an API URL (`/api/v1/x` is `api/v1/x.json`). */
export const readTreeFile = (snapshotDir: string, url: string): CachedFile | null => readSnapshotFile(snapshotDir, fileForUrlPath(url));

/** Whether the snapshot's database has the resource a tree file is for (a company, an ETF). */
export type Listed = (store: SnapshotStore) => boolean;

/**
 * The error for a tree file that is not there: 404 `missing` when the snapshot does not have the
 * resource. When its database lists it (`listed`), the tree has lost a file it was written with:
 * the snapshot cannot be read (502, contract 2), and the source is told, so /readyz says 503 until
 * the file is back.
 */
export function absentFile(store: SnapshotStore, source: SnapshotSource, url: string, missing: string, listed?: Listed): ApiError {
  if (!listed?.(store)) return notFound(missing);
  source.fileMissing(fileForUrlPath(url));
  return new ApiError('UPSTREAM_FAILURE', `The snapshot has ${url}, but its file cannot be read; try again later.`);
}

/**
 * Serves one file of the current snapshot's static tree. The URL was rebuilt from validated parts,
 * so it cannot leave the tree. A missing file is the resource not existing (e.g. an unknown ticker),
 * unless the snapshot lists it (absentFile). The snapshot this shim answers from can have stopped
 * being current a moment ago (it looks at `current` once a second), and then have dropped its
 * company histories: the history store answers those with the same bytes (pinned-history.ts).
 */
export function serveTreeFile(ctx: RouteContext, url: string, missing: string, listed?: Listed, media?: string): void {
  const file = readTreeFile(ctx.store.dir, url) ?? storedHistoryFile(ctx.source.root, ctx.store.meta.dataset_snapshot_id, url);
  if (!file) throw absentFile(ctx.store, ctx.source, url, missing, listed);
  sendBody(ctx.req, ctx.res, file.bytes, media, {}, file.etag);
}

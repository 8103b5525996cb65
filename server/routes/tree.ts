import { fileForUrlPath } from '../../src/contract/api-paths.js';
import { ApiError, notFound } from '../../src/contract/errors.js';
import { sendBody, type CachedFile } from '../kit/http.js';
import type { RouteContext } from './context.js';
import type { SnapshotSource } from '../kit/snapshot-source.js';
import type { SnapshotStore } from '../../src/snapshot/store.js';
import { readSnapshotFile } from '../kit/snapshot-files.js';
import { storedHistoryFile } from './pinned-history.js';

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

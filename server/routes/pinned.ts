import { join } from 'node:path';
import type { InputOf } from '../../src/contract/routes.js';
import { SNAPSHOT_ID_PATTERN } from '../../src/contract/vocabulary.js';
import { urls } from '../../src/contract/urls.js';
import { isPruned } from '../../src/snapshot/retention.js';
import type { RouteContext } from './context.js';
import { notFound } from '../../src/contract/errors.js';
import { malformedSnapshotId, notInSnapshot, snapshotGone, unknownSnapshot } from '../../src/contract/named-errors.js';
import { sendBody } from '../kit/http.js';
import { storedHistoryFile } from './pinned-history.js';
import { readTreeFile } from './tree.js';
import { existsSync } from 'node:fs';

/** A malformed snapshot id is a 400; a pruned one is 410 GONE; one never published is 404 naming it. */
export function assertSnapshotKept(root: string, id: string): void {
  if (!SNAPSHOT_ID_PATTERN.test(id)) throw malformedSnapshotId(id);
  if (isPruned(root, id)) throw snapshotGone(id);
  if (!existsSync(join(root, id, 'tree'))) throw unknownSnapshot(id);
}

/**
 * GET /snapshots/{id}/<static path> (contract 10): the file that path had in snapshot {id}, read
 * straight from that snapshot's kept tree, or for a company history the tree no longer holds,
 * rebuilt from the history store; either way the bytes (and the ETag) are those it served when it
 * was current. The rest of the path is resolved as the router resolves it (codes validated); one
 * with no file (a computed endpoint) is a 404: pinned reads are static only. That runs after the id
 * is checked, so a pruned id is 410 whatever follows it, and the query string is read last.
 */
export function pinnedRead(input: InputOf<'pinned'>, ctx: RouteContext): void {
  const { id } = input.params;
  assertSnapshotKept(ctx.source.root, id);
  const file = ctx.staticFile(ctx.rest);
  if (file === null) throw notFound(`Pinned reads serve the static paths only; see ${urls.index} for them.`);
  void input.query; // takes none: a query string is a 400, once the snapshot and the path are known
  // A snapshot no longer current keeps no history files: the history store answers their bytes.
  const { url, media } = file;
  const found = readTreeFile(join(ctx.source.root, id), url) ?? storedHistoryFile(ctx.source.root, id, url);
  if (!found) throw notInSnapshot(id, url);
  sendBody(ctx.req, ctx.res, found.bytes, media, {}, found.etag);
}

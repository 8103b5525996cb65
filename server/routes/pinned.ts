import { join } from 'node:path';
import { parseQuery } from '../../src/contract/parse-request.js';
import { noQuerySchema } from '../../src/contract/queries.js';
import { SNAPSHOT_ID_PATTERN } from '../../src/contract/vocabulary.js';
import { urls } from '../../src/contract/urls.js';
import { isPruned } from '../../src/snapshot/retention.js';
import type { RouteContext } from './context.js';
import { ApiError, badRequest, notFound } from '../../src/contract/errors.js';
import { sendBody } from '../kit/http.js';
import { storedHistoryFile } from './pinned-history.js';
import { readTreeFile } from './tree.js';
import { existsSync } from 'node:fs';

/** A malformed snapshot id is a 400; a pruned one is 410 GONE; one never published is 404 naming it. */
export function assertSnapshotKept(root: string, id: string): void {
  if (!SNAPSHOT_ID_PATTERN.test(id)) throw badRequest(`Malformed snapshot id "${id.slice(0, 24)}": a date YYYY-MM-DD, optionally .N.`);
  if (isPruned(root, id))
    throw new ApiError('GONE', `Snapshot ${id} was published and has since been pruned; see /api/v1/snapshots for the kept ones.`);
  if (!existsSync(join(root, id, 'tree'))) throw notFound(`Unknown snapshot: ${id}`);
}

/**
 * GET /snapshots/{id}/<static path> (contract 10): the file that path had in snapshot {id}, read
 * straight from that snapshot's kept tree, or for a company history the tree no longer holds,
 * rebuilt from the history store; either way the bytes (and the ETag) are those it served when it
 * was current. `resolveFile` gives the static path's file as the router resolves it (codes validated),
 * or null when the path has no file (a computed endpoint): pinned reads are static only. It runs
 * after the id is checked, so a pruned id is 410 whatever follows it.
 */
export function pinnedRead(ctx: RouteContext, id: string, resolveFile: () => { url: string; media?: string } | null): void {
  assertSnapshotKept(ctx.source.root, id);
  const file = resolveFile();
  if (file === null) throw notFound(`Pinned reads serve the static paths only; see ${urls.index} for them.`);
  parseQuery(noQuerySchema, ctx.rawQuery, '/snapshots/{id}/…');
  // A snapshot no longer current keeps no history files: the history store answers their bytes.
  const { url, media } = file;
  const found = readTreeFile(join(ctx.source.root, id), url) ?? storedHistoryFile(ctx.source.root, id, url);
  if (!found) throw notFound(`Snapshot ${id} has no ${url}.`);
  sendBody(ctx.req, ctx.res, found.bytes, media, {}, found.etag);
}

import { changesQuerySchema } from '../../src/contract/changes.js';
import { parseQuery } from '../../src/contract/parse-request.js';
import { readChangesFile, type ChangesFile } from '../../src/snapshot/changes-file.js';
import type { SnapshotStore } from '../../src/snapshot/store.js';
import { changesView, matchesFilter } from '../../src/views/changes.js';
import type { RouteContext } from '../context.js';
import { ApiError } from '../errors.js';
import { sendJson } from '../http.js';

/** Each snapshot's changes, read once per snapshot (about 1 KB a moved company: under a megabyte in a quiet month at 100k companies, tens of MB in a month that crosses a year boundary and moves most of them). */
const loaded = new WeakMap<SnapshotStore, ChangesFile>();
function changesOf(store: SnapshotStore): ChangesFile {
  let file = loaded.get(store);
  if (!file) {
    try {
      file = readChangesFile(store.dir);
    } catch {
      throw new ApiError('UPSTREAM_FAILURE', 'The snapshot’s changes cannot be read.');
    }
    loaded.set(store, file);
  }
  return file;
}

/** GET /changes?cause=…&industry=…&min_abs_delta=N&limit=…&page=… (contract 10, metered). */
export function filteredChanges(ctx: RouteContext): void {
  const q = parseQuery(changesQuerySchema, ctx.rawQuery, '/changes');
  const file = changesOf(ctx.store);
  const matching = file.changes.filter((c) => matchesFilter(c, { cause: q.cause, industry: q.industry, minAbsDelta: q.min_abs_delta }));
  const items = matching.slice((q.page - 1) * q.limit, q.page * q.limit).map((c) => c.item);
  sendJson(ctx.req, ctx.res, changesView(ctx.store.meta, file.from_snapshot_id, items, { total: matching.length, page: q.page, perPage: q.limit }));
}

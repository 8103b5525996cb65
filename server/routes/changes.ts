import { changesQuerySchema, type ChangesQuery, type ChangesResponse } from '../../src/contract/changes.js';
import { parseQuery } from '../../src/contract/parse-request.js';
import { ChangesStore, type ChangesPage } from '../../src/snapshot/changes-store.js';
import type { SnapshotStore } from '../../src/snapshot/store.js';
import { changesView } from '../../src/views/changes.js';
import type { RouteContext } from '../context.js';
import { ApiError } from '../../src/contract/errors.js';
import { sendJson } from '../http.js';

const unreadable = () => new ApiError('UPSTREAM_FAILURE', 'The snapshot’s changes cannot be read.');

/**
 * Each snapshot's changes, opened once per snapshot: its changes database, whose connection holds
 * no rows (SQLite's page cache aside) and is closed when the snapshot is collected.
 */
const opened = new WeakMap<SnapshotStore, ChangesStore>();
function changesOf(store: SnapshotStore): ChangesStore {
  let changes = opened.get(store);
  if (!changes) {
    try {
      changes = ChangesStore.open(store.dir);
    } catch {
      throw unreadable();
    }
    opened.set(store, changes);
  }
  return changes;
}

/**
 * One page of the snapshot's changes matching a filter: the body of GET /changes with a query and of
 * the MCP `get_changes` tool (which may also name one company: `ticker`).
 */
export function changesBody(store: SnapshotStore, q: ChangesQuery & { ticker?: string }): ChangesResponse {
  const changes = changesOf(store);
  let page: ChangesPage;
  try {
    page = changes.page({ cause: q.cause, industry: q.industry, minAbsDelta: q.min_abs_delta, ticker: q.ticker }, (q.page - 1) * q.limit, q.limit);
  } catch {
    throw unreadable();
  }
  return changesView(store.meta, changes.fromSnapshotId, page.items, { total: page.total, page: q.page, perPage: q.limit });
}

/** GET /changes?cause=…&industry=…&min_abs_delta=N&limit=…&page=… (contract 10, metered): one page read from the indexes. */
export function filteredChanges(ctx: RouteContext): void {
  sendJson(ctx.req, ctx.res, changesBody(ctx.store, parseQuery(changesQuerySchema, ctx.rawQuery, '/changes')));
}

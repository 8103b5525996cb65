import { join } from 'node:path';
import { type ChangesQuery, type ChangesResponse } from '../../src/contract/changes.js';
import type { InputOf } from '../../src/contract/routes.js';
import { CHANGES_DB, ChangesStore, type ChangesPage } from '../../src/snapshot/changes-store.js';
import type { SnapshotStore } from '../../src/snapshot/store.js';
import { changesView } from '../../src/views/changes.js';
import type { RouteContext } from './context.js';
import { ApiError } from '../../src/contract/errors.js';
import { sendJson } from '../kit/http.js';
import { identityOf } from '../kit/snapshot-source.js';

const unreadable = () => new ApiError('UPSTREAM_FAILURE', 'The snapshot’s changes cannot be read.');

/** An open changes database, the identity of its file when opened, and when that was last compared. */
interface Opened {
  changes: ChangesStore;
  id: string | null;
  checkedAt: number;
}

/**
 * Each snapshot's changes, opened once per snapshot: its changes database, whose connection holds
 * no rows (SQLite's page cache aside) and is closed when the snapshot is collected.
 *
 * Watched as the snapshot's own database is (server/kit/snapshot-source.ts): a published file never
 * changes, so when changes.sqlite does (restored from a backup, renamed over a damaged one) it is
 * opened again, at most a second later. The old connection would read the file it opened, gone or
 * damaged, for as long as the shim runs: filtered /changes stayed 502 after a restore.
 */
const opened = new WeakMap<SnapshotStore, Opened>();
function changesOf(store: SnapshotStore): ChangesStore {
  const now = Date.now();
  let entry = opened.get(store);
  if (entry && now - entry.checkedAt >= 1000) {
    entry.checkedAt = now;
    const id = identityOf(join(store.dir, CHANGES_DB));
    if (id !== entry.id) {
      // Closed later: a request of this turn may still hold it (as the snapshot source closes a replaced store).
      const old = entry.changes;
      setTimeout(() => old.close(), 60_000).unref();
      opened.delete(store);
      entry = undefined;
    }
  }
  if (!entry) {
    const id = identityOf(join(store.dir, CHANGES_DB));
    try {
      entry = { changes: ChangesStore.open(store.dir), id, checkedAt: now };
    } catch {
      throw unreadable();
    }
    opened.set(store, entry);
  }
  return entry.changes;
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
export function filteredChanges({ query }: InputOf<'changes'>, ctx: RouteContext): void {
  sendJson(ctx.req, ctx.res, changesBody(ctx.store, query));
}

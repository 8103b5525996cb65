import { existsSync, readlinkSync } from 'node:fs';
import { fileForUrlPath, urls } from '../src/site/static-paths.js';
import { join } from 'node:path';
import { CURRENT_LINK } from '../src/snapshot/published.js';
import { SnapshotStore } from '../src/snapshot/store.js';
import { ApiError } from './errors.js';
import { silentLogger, type Logger } from './logger.js';

/** What the shim needs from "the current snapshot": the store, and where its tree and siblings live. */
export interface SnapshotSource {
  /** The current snapshot, or an UPSTREAM_FAILURE ApiError when it cannot be read. */
  current(): SnapshotStore;
  /** Folder holding every published snapshot (for downloads of older ones). */
  readonly root: string;
  close(): void;
}

/**
 * Follows the `current` symlink of a snapshots folder. It looks again at most once a second, so a
 * newly published snapshot is served without a restart, and a snapshot that could not be read (the
 * link briefly missing, a half-copied folder) is served again within a second of being readable. An
 * outage is logged once when it starts and once when it ends. A replaced store is closed a minute
 * later, once responses still streaming from it are done.
 */
export function publishedSnapshotSource(
  root: string,
  o: { now?: () => number; onOpen?: (store: SnapshotStore) => void; logger?: Logger } = {},
): SnapshotSource {
  const now = o.now ?? Date.now;
  let store: SnapshotStore | null = null;
  let target: string | null = null;
  let checkedAt = -Infinity;
  let failure: string | null = null;
  const logger = o.logger ?? silentLogger;

  function fail(reason: string) {
    if (failure === null) logger.warn('snapshot unavailable: answering 502 until it is readable again', { snapshots_dir: root, reason });
    failure = reason;
  }
  function recover() {
    if (failure !== null) logger.info('snapshot readable again', { snapshots_dir: root, snapshot: target });
    failure = null;
  }

  function refresh() {
    checkedAt = now();
    let link: string;
    try {
      link = readlinkSync(join(root, CURRENT_LINK));
    } catch {
      fail('No snapshot is published.');
      return;
    }
    if (link === target && store) {
      // The same snapshot as before: it is still open, so the link's return ends any outage.
      if (existsSync(join(root, link, 'tree', fileForUrlPath(urls.index)))) recover();
      else fail('The current snapshot cannot be read.');
      return;
    }
    try {
      const next = SnapshotStore.open(join(root, link));
      // A snapshot is its database and its tree; one without the other cannot be served.
      if (!existsSync(join(root, link, 'tree', fileForUrlPath(urls.index)))) {
        next.close();
        throw new Error('tree missing');
      }
      // Close the replaced store later: a streamed response (CSV) may still be reading it.
      const old = store;
      if (old) setTimeout(() => old.close(), 60_000).unref();
      o.onOpen?.(next);
      const from = old?.meta.dataset_snapshot_id ?? null;
      store = next;
      target = link;
      recover();
      logger.info(from === null ? 'snapshot opened' : 'snapshot switched', { snapshots_dir: root, snapshot: next.meta.dataset_snapshot_id, ...(from === null ? {} : { previous: from }) });
    } catch {
      fail('The current snapshot cannot be read.');
    }
  }

  return {
    root,
    current() {
      if (now() - checkedAt >= 1000) refresh();
      if (failure !== null || store === null) throw new ApiError('UPSTREAM_FAILURE', failure ?? 'No snapshot is open.');
      return store;
    },
    close() {
      store?.close();
      store = null;
    },
  };
}

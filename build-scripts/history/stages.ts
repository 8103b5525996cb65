import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { IndexedChange } from '../../src/snapshot/changes-store.js';
import { checkFormat, readMeta } from '../../src/snapshot/format.js';
import { storeRecords } from '../../src/snapshot/history-store.js';
import { currentSnapshotDir, publishedSnapshotIds } from '../../src/snapshot/published.js';
import { SnapshotStore } from '../../src/snapshot/store.js';
import type { TreeStats } from '../output/tree-files.js';
import type { HistoryOptions } from './chunk-history.js';
import { removeUnpublishedHistory } from './store-steps.js';
import { writeChanges } from './write-changes.js';
import { writeFeed } from './write-feed.js';

/**
 * Before the tree (contract section 10): the one older snapshot a build reads, the current one,
 * for the changes, and the history store's snapshots, whose entries make up the histories. Every
 * kept snapshot must be of this code's format (the publish reads them), checked first, so a folder
 * not yet migrated stops the build before anything is written. Runs under the build lock.
 */
export function historyOptionsFor(snapshotsDir: string, snapshotDir: string): HistoryOptions {
  for (const id of publishedSnapshotIds(snapshotsDir)) {
    const dir = join(snapshotsDir, id);
    if (existsSync(join(dir, 'snapshot.sqlite'))) checkFormat(dir, readMeta(dir).format_version);
  }
  const current = currentSnapshotDir(snapshotsDir);
  const previousDir = current !== null && existsSync(join(current, 'snapshot.sqlite')) ? current : null;
  removeUnpublishedHistory(snapshotsDir);
  // The threads get plain records; the heads are for pinned reads.
  const earlier = storeRecords(snapshotsDir).map(({ head: _head, ...member }) => member);
  return { snapshotDir, previousDir, earlier, previousId: previousDir === null ? null : basename(previousDir) };
}

/**
 * After the tree: `/changes` (every page), the changes database the shim queries, and `/feed.atom`,
 * from the changes the tree pass explained. Returns what they added to the tree.
 */
export function writeChangeStages(o: { store: SnapshotStore; history: HistoryOptions; changes: IndexedChange[]; treeDir: string }): TreeStats {
  const { previousDir, snapshotDir } = o.history;
  const fromSnapshotId = previousDir === null ? null : snapshotIdOf(previousDir);
  const changes = writeChanges({ meta: o.store.meta, fromSnapshotId, list: o.changes, snapshotDir, treeDir: o.treeDir });
  const feed = writeFeed({ meta: o.store.meta, fromSnapshotId, changes: o.changes.map((c) => c.item), snapshotDir, treeDir: o.treeDir, previousDir });
  return { files: changes.files + 1, bytes: changes.bytes + feed.bytes };
}

function snapshotIdOf(dir: string): string {
  const store = SnapshotStore.open(dir);
  try {
    return store.meta.dataset_snapshot_id;
  } finally {
    store.close();
  }
}

import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { currentSnapshotDir } from '../../src/snapshot/published.js';
import type { IndexedChange } from '../../src/snapshot/changes-file.js';
import { SnapshotStore } from '../../src/snapshot/store.js';
import type { TreeStats } from '../tree/tree-files.js';
import type { HistoryOptions } from './chunk-history.js';
import { previousHistoryDir } from './history-db.js';
import { writeChanges } from './write-changes.js';
import { writeFeed } from './write-feed.js';

/** Scratch folder inside the build's own folder, for an older snapshot's history in text form; removed before publishing. */
const SCRATCH = 'previous-history';

/**
 * Before the tree (contract section 10): the one older snapshot a build reads, the current one,
 * for the history and changes the tree writer works out chunk by chunk.
 */
export async function historyOptionsFor(snapshotsDir: string, snapshotDir: string): Promise<HistoryOptions> {
  const current = currentSnapshotDir(snapshotsDir);
  const previousDir = current !== null && existsSync(join(current, 'snapshot.sqlite')) ? current : null;
  return { snapshotDir, previousDir, previousHistoryDir: await previousHistoryDir(previousDir, join(snapshotDir, SCRATCH)) };
}

/**
 * After the tree: `/changes` (every page), the changes file the shim filters, and `/feed.atom`,
 * from the changes the tree pass explained. Returns what they added to the tree.
 */
export function writeChangeStages(o: { store: SnapshotStore; history: HistoryOptions; changes: IndexedChange[]; treeDir: string }): TreeStats {
  rmSync(join(o.history.snapshotDir, SCRATCH), { recursive: true, force: true });
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

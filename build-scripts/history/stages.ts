import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { currentSnapshotDir } from '../../src/snapshot/published.js';
import { SnapshotStore } from '../../src/snapshot/store.js';
import type { Progress } from '../snapshot/progress.js';
import type { TreeStats } from '../tree/tree-files.js';
import { writeChanges } from './write-changes.js';
import { writeFeed } from './write-feed.js';
import { writeHistory } from './write-history.js';

/**
 * The build stages of contract section 10, after the JSON tree: company histories, changes and the
 * feed, each from this snapshot and the one it follows (the current one), which is the only older
 * snapshot a build reads. Returns what they added to the tree.
 */
export async function writeHistoryStages(o: {
  store: SnapshotStore;
  snapshotsDir: string;
  snapshotDir: string;
  treeDir: string;
  timed: <T>(name: string, f: () => T | Promise<T>) => Promise<T>;
  progress: Progress;
}): Promise<TreeStats> {
  const current = currentSnapshotDir(o.snapshotsDir);
  const previousDir = current !== null && existsSync(join(current, 'snapshot.sqlite')) ? current : null;
  const { store, snapshotDir, treeDir } = o;
  const history = await o.timed('history', () => writeHistory({ store, snapshotDir, treeDir, previousDir }));
  o.progress.step(`history: ${history.files} files`);
  const previous = previousDir ? SnapshotStore.open(previousDir) : null;
  try {
    const changes = await o.timed('changes', () => writeChanges({ store, previous, snapshotDir, treeDir }));
    o.progress.step(`changes: ${changes.changes.changes.length} companies moved`);
    const items = changes.changes.changes.map((c) => c.item);
    const feed = await o.timed('feed', () => writeFeed({ meta: store.meta, fromSnapshotId: changes.changes.from_snapshot_id, changes: items, snapshotDir, treeDir, previousDir }));
    return { files: history.files + changes.files + 1, bytes: history.bytes + changes.bytes + feed.bytes };
  } finally {
    previous?.close();
  }
}

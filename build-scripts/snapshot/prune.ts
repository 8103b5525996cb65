import { existsSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { publishedSnapshotIds } from '../../src/snapshot/published.js';
import { PRUNED_FILE, prunedSnapshotIds } from '../../src/snapshot/retention.js';
import { fsyncPath } from './fsync.js';

/** Folders of pruned snapshots on their way out: no longer a snapshot id, so never served. */
const DOOMED_PREFIX = '.pruned-';

/**
 * Prunes the oldest published snapshots beyond `keep`, never `current`. Each step is atomic and
 * the order makes a kill at any point harmless: (1) the ids are added to the pruned record (written
 * to a temporary file and renamed), so they answer 410 from then on; (2) each folder is renamed out
 * of the id namespace; (3) the renamed folders are deleted. Kept snapshots are never touched, so a
 * build killed mid-prune leaves every one of them readable; the next prune finishes the deletion.
 * A pruned snapshot's entries in the history store (`history/<id>.sqlite`) are not its folder's and
 * stay: they are in every later company history (contract 10). Returns the ids pruned now.
 */
export function pruneSnapshots(root: string, keep: number, current: string, onStep?: (step: 'recorded' | 'renamed') => void): string[] {
  const recorded = prunedSnapshotIds(root);
  // Ids an earlier, killed prune recorded but did not move count as gone already.
  const published = publishedSnapshotIds(root).filter((id) => !recorded.includes(id));
  const excess = Math.max(0, published.length - keep);
  const doomed = [
    ...publishedSnapshotIds(root).filter((id) => recorded.includes(id) && id !== current),
    ...published.slice(0, excess).filter((id) => id !== current),
  ];
  removeLeftovers(root);
  if (doomed.length === 0) return [];
  retireSnapshots(root, doomed, onStep);
  return doomed;
}

/**
 * Takes published snapshots out for good, in the three steps above: recorded as pruned (410 from
 * then on; the id is never given out again), renamed out of the id namespace, deleted. Ids already
 * recorded and folders already gone are passed over, so a killed retirement can be run again.
 */
export function retireSnapshots(root: string, ids: readonly string[], onStep?: (step: 'recorded' | 'renamed') => void): void {
  const recorded = prunedSnapshotIds(root);
  const all = [...recorded, ...ids.filter((id) => !recorded.includes(id))];
  const tmp = join(root, `.${PRUNED_FILE}-${process.pid}`);
  writeFileSync(tmp, `${JSON.stringify(all)}\n`);
  fsyncPath(tmp);
  renameSync(tmp, join(root, PRUNED_FILE));
  onStep?.('recorded');

  for (const id of ids) if (existsSync(join(root, id))) renameSync(join(root, id), join(root, `${DOOMED_PREFIX}${id}`));
  fsyncPath(root);
  onStep?.('renamed');
  removeLeftovers(root);
}

/** Deletes folders a previous prune renamed but did not finish deleting. */
function removeLeftovers(root: string): void {
  for (const name of readdirSync(root)) if (name.startsWith(DOOMED_PREFIX)) rmSync(join(root, name), { recursive: true, force: true });
}

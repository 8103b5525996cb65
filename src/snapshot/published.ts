import { existsSync, readdirSync, readlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SNAPSHOT_ID_PATTERN } from '../contract/vocabulary.js';

/**
 * The folder of published snapshots: one immutable folder per snapshot id, and a `current` symlink
 * naming the one being served. Publishing swaps the symlink with rename(2), so a reader sees the old
 * snapshot or the new one, never a mix.
 */
export const CURRENT_LINK = 'current';

/** Where published snapshots live: SNAPSHOTS_DIR, default data/snapshots under the project (the build and the server agree). */
export function snapshotsDirFromEnv(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.SNAPSHOTS_DIR ?? 'data/snapshots');
}

export function snapshotDir(root: string, id: string): string {
  return join(root, id);
}

/** The current snapshot's folder, or null when nothing is published. */
export function currentSnapshotDir(root: string): string | null {
  const link = join(root, CURRENT_LINK);
  try {
    const target = readlinkSync(link);
    return join(root, target);
  } catch {
    return null;
  }
}

export function currentSnapshotId(root: string): string | null {
  const dir = currentSnapshotDir(root);
  return dir === null ? null : (dir.split('/').pop() ?? null);
}

/** Ids of every published snapshot folder, oldest first. */
export function publishedSnapshotIds(root: string): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory() && SNAPSHOT_ID_PATTERN.test(d.name))
    .map((d) => d.name)
    .sort(compareSnapshotIds);
}

/** Ids in the order they were given out: by publish date, then `.N`. */
export function compareSnapshotIds(a: string, b: string): number {
  const [da, na = '1'] = a.split('.');
  const [db, nb = '1'] = b.split('.');
  return da !== db ? (da! < db! ? -1 : 1) : Number(na) - Number(nb);
}

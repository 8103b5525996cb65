import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SNAPSHOT_ID_PATTERN } from '../../src/contract/vocabulary.js';
import { storeFile } from '../../src/snapshot/history-store.js';
import { CURRENT_LINK, currentSnapshotId, publishedSnapshotIds } from '../../src/snapshot/published.js';
import { prunedSnapshotIds } from '../../src/snapshot/retention.js';
import { fsyncPath } from './fsync.js';
import { retireSnapshots } from './prune.js';

/** The lock file: an SQLite database no one writes, whose file lock is the build lock. */
const LOCK = '.build-lock.sqlite';
/** The pid file earlier builds locked with; a build holding the lock removes one left behind. */
const OLD_PID_LOCK = '.build.lock';
const WORK_PREFIX = '.work-';
/** The link a publish renames onto `current`; while it exists, that publish is unfinished. */
const NEXT_LINK_PREFIX = '.current-';

/**
 * One build at a time per snapshots folder, by an OS lock that dies with its holder: an exclusive
 * SQLite transaction on a lock file, open for the whole build. SQLite locks with POSIX record locks
 * (fcntl), which the kernel drops when the process holding them dies, however it dies. A pid in a
 * file could not say that: inside a container's PID namespace a dead build's pid is soon another
 * process's, often pid 1, so its lock was never taken over. Why SQLite rather than util-linux
 * `flock`: Node has no flock(2), and a `flock` child holding the lock over a pipe needs that tool
 * installed and a second process whose own life decides the lock; better-sqlite3 is already here
 * and locks synchronously, in the build's own process. Record locks are not inherited by children,
 * so nothing a build spawned can keep the lock after it. The file is never deleted: a build that
 * had opened it before the delete would lock a file no other build sees.
 *
 * Under the lock, what dead builds left is cleared: an unfinished publish (retireUnfinished), then
 * their work folders, which were never published.
 */
export function acquireBuildLock(root: string): () => void {
  mkdirSync(root, { recursive: true });
  const path = join(root, LOCK);
  // No busy timeout: a build that finds another running stops at once, as it always has.
  const lock = new Database(path, { timeout: 0 });
  try {
    // No rollback journal on disk: the transaction writes nothing, and no file is left to look hot.
    lock.pragma('journal_mode = MEMORY');
    lock.exec('BEGIN EXCLUSIVE');
  } catch (e) {
    lock.close();
    if ((e as { code?: string }).code === 'SQLITE_BUSY') throw new Error(`another build holds ${path}: one build at a time per snapshots folder`);
    throw e;
  }
  try {
    rmSync(join(root, OLD_PID_LOCK), { force: true });
    retireUnfinished(root);
    for (const name of readdirSync(root)) if (name.startsWith(WORK_PREFIX)) rmSync(join(root, name), { recursive: true, force: true });
  } catch (e) {
    lock.close();
    throw e;
  }
  return () => lock.close();
}

/**
 * A publish interrupted between renaming its folder into place and swapping `current` (killed, or
 * the swap failed) left a snapshot that was never current, and the link that was to make it so.
 * Such a snapshot is withdrawn, not finished: its build did not succeed, and neither /changes nor
 * any history may count it (the next build's changes are from the current snapshot, which its
 * history must agree with). Its history entries are removed first, then it is retired as a prune
 * retires (recorded, so its id, readable meanwhile at its pinned URLs, answers 410 and is never
 * given out again; renamed out; deleted), and the link goes last, so a kill at any step leaves the
 * link for the next build to finish from. Links naming nothing published are simply removed.
 * Returns the ids withdrawn.
 */
export function retireUnfinished(root: string): string[] {
  const current = currentSnapshotId(root);
  const withdrawn: string[] = [];
  for (const name of readdirSync(root)) {
    if (!name.startsWith(NEXT_LINK_PREFIX)) continue;
    const link = join(root, name);
    let id: string | null = null;
    try {
      id = readlinkSync(link);
    } catch {
      // Not a link at all: a stray all the same.
    }
    if (id !== null && id !== current && SNAPSHOT_ID_PATTERN.test(id) && existsSync(join(root, id))) {
      rmSync(storeFile(root, id), { force: true });
      retireSnapshots(root, [id]);
      withdrawn.push(id);
    }
    rmSync(link, { force: true });
  }
  if (withdrawn.length > 0) fsyncPath(root);
  return withdrawn;
}

/** `YYYY-MM-DD`, or `YYYY-MM-DD.N` for the N-th build published on the same day. */
export function nextSnapshotId(root: string, date: string): string {
  // A pruned id stays taken: it answers 410 for good.
  const taken = new Set([...publishedSnapshotIds(root), ...prunedSnapshotIds(root)]);
  if (!taken.has(date)) return date;
  let n = 2;
  while (taken.has(`${date}.${n}`)) n++;
  return `${date}.${n}`;
}

/**
 * A fresh work folder. mkdtemp makes it drwx------, and it keeps that mode once renamed into place:
 * a front server running as another user (nginx as www-data, deploy/) could then read nothing of
 * the published snapshot. Published data is public, so the folder is made world-readable, as
 * everything written inside it already is.
 */
export function makeWorkDir(root: string): string {
  const dir = mkdtempSync(join(root, WORK_PREFIX));
  chmodSync(dir, 0o755);
  return dir;
}

/** Flushes the file system holding `path` (sync -f = syncfs(2)), so a power cut cannot publish a torn tree. */
function flushFileSystem(path: string): void {
  try {
    execFileSync('sync', ['-f', path], { stdio: 'ignore' });
  } catch {
    execFileSync('sync', { stdio: 'ignore' });
  }
}

/**
 * Publishes a finished work folder as snapshot `id` and makes it current: make the link that will
 * be `current`, rename the folder into place, then swap the link onto `current` with rename(2). The
 * renames are atomic; the link is made first so that a crash between them leaves, beside the old
 * current snapshot, the record of which snapshot never became current (the next build withdraws
 * it: retireUnfinished). `onRenamed` runs between the two renames (tests kill the build there).
 */
export function publishWorkDir(root: string, workDir: string, id: string, onRenamed?: () => void): string {
  const target = join(root, id);
  if (existsSync(target)) throw new Error(`snapshot ${id} is already published; published snapshots never change`);
  const nextLink = join(root, `${NEXT_LINK_PREFIX}${process.pid}`);
  rmSync(nextLink, { force: true });
  symlinkSync(id, nextLink);
  // One flush covers the work folder and the link (the same file system).
  flushFileSystem(workDir);
  renameSync(workDir, target);
  onRenamed?.();
  renameSync(nextLink, join(root, CURRENT_LINK));
  fsyncPath(root);
  return target;
}

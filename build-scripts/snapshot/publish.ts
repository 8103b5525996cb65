import { execFileSync } from 'node:child_process';
import { chmodSync, closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CURRENT_LINK, publishedSnapshotIds } from '../../src/snapshot/published.js';
import { prunedSnapshotIds } from '../../src/snapshot/retention.js';
import { fsyncPath } from './fsync.js';

const LOCK = '.build.lock';
const WORK_PREFIX = '.work-';

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * One build at a time per snapshots folder. A lock left by a build that died (kill -9) is taken
 * over, and that build's unfinished work folders are removed: they were never published.
 */
export function acquireBuildLock(root: string): () => void {
  mkdirSync(root, { recursive: true });
  const lock = join(root, LOCK);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lock, 'wx');
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      for (const name of readdirSync(root)) if (name.startsWith(WORK_PREFIX)) rmSync(join(root, name), { recursive: true, force: true });
      return () => rmSync(lock, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const holder = Number(readFileSync(lock, 'utf8'));
      if (Number.isInteger(holder) && holder > 0 && pidAlive(holder)) {
        throw new Error(`another build (pid ${holder}) holds ${lock}`);
      }
      rmSync(lock, { force: true });
    }
  }
  throw new Error(`could not take ${lock}`);
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
 * Publishes a finished work folder as snapshot `id` and makes it current: rename the folder into
 * place, then swap the `current` symlink with rename(2). Both steps are atomic; a crash between them
 * leaves the old snapshot current and the new one published but unused.
 */
export function publishWorkDir(root: string, workDir: string, id: string): string {
  const target = join(root, id);
  if (existsSync(target)) throw new Error(`snapshot ${id} is already published; published snapshots never change`);
  flushFileSystem(workDir);
  renameSync(workDir, target);
  const tmpLink = join(root, `.current-${process.pid}`);
  rmSync(tmpLink, { force: true });
  symlinkSync(id, tmpLink);
  renameSync(tmpLink, join(root, CURRENT_LINK));
  fsyncPath(root);
  return target;
}

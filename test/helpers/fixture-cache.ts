import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A fixture built once and kept between test runs, under a hash of the files that build it: a test
 * file asks for it when it is imported, and a second run with no change to those files finds it
 * ready. Vitest runs test files in separate processes, so the first to ask builds under a lock file
 * while the others wait; a lock left by a process that died is taken over. The cache lives under
 * node_modules/.cache (never in the tree a test or a build reads), and only the newest folders of
 * each fixture are kept.
 */

const REPO = join(dirname(fileURLToPath(import.meta.url)), '../..');
export const FIXTURE_CACHE = join(REPO, 'node_modules/.cache/esg-test-fixtures');
const CACHE = FIXTURE_CACHE;
const COMPLETE = '.complete';
/** Folders of one fixture kept besides the one in use: another run may still read an older one. */
const KEEP_OLDER = 2;
const POLL_MS = 250;
/** Longer than any build on a loaded machine: past it, a wait is a hang, and fails the test file. */
const MAX_WAIT_MS = 20 * 60_000;

export interface FixtureSpec {
  /** Names the cache folder; one name per kind of fixture. */
  name: string;
  /** Files and folders (relative to the repository, or absolute) whose contents the fixture depends on. */
  inputs: readonly string[];
  /** Anything else that shapes the fixture (its parameters): part of the hash. */
  params?: unknown;
  /** Builds the fixture into `dir` (empty, created). */
  build(dir: string): Promise<void>;
}

function filesUnder(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((e) => filesUnder(join(path, e.name)));
}

/** The hash of the inputs' paths and contents (and the parameters): any change makes a new folder. */
export function fixtureHash(spec: Pick<FixtureSpec, 'name' | 'inputs' | 'params'>): string {
  const hash = createHash('sha256').update(`${spec.name}\0${JSON.stringify(spec.params ?? null)}\0${process.version}\0`);
  for (const file of spec.inputs.flatMap((p) => filesUnder(resolve(REPO, p)))) {
    hash
      .update(`${relative(REPO, file)}\0`)
      .update(readFileSync(file))
      .update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the lock (a file holding the owner's pid), or returns false while a live process holds it. */
function tryLock(lock: string): boolean {
  try {
    const fd = openSync(lock, 'wx');
    writeSync(fd, String(process.pid));
    closeSync(fd);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  let owner: number;
  try {
    owner = Number(readFileSync(lock, 'utf8'));
    // Between the lock's creation and its pid being written the file is empty: give its owner a moment.
    if (!owner && Date.now() - statSync(lock).mtimeMs < 10_000) return false;
  } catch {
    return false; // released meanwhile: the next try takes it
  }
  if (owner && alive(owner)) return false;
  // Its owner died: take it over, unless another waiter did so first (the lock then names a live process).
  try {
    if (Number(readFileSync(lock, 'utf8')) === owner) rmSync(lock, { force: true });
  } catch {
    // released meanwhile
  }
  return false;
}

/** The older folders of this fixture, newest first, past the few kept: removed unless being built. */
function pruneOlder(name: string, keep: string) {
  const ofName = new RegExp(`^${name}-[0-9a-f]{16}$`);
  const older = readdirSync(CACHE)
    .filter((f) => ofName.test(f) && join(CACHE, f) !== keep && !existsSync(join(CACHE, `${f}.lock`)))
    .map((f) => ({ dir: join(CACHE, f), at: existsSync(join(CACHE, f, COMPLETE)) ? statSync(join(CACHE, f, COMPLETE)).mtimeMs : 0 }))
    .sort((a, b) => b.at - a.at);
  for (const { dir } of older.slice(KEEP_OLDER)) rmSync(dir, { recursive: true, force: true });
}

/** The fixture's folder, built first if no complete one is cached for the current inputs. */
export async function cachedFixture(spec: FixtureSpec): Promise<string> {
  mkdirSync(CACHE, { recursive: true });
  const dir = join(CACHE, `${spec.name}-${fixtureHash(spec)}`);
  const lock = `${dir}.lock`;
  const deadline = Date.now() + MAX_WAIT_MS;
  while (!existsSync(join(dir, COMPLETE))) {
    if (!tryLock(lock)) {
      if (Date.now() > deadline) throw new Error(`${spec.name}: waited ${MAX_WAIT_MS / 60_000} min for ${lock}`);
      await new Promise((r) => setTimeout(r, POLL_MS));
      continue;
    }
    try {
      if (existsSync(join(dir, COMPLETE))) break;
      // A folder without its mark is what a build that died left: start again.
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir);
      await spec.build(dir);
      writeFileSync(join(dir, COMPLETE), new Date().toISOString());
      pruneOlder(spec.name, dir);
    } finally {
      unlinkSync(lock);
    }
  }
  return dir;
}

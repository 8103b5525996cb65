import { existsSync, readlinkSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileForUrlPath } from '../../src/contract/api-paths.js';
import { urls } from '../../src/contract/urls.js';
import { CURRENT_LINK } from '../../src/snapshot/published.js';
import { SnapshotFormatError } from '../../src/snapshot/format.js';
import { SnapshotStore } from '../../src/snapshot/store.js';
import { ApiError } from '../../src/contract/errors.js';
import { isUnreadableDatabase } from './errors.js';
import { silentLogger, type Logger } from './logger.js';

/** What the shim needs from "the current snapshot": the store, and where its tree and siblings live. */
export interface SnapshotSource {
  /** The current snapshot, or an UPSTREAM_FAILURE ApiError when it cannot be read. */
  current(): SnapshotStore;
  /** Folder holding every published snapshot (for downloads of older ones). */
  readonly root: string;
  /**
   * Null when ready (a snapshot open, its database reading, no file it lists found missing), else
   * why not: what /readyz says with its 503.
   */
  unready(): string | null;
  /**
   * A read failed with this error. When it is SQLite's "cannot read this file" (corrupt, not a
   * database, I/O error), the current database is checked, and if damaged the snapshot is
   * unavailable until its file changes. Anything else is ignored.
   */
  readFailed(error: unknown): void;
  /** A file of the current tree (its path in the tree) that the snapshot's database lists is missing. */
  fileMissing(treePath: string): void;
  close(): void;
}

/** At most this many missing files are remembered (and looked for again); any one keeps the shim unready. */
const MAX_MISSING = 100;

/** What tells one file from another, or the same one changed: a published snapshot's never changes. */
export function identityOf(path: string): string | null {
  try {
    const s = statSync(path);
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`;
  } catch {
    return null;
  }
}

/** Null when SQLite finds the file's pages and b-trees whole, else what it found. */
function damageIn(store: SnapshotStore): string | null {
  try {
    const result = store.db.pragma('quick_check(1)', { simple: true });
    return result === 'ok' ? null : String(result);
  } catch (e) {
    return (e as Error).message;
  }
}

/**
 * Follows the `current` symlink of a snapshots folder. It looks again at most once a second, so a
 * newly published snapshot is served without a restart, and a snapshot that could not be read (the
 * link briefly missing, a half-copied folder, a damaged database) is served again within a second
 * of being readable. An outage is logged once when it starts and once when it ends. A replaced store
 * is closed a minute later, once responses still streaming from it are done.
 *
 * The open database is watched too: a published snapshot's file never changes, so when it does
 * (truncated, overwritten, restored from a copy, by rename or in place) the store is opened again,
 * checked whole (SQLite's quick_check, in proportion to the file: tens of milliseconds for a
 * 5,000-company database, bench/results.md; only after such a change), and served only if it passes. A read that
 * fails on a damaged file makes the same check of the open one; once a file passed, later failures
 * are another database's (the history store, changes.sqlite) and answered 502 alone.
 */
export function publishedSnapshotSource(
  root: string,
  o: { now?: () => number; onOpen?: (store: SnapshotStore) => void; logger?: Logger } = {},
): SnapshotSource {
  return new PublishedSnapshotSource(root, o.now ?? Date.now, o.onOpen, o.logger ?? silentLogger);
}

class PublishedSnapshotSource implements SnapshotSource {
  private store: SnapshotStore | null = null;
  /** The `current` link's target that `store` was opened from. */
  private target: string | null = null;
  private checkedAt = -Infinity;
  private failure: string | null = null;
  /** The database file the open store read, as identityOf gave it at opening; and the one last checked whole. */
  private openedId: string | null = null;
  private soundId: string | null = null;
  /** Set when the open database is damaged: the file's identity then; cleared by a changed file that passes. */
  private damagedId: string | null = null;
  private readonly missing = new Set<string>();

  constructor(
    readonly root: string,
    private readonly now: () => number,
    private readonly onOpen: ((store: SnapshotStore) => void) | undefined,
    private readonly logger: Logger,
  ) {}

  current(): SnapshotStore {
    if (this.now() - this.checkedAt >= 1000) this.refresh();
    if (this.failure !== null || this.store === null) throw new ApiError('UPSTREAM_FAILURE', this.failure ?? 'No snapshot is open.');
    return this.store;
  }

  unready(): string | null {
    let current: SnapshotStore;
    try {
      current = this.current();
      current.db.prepare('SELECT 1 FROM meta LIMIT 1').get();
    } catch (e) {
      this.readFailed(e);
      return e instanceof ApiError ? e.message : 'The current snapshot’s database cannot be read.';
    }
    const { missing } = this;
    if (missing.size > 0)
      return `The current snapshot lacks ${missing.size}${missing.size === MAX_MISSING ? ' or more' : ''} of its files, such as ${missing.values().next().value}.`;
    return null;
  }

  readFailed(error: unknown): void {
    const { store } = this;
    if (!isUnreadableDatabase(error) || !store || this.failure !== null) return;
    // Checked whole, and unchanged since: the failed read was another database's.
    if (this.soundId === this.openedId && identityOf(join(store.dir, 'snapshot.sqlite')) === this.openedId) return;
    const problem = damageIn(store);
    if (problem === null) {
      // Whole: the failed read was another database's (the history store, changes.sqlite); said once per file.
      this.soundId = this.openedId;
      this.logger.warn('a database read failed, but the snapshot’s own database is whole', {
        snapshots_dir: this.root,
        snapshot: this.target,
        error: (error as Error).message,
      });
      return;
    }
    this.damagedId = this.openedId;
    this.fail('The current snapshot’s database is damaged.');
    this.logger.warn('snapshot database damaged', { snapshots_dir: this.root, snapshot: this.target, problem: problem.slice(0, 200) });
  }

  fileMissing(treePath: string): void {
    const { missing } = this;
    if (missing.has(treePath) || missing.size >= MAX_MISSING) return;
    if (missing.size === 0)
      this.logger.warn('snapshot file missing: unready until it is back', { snapshots_dir: this.root, snapshot: this.target, file: treePath });
    missing.add(treePath);
  }

  close(): void {
    this.store?.close();
    this.store = null;
  }

  /** The start of an outage, logged once; `reason` is what requests are answered with meanwhile. */
  private fail(reason: string): void {
    if (this.failure === null)
      this.logger.warn('snapshot unavailable: answering 502 until it is readable again', { snapshots_dir: this.root, reason });
    this.failure = reason;
  }

  /** The end of an outage, logged once. */
  private recover(): void {
    if (this.failure !== null) this.logger.info('snapshot readable again', { snapshots_dir: this.root, snapshot: this.target });
    this.failure = null;
  }

  private treeIndexExists(link: string): boolean {
    return existsSync(join(this.root, link, 'tree', fileForUrlPath(urls.index)));
  }

  /** Looks at the `current` link again: keeps the open snapshot, or opens the one it names now. */
  private refresh(): void {
    this.checkedAt = this.now();
    let link: string;
    try {
      link = readlinkSync(join(this.root, CURRENT_LINK));
    } catch {
      this.fail('No snapshot is published.');
      return;
    }
    if (link === this.target && this.store) {
      // The same snapshot as before: it is still open, so the link's return ends any outage...
      if (!this.treeIndexExists(link)) return this.fail('The current snapshot cannot be read.');
      this.lookForMissing();
      const id = identityOf(join(this.root, link, 'snapshot.sqlite'));
      // ...unless its database is damaged, or was changed under it and must be opened again.
      if (id === this.openedId) return this.damagedId === null ? this.recover() : this.fail('The current snapshot’s database is damaged.');
      if (this.damagedId !== null && id === this.damagedId) return; // failed its check already: wait for the file to change
    }
    this.open(link, link === this.target);
  }

  /** Opens `link` and serves it; `check`: the same snapshot's file changed, so it must first pass quick_check. */
  private open(link: string, check: boolean): void {
    const id = identityOf(join(this.root, link, 'snapshot.sqlite'));
    const next = this.openReadable(link, check, id);
    if (next) this.serve(next, link, check, id);
  }

  /** The store at `link` if it can be served (its database, its tree, and whole if `check`), else null and the outage begun. */
  private openReadable(link: string, check: boolean, id: string | null): SnapshotStore | null {
    let next: SnapshotStore | null = null;
    try {
      next = SnapshotStore.open(join(this.root, link));
      // A snapshot is its database and its tree; one without the other cannot be served.
      if (!this.treeIndexExists(link)) throw new Error('tree missing');
      if (check && damageIn(next) !== null) throw new Error('damaged');
      return next;
    } catch (e) {
      next?.close();
      if (check) this.damagedId = id;
      // Another format's snapshot is refused as unreadable; the log says why and what to run.
      if (e instanceof SnapshotFormatError && this.failure === null) this.logger.warn(e.message, { snapshots_dir: this.root, snapshot: link });
      this.fail(check ? 'The current snapshot’s database is damaged.' : 'The current snapshot cannot be read.');
      return null;
    }
  }

  /** Serves `next` (opened from `link`, its database file `id`) in place of the open store. */
  private serve(next: SnapshotStore, link: string, check: boolean, id: string | null): void {
    // Close the replaced store later: a streamed response (CSV) may still be reading it.
    const old = this.store;
    if (old) setTimeout(() => old.close(), 60_000).unref();
    this.onOpen?.(next);
    const from = old?.meta.dataset_snapshot_id ?? null;
    this.store = next;
    this.target = link;
    this.openedId = id;
    this.soundId = check ? id : null;
    this.damagedId = null;
    this.missing.clear();
    this.recover();
    // A reopened file (`check`) is the same snapshot: its return, if it was away, is the line recover() wrote.
    if (!check)
      this.logger.info(from === null ? 'snapshot opened' : 'snapshot switched', {
        snapshots_dir: this.root,
        snapshot: next.meta.dataset_snapshot_id,
        ...(from === null ? {} : { previous: from }),
      });
  }

  /** Forgets the missing files that are back; the last one back makes the shim ready again. */
  private lookForMissing(): void {
    const { missing, store } = this;
    if (missing.size === 0 || !store) return;
    for (const path of missing) if (existsSync(join(store.dir, 'tree', path))) missing.delete(path);
    if (missing.size === 0) this.logger.info('snapshot files back: ready again', { snapshots_dir: this.root, snapshot: this.target });
  }
}

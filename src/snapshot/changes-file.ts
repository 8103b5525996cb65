import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ChangeItem } from '../contract/changes.js';
import type { ChangesFilter, ChangesPage, SnapshotChanges } from './changes-store.js';

/** A change with what filters read but the body does not show. */
export interface IndexedChange {
  industry: string;
  item: ChangeItem;
}

/**
 * Legacy: how builds before changes.sqlite (changes-store.ts) stored a snapshot's changes, one JSON
 * file beside the database, which the shim parsed whole and filtered in memory. Published
 * snapshots never change, so a current snapshot those builds published is still answered this way
 * (filtered changes are the current snapshot's only), until a newer build publishes. This path
 * is kept for those alone. Only a file small enough to hold in the shim's heap is read: at 100,000
 * companies a month crossing a year boundary wrote 52 MB, whose parse ran a 160 MB heap out of
 * memory and killed the shim.
 */
export const CHANGES_FILE = 'changes.json';

/**
 * The largest legacy file read (about 14,000 moved companies; a quiet month at 100,000 companies
 * writes under 1 MB). Measured on copies of the demo's items: parsed, a file holds about 1.4 times
 * its size in heap, and its text (UTF-16 for the Chinese names) about twice its size more while it
 * is parsed, so this stays near 30 MB of the shim's 160 at its peak. A larger file is refused
 * rather than read: answering 502 beats the process dying.
 */
export const LEGACY_CHANGES_MAX_BYTES = 8 * 1024 * 1024;

interface ChangesFile {
  from_snapshot_id: string | null;
  changes: IndexedChange[];
}

/** Why a snapshot's changes cannot be filtered, in words fit for the caller. */
export class ChangesUnavailable extends Error {
  override name = 'ChangesUnavailable';
}

/** Whether a change passes a filter (the legacy file's whole filtering, and the changes database's for one ticker). */
export function matchesFilter(c: IndexedChange, f: ChangesFilter): boolean {
  return (
    (f.ticker === undefined || c.item.ticker === f.ticker) &&
    (f.cause === undefined || c.item.causes.some((x) => x.kind === f.cause)) &&
    (f.industry === undefined || c.industry === f.industry) &&
    (f.minAbsDelta === undefined || Math.abs(c.item.score_delta) >= f.minAbsDelta)
  );
}

/** A legacy snapshot's changes, read once and filtered in memory. */
export class LegacyChanges implements SnapshotChanges {
  readonly fromSnapshotId: string | null;

  private constructor(private readonly changes: IndexedChange[], fromSnapshotId: string | null) {
    this.fromSnapshotId = fromSnapshotId;
  }

  static open(snapshotDir: string): LegacyChanges {
    const path = join(snapshotDir, CHANGES_FILE);
    if (statSync(path).size > LEGACY_CHANGES_MAX_BYTES) {
      throw new ChangesUnavailable('This snapshot was published by an older build whose changes are too many to filter; its static /changes pages list them all.');
    }
    const file = JSON.parse(readFileSync(path, 'utf8')) as ChangesFile;
    return new LegacyChanges(file.changes, file.from_snapshot_id);
  }

  page(f: ChangesFilter, offset: number, limit: number): ChangesPage {
    const matching = this.changes.filter((c) => matchesFilter(c, f));
    return { total: matching.length, items: matching.slice(offset, offset + limit).map((c) => c.item) };
  }
}

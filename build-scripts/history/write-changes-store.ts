import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { IndexedChange } from '../../src/snapshot/changes-store.js';
import { CHANGE_CAUSES, CHANGES, CHANGES_DB, CHANGES_FORMAT_VERSION, CHANGES_META, CHANGES_TABLES } from '../../src/snapshot/changes-store.js';
import { markStoreFormat } from '../../src/snapshot/format.js';

/**
 * Writes a snapshot's changes database (src/snapshot/changes-store.ts) into its folder: one row per
 * item, numbered in the order given, which must be the contract's (|score_delta| descending, then
 * ticker): the reader's min_abs_delta bound relies on it, so an item out of order fails the build.
 * Each item is stored as the JSON the static pages hold, so the shim's pages are the same bytes.
 * One transaction into a fresh file, indexes last: the same changes give the same file.
 */
export function writeChangesStore(snapshotDir: string, fromSnapshotId: string | null, changes: Iterable<IndexedChange>): void {
  const path = join(snapshotDir, CHANGES_DB);
  rmSync(path, { force: true });
  const db = new Database(path);
  try {
    markStoreFormat(db, CHANGES_FORMAT_VERSION);
    for (const table of CHANGES_TABLES) db.exec(table.createSql);
    const meta = CHANGES_META.writer(db.prepare(CHANGES_META.insertSql));
    const change = CHANGES.writer(db.prepare(CHANGES.insertSql));
    const cause = CHANGE_CAUSES.writer(db.prepare(CHANGE_CAUSES.insertSql));
    db.transaction(() => {
      meta({ key: 'from_snapshot_id', value: fromSnapshotId });
      let ord = 0;
      let previous: { ticker: string; absDelta: number } | null = null;
      for (const { industry, item } of changes) {
        const absDelta = Math.abs(item.score_delta);
        if (previous !== null && (absDelta > previous.absDelta || (absDelta === previous.absDelta && item.ticker <= previous.ticker))) {
          throw new Error(`changes out of the contract's order: ${item.ticker} after ${previous.ticker}`);
        }
        change({ ord, ticker: item.ticker, industry, abs_delta: absDelta, item: JSON.stringify(item) });
        // A company with two causes of one kind (two new penalties) matches that kind once.
        for (const kind of new Set(item.causes.map((c) => c.kind))) cause({ kind, industry, ord });
        previous = { ticker: item.ticker, absDelta };
        ord++;
      }
      for (const table of CHANGES_TABLES) db.exec(table.indexSql);
    })();
  } finally {
    db.close();
  }
}

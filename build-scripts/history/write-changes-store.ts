import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { IndexedChange } from '../../src/snapshot/changes-store.js';
import { CHANGES_DB, CHANGES_INDEXES, CHANGES_TABLES } from '../../src/snapshot/changes-store.js';

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
    db.exec(CHANGES_TABLES);
    const meta = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
    const change = db.prepare('INSERT INTO changes (ord, ticker, industry, abs_delta, item) VALUES (?, ?, ?, ?, ?)');
    const cause = db.prepare('INSERT INTO change_causes (kind, industry, ord) VALUES (?, ?, ?)');
    db.transaction(() => {
      meta.run('from_snapshot_id', fromSnapshotId);
      let ord = 0;
      let previous: { ticker: string; absDelta: number } | null = null;
      for (const { industry, item } of changes) {
        const absDelta = Math.abs(item.score_delta);
        if (previous !== null && (absDelta > previous.absDelta || (absDelta === previous.absDelta && item.ticker <= previous.ticker))) {
          throw new Error(`changes out of the contract's order: ${item.ticker} after ${previous.ticker}`);
        }
        change.run(ord, item.ticker, industry, absDelta, JSON.stringify(item));
        // A company with two causes of one kind (two new penalties) matches that kind once.
        for (const kind of new Set(item.causes.map((c) => c.kind))) cause.run(kind, industry, ord);
        previous = { ticker: item.ticker, absDelta };
        ord++;
      }
      db.exec(CHANGES_INDEXES);
    })();
  } finally {
    db.close();
  }
}

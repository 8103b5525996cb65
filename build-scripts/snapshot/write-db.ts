import Database from 'better-sqlite3';
import { SNAPSHOT_DDL, SNAPSHOT_TABLES } from '../../src/snapshot/schema.js';
import type { DbContent } from './computed.js';
import { TABLE_FILLS, type TableFill } from './table-facts.js';

export type { DbContent } from './computed.js';

/** Writes a fresh snapshot database at `path` (which must not exist) in one transaction. */
export function writeSnapshotDb(path: string, content: DbContent): void {
  const db = new Database(path);
  try {
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.exec(SNAPSHOT_DDL);
    db.transaction(() => insertAll(db, content))();
    db.exec('ANALYZE');
    db.exec('VACUUM');
  } finally {
    db.close();
  }
}

/** Every table's rows, each table's from its own fill (table-facts.ts); every table of the schema must have one. */
function insertAll(db: Database.Database, content: DbContent): void {
  const filled = new Set(TABLE_FILLS.map((f) => f.table.name));
  const unfilled = SNAPSHOT_TABLES.filter((t) => !filled.has(t.name)).map((t) => t.name);
  if (unfilled.length > 0) throw new Error(`snapshot tables without a fill in table-facts.ts: ${unfilled.join(', ')}`);
  /** Records stored per source, for sources.record_count (its fill comes after every table it counts). */
  const stored = new Map<string, number>();
  for (const fill of TABLE_FILLS) insertFill(db, fill, content, stored);
}

function insertFill<F>(db: Database.Database, fill: TableFill<any, F>, content: DbContent, stored: Map<string, number>): void {
  const insert = fill.table.writer(db.prepare(fill.table.insertSql));
  let at = 0;
  for (const fact of fill.facts(content, stored)) {
    for (const row of fill.fromFacts(fact, at++)) {
      insert(row);
      if (fill.countsFor) {
        const id = fill.countsFor(row, fact);
        stored.set(id, (stored.get(id) ?? 0) + 1);
      }
    }
  }
}

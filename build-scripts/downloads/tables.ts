import type Database from 'better-sqlite3';

/**
 * Which tables of a snapshot database are data, and what they look like, read from the database
 * itself (not from a hand-kept list), so a table added to the DDL gets its CSV without a change here.
 */

export interface ColumnInfo {
  name: string;
  /** Declared type as written in the DDL, upper-cased: INTEGER, REAL or TEXT. */
  declaredType: string;
  notNull: boolean;
}

export interface TableInfo {
  name: string;
  columns: ColumnInfo[];
  /** Primary-key columns in key order; empty when the table has none (rowid only). */
  primaryKey: string[];
  /** Column lists of UNIQUE constraints (not of plain indexes). */
  uniqueKeys: string[][];
}

/** Not a dataset table: the snapshot's own key/value facts, which go into datapackage.json and CITATION.cff instead. */
const NOT_DATA = new Set(['meta']);

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Ordinary tables of the main schema, by name. `PRAGMA table_list` tells virtual tables (an FTS
 * index, say) and their shadow tables apart from ordinary ones; `sqlite_*` are SQLite's own
 * (sqlite_stat1 from ANALYZE, for one).
 */
export function listDataTables(db: Database.Database): TableInfo[] {
  const rows = db.prepare("SELECT name, type FROM pragma_table_list WHERE schema = 'main'").all() as { name: string; type: string }[];
  return rows
    .filter((r) => r.type === 'table' && !r.name.startsWith('sqlite_') && !NOT_DATA.has(r.name))
    .map((r) => r.name)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((name) => describeTable(db, name));
}

function describeTable(db: Database.Database, name: string): TableInfo {
  const cols = db.prepare('SELECT name, type, "notnull" AS nn, pk FROM pragma_table_info(?) ORDER BY cid').all(name) as {
    name: string;
    type: string;
    nn: number;
    pk: number;
  }[];
  const primaryKey = cols
    .filter((c) => c.pk > 0)
    .sort((a, b) => a.pk - b.pk)
    .map((c) => c.name);
  const uniqueKeys = (
    db.prepare('SELECT name FROM pragma_index_list(?) WHERE "unique" = 1 AND origin = \'u\' ORDER BY name').all(name) as { name: string }[]
  ).map((ix) => (db.prepare('SELECT name FROM pragma_index_info(?) ORDER BY seqno').all(ix.name) as { name: string }[]).map((c) => c.name));
  return {
    name,
    columns: cols.map((c) => ({ name: c.name, declaredType: c.type.toUpperCase(), notNull: c.nn === 1 })),
    primaryKey,
    uniqueKeys,
  };
}

/**
 * Rows as arrays, in a fixed order so the CSV is the same bytes on every run: by primary key, or by
 * every column in turn when there is none (identical rows are then adjacent and interchangeable).
 */
export function tableRows(db: Database.Database, t: TableInfo): IterableIterator<unknown[]> {
  const order = (t.primaryKey.length > 0 ? t.primaryKey : t.columns.map((c) => c.name)).map(quoteIdent).join(', ');
  const cols = t.columns.map((c) => quoteIdent(c.name)).join(', ');
  return db
    .prepare(`SELECT ${cols} FROM ${quoteIdent(t.name)} ORDER BY ${order}`)
    .raw(true)
    .iterate() as IterableIterator<unknown[]>;
}

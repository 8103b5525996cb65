import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { createHistoryDb } from '../../build-scripts/history/history-db.js';
import { writeChangesStore } from '../../build-scripts/history/write-changes-store.js';
import { CHANGES_DB, CHANGES_FORMAT_VERSION, CHANGES_TABLES, ChangesStore } from '../../src/snapshot/changes-store.js';
import { SnapshotFormatError } from '../../src/snapshot/format.js';
import { HISTORY_FORMAT_VERSION, HISTORY_TABLES, HistoryChunks } from '../../src/snapshot/history-store.js';

/**
 * changes.sqlite and the history store's files are declared with defineTable, each under a layout
 * version (SQLite's user_version): what is written is what is declared, a file written before the
 * version was recorded (0) reads as version 1, and a file of another version is refused naming it.
 */
const root = mkdtempSync(join(tmpdir(), 'esg-store-formats-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const setVersion = (path: string, v: number) => {
  const db = new Database(path);
  db.pragma(`user_version = ${v}`);
  db.close();
};
/** The file's tables and indexes as SQLite keeps them, by name. */
const layout = (path: string) => {
  const db = new Database(path, { readonly: true });
  const rows = db.prepare('SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name').raw().all() as [string, string][];
  db.close();
  return Object.fromEntries(rows);
};
const declared = (tables: readonly { ddl: string }[]) =>
  Object.fromEntries(tables.flatMap((t) => t.ddl.split(';\n').filter(Boolean)).map((sql) => [/^CREATE (?:TABLE|INDEX) (\w+)/.exec(sql)![1]!, sql]));

describe('the changes database', () => {
  const dir = join(root, 'changes');
  const item = { ticker: 'H0001', score_delta: 4, causes: [{ kind: 'timeliness' }] } as never;

  it('is written as declared, under its version', () => {
    mkdirSync(dir);
    writeChangesStore(dir, '2026-10-01', [{ industry: 'Steel', item }]);
    expect(layout(join(dir, CHANGES_DB))).toEqual(declared(CHANGES_TABLES));
    const store = ChangesStore.open(dir);
    expect(store.fromSnapshotId).toBe('2026-10-01');
    store.close();
    const db = new Database(join(dir, CHANGES_DB), { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(CHANGES_FORMAT_VERSION);
    db.close();
  });

  it('reads a file from before versions (0) as version 1, and refuses a newer one, naming it', () => {
    setVersion(join(dir, CHANGES_DB), 0);
    ChangesStore.open(dir).close();
    setVersion(join(dir, CHANGES_DB), CHANGES_FORMAT_VERSION + 1);
    expect(() => ChangesStore.open(dir)).toThrow(SnapshotFormatError);
    expect(() => ChangesStore.open(dir)).toThrow(`is of layout ${CHANGES_FORMAT_VERSION + 1}; this code reads layout ${CHANGES_FORMAT_VERSION}`);
  });
});

describe('a history store file', () => {
  const path = join(root, 'history.sqlite');
  const record = {
    dataset_snapshot_id: '2026-10-01',
    data_asof: '2026-09-30',
    published_at: '2026-10-01T00:00:00Z',
    seq: 3,
    head: Buffer.from('{}'),
  };

  it('is written as declared, under its version, and its record reads back', () => {
    createHistoryDb(path, record);
    expect(layout(path)).toEqual(declared(HISTORY_TABLES));
    const file = new HistoryChunks(path);
    expect(file.record()).toEqual({ ...record, path });
    file.close();
  });

  it('reads a file from before versions (0) as version 1, and refuses a newer one, naming it', () => {
    setVersion(path, 0);
    new HistoryChunks(path).close();
    setVersion(path, HISTORY_FORMAT_VERSION + 1);
    expect(() => new HistoryChunks(path)).toThrow(`${path} is of layout ${HISTORY_FORMAT_VERSION + 1}`);
  });
});

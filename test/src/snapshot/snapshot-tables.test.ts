import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { Column, Table } from '../../../src/snapshot/define-table.js';
import { ASSURANCE, CARBON_FEE, COMPANY, DISCLOSURE, ETF, FLAG, PENALTY, RANKED, SOURCE, SOURCE_FILE } from '../../../src/snapshot/rows.js';
import { CARBON_DISCLOSURES, COMPANIES, SNAPSHOT_DDL, SNAPSHOT_TABLES } from '../../../src/snapshot/schema.js';

/**
 * Each table is described once (schema.ts); its DDL, INSERT, SELECT lists and decoders are made
 * from that. Here a row of every table goes in through the INSERT and comes back through a reader
 * of every column, equal, in a database made by the DDL: all three agree on every column's place
 * and codec. Two rows per table, so a value in the wrong column, or a codec applied to the wrong
 * one, shows (the second row's values differ from the first's in every column).
 */

/** A value for a column, different for each (table, column, n), of the column's declared kind. */
function sample(table: string, name: string, c: Column<unknown>, n: number): unknown {
  const seed = `${table}.${name}.${n}`;
  const number = [...seed].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) % 100_003, 7);
  if (c.codec === 'boolean') return n % 2 === 0;
  if (c.codec === 'jsonArray') return [seed, { n }];
  if (c.codec === 'json') return n === 1 ? null : { seed, n };
  if (!c.sql.includes('NOT NULL') && !c.sql.includes('PRIMARY KEY') && n === 1) return null;
  if (c.sql.startsWith('TEXT')) return seed;
  if (c.sql.startsWith('REAL')) return number + 0.25;
  return number;
}

const rowOf = (t: Table<any>, n: number) => Object.fromEntries(t.names.map((name) => [name, sample(t.name, name, t.columns[name], n)]));

function freshDb(): Database.Database {
  const db = new Database(':memory:');
  db.exec(SNAPSHOT_DDL);
  return db;
}

describe('every snapshot table: DDL, INSERT and SELECT agree', () => {
  for (const table of SNAPSHOT_TABLES) {
    it(`${table.name}: rows written through its INSERT read back equal through its reader`, () => {
      const db = freshDb();
      const rows = [0, 1].map((n) => rowOf(table, n));
      const insert = table.writer(db.prepare(table.insertSql));
      for (const row of rows) insert(row);
      const all = table.readerWithout([]);
      const read = (db.prepare(`SELECT ${all.columns} FROM ${table.name}`).raw().all() as unknown[][]).map((r) => all.decode(r));
      const key = (r: Record<string, unknown>) => JSON.stringify(r);
      expect(read.map(key).sort()).toEqual(rows.map(key).sort());
      // The DDL's columns are the description's, in its order (the download's CSV columns).
      expect(db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all(table.name)).toEqual(table.names);
      db.close();
    });
  }

  it('a reader decodes past a leading column, and a group reads as null when its first column is', () => {
    const db = freshDb();
    const row = { ...rowOf(CARBON_DISCLOSURES, 0), registry_total: null, registry_source_id: null, registry_deep_link: null };
    CARBON_DISCLOSURES.writer(db.prepare(CARBON_DISCLOSURES.insertSql))(row as never);
    const raw = db.prepare(`SELECT ticker, ${DISCLOSURE.columns} FROM carbon_disclosures`).raw().get() as unknown[];
    expect(DISCLOSURE.decode(raw, 1)).toEqual({
      ...row,
      ticker: undefined,
      registry_total: undefined,
      registry_source_id: undefined,
      registry_deep_link: undefined,
      registry: null,
    });
    expect(Object.keys(DISCLOSURE.decode(raw, 1))).not.toContain('ticker');
    db.close();
  });

  it("the store's readers select only their table's columns, and decode what they select", () => {
    const db = freshDb();
    const company = rowOf(COMPANIES, 0);
    COMPANIES.writer(db.prepare(COMPANIES.insertSql))(company as never);
    const { cbam_sectors: _sectors, ...record } = company;
    expect(COMPANY.decode(db.prepare(`SELECT ${COMPANY.columns} FROM companies`).raw().get() as unknown[])).toEqual(record);
    const { ticker, company_name, credibility_score, verdict, rank } = company;
    expect(RANKED.decode(db.prepare(`SELECT ${RANKED.columns} FROM companies`).raw().get() as unknown[])).toEqual({
      ticker,
      company_name,
      credibility_score,
      verdict,
      rank,
    });
    const tables: [string, { columns: string }][] = [
      ['penalties', PENALTY],
      ['carbon_fees', CARBON_FEE],
      ['assurances', ASSURANCE],
      ['flags', FLAG],
      ['sources', SOURCE],
      ['source_files', SOURCE_FILE],
      ['etfs', ETF],
    ];
    for (const [name, reader] of tables) expect(() => db.prepare(`SELECT ${reader.columns} FROM ${name}`), name).not.toThrow();
    db.close();
  });
});

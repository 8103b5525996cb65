import Database from 'better-sqlite3';
import { join } from 'node:path';
import type { ChangeItem } from '../contract/changes.js';
import type { CauseKind } from '../contract/vocabulary.js';
import { col, defineTable } from './define-table.js';
import { checkStoreFormat } from './format.js';

/**
 * Every change of a snapshot since the previous one (contract 10), in a database of its own beside
 * snapshot.sqlite, so the shim answers filtered `/changes` from indexes: its memory does not grow
 * with the number of companies that moved (a month crossing a year boundary moves nearly all of
 * them). A file of its own rather than tables in snapshot.sqlite, because that database is a
 * download whose every table becomes a CSV, and these rows are the API's bodies, not data.
 *
 * `ord` is an item's position in the contract's order (|score_delta| descending, then ticker), so
 * every page is `ORDER BY ord`. Because that order sorts by |score_delta| first, the items with
 * |score_delta| ≥ N are exactly the first k: min_abs_delta is a bound on `ord`, found with one
 * index seek, and combines with the other filters for free.
 */
export const CHANGES_DB = 'changes.sqlite';

/**
 * The layout's version (SQLite's user_version, format.ts): the build writes it, and the shim refuses
 * a file of another. Raise it with any change to the tables below.
 */
export const CHANGES_FORMAT_VERSION = 1;

export const CHANGES_META = defineTable('meta', { key: col.text('PRIMARY KEY'), value: col.nullable.text() });

/**
 * One row per item. Its indexes, made once the rows are in: each filter reads one index in `ord`
 * order and never the items: industry alone, |score_delta| in the contract's direction (whose first
 * entry below N is the min_abs_delta bound), and one company's item by its ticker (a snapshot built
 * before that index reads its table through, once per such question).
 */
export const CHANGES = defineTable(
  'changes',
  { ord: col.integer('PRIMARY KEY'), ticker: col.text(), industry: col.text(), abs_delta: col.integer(), item: col.text() },
  { indexes: { changes_by_industry: '(industry, ord)', changes_by_abs_delta: '(abs_delta DESC, ord)', changes_by_ticker: '(ticker)' } },
);

/**
 * Each item's cause kinds: cause alone (the key), and cause and industry (the industry copied here
 * so it needs no lookup of the item's row).
 */
export const CHANGE_CAUSES = defineTable(
  'change_causes',
  { kind: col.text<CauseKind>(), industry: col.text(), ord: col.integer() },
  { key: 'PRIMARY KEY (kind, ord)', withoutRowid: true, indexes: { change_causes_by_industry: '(kind, industry, ord)' } },
);

/** Every table, in the order they are created (build-scripts/history/write-changes-store.ts creates their indexes once the rows are in). */
export const CHANGES_TABLES = [CHANGES_META, CHANGES, CHANGE_CAUSES] as const;

export interface ChangesFilter {
  cause?: CauseKind;
  industry?: string;
  minAbsDelta?: number;
  /** One company's item only: the MCP `get_changes` tool's filter (GET /changes has no such parameter). */
  ticker?: string;
}

/** One page of the items matching a filter, and how many match in all. */
export interface ChangesPage {
  total: number;
  items: ChangeItem[];
}

/** A change with what filters read but the body does not show. */
export interface IndexedChange {
  industry: string;
  item: ChangeItem;
}

/** Whether a change passes a filter (the one-company read checks its item with it). */
export function matchesFilter(c: IndexedChange, f: ChangesFilter): boolean {
  return (
    (f.ticker === undefined || c.item.ticker === f.ticker) &&
    (f.cause === undefined || c.item.causes.some((x) => x.kind === f.cause)) &&
    (f.industry === undefined || c.industry === f.industry) &&
    (f.minAbsDelta === undefined || Math.abs(c.item.score_delta) >= f.minAbsDelta)
  );
}

/** Statements with no filter but the min_abs_delta bound, and the whole list. */
export const CHANGES_SQL = {
  // The first item whose |score_delta| is below the bound: every item before it is at or above.
  firstBelow: `SELECT ord FROM ${CHANGES.name} WHERE abs_delta < ? ORDER BY abs_delta DESC, ord LIMIT 1`,
  range: `SELECT item FROM ${CHANGES.name} WHERE ord >= ? AND ord < ? ORDER BY ord`,
  all: `SELECT industry, item FROM ${CHANGES.name} ORDER BY ord`,
  ofTicker: `SELECT industry, item FROM ${CHANGES.name} WHERE ticker = ?`,
};

/**
 * The count and page statements of a cause or industry filter, and its values; null with neither
 * (a page is then a range of ords). Parameters: the values, the ord bound, then limit and offset.
 * The matching ords are read from one index in ord order, and only the page's items' rows are read.
 */
export function filterSql(f: ChangesFilter): { count: string; page: string; values: string[] } | null {
  const conditions: string[] = [];
  const values: string[] = [];
  if (f.cause !== undefined) {
    conditions.push('kind = ?');
    values.push(f.cause);
  }
  if (f.industry !== undefined) {
    conditions.push('industry = ?');
    values.push(f.industry);
  }
  if (conditions.length === 0) return null;
  // change_causes carries the industry too, so cause and industry together read one index.
  const from = f.cause !== undefined ? CHANGE_CAUSES.name : CHANGES.name;
  const matching = `FROM ${from} WHERE ${[...conditions, 'ord < ?'].join(' AND ')}`;
  return {
    count: `SELECT COUNT(*) ${matching}`,
    page: `SELECT item FROM ${CHANGES.name} WHERE ord IN (SELECT ord ${matching} ORDER BY ord LIMIT ? OFFSET ?) ORDER BY ord`,
    values,
  };
}

/** Read-only access to a snapshot's changes database; statements prepared once. */
export class ChangesStore {
  readonly fromSnapshotId: string | null;
  /** Items in all: ords run from 0 to total − 1. */
  private readonly total: number;
  private readonly stmt;
  /** Prepared statements by SQL text (three filter shapes, two statements each). */
  private readonly prepared = new Map<string, Database.Statement>();

  private constructor(private readonly db: Database.Database) {
    checkStoreFormat(db, `${db.name}`, CHANGES_FORMAT_VERSION);
    const from = db.prepare(`SELECT value FROM ${CHANGES_META.name} WHERE key = 'from_snapshot_id'`).raw().get() as [string | null] | undefined;
    if (!from) throw new Error('changes database lacks meta from_snapshot_id');
    this.fromSnapshotId = from[0];
    this.total = db.prepare(`SELECT COALESCE(MAX(ord) + 1, 0) FROM ${CHANGES.name}`).pluck().get() as number;
    this.stmt = {
      firstBelow: db.prepare(CHANGES_SQL.firstBelow).pluck(),
      range: db.prepare(CHANGES_SQL.range).pluck(),
      all: db.prepare(CHANGES_SQL.all).raw(),
      ofTicker: db.prepare(CHANGES_SQL.ofTicker).raw(),
    };
  }

  static open(snapshotDir: string): ChangesStore {
    const db = new Database(join(snapshotDir, CHANGES_DB), { readonly: true, fileMustExist: true });
    try {
      return new ChangesStore(db);
    } catch (e) {
      db.close();
      throw e;
    }
  }

  close(): void {
    this.db.close();
  }

  page(f: ChangesFilter, offset: number, limit: number): ChangesPage {
    if (f.ticker !== undefined) {
      // At most one item: the other filters are checked on it.
      const row = this.stmt.ofTicker.get(f.ticker) as [string, string] | undefined;
      const matching = row ? [{ industry: row[0], item: parseItem(row[1]) }].filter((c) => matchesFilter(c, f)) : [];
      return { total: matching.length, items: matching.slice(offset, offset + limit).map((c) => c.item) };
    }
    const bound = f.minAbsDelta === undefined ? this.total : ((this.stmt.firstBelow.get(f.minAbsDelta) as number | undefined) ?? this.total);
    const sql = filterSql(f);
    // A page past the end is asked nothing (its offset may be beyond what SQLite takes as an integer).
    if (sql === null) {
      const items = offset >= bound ? [] : (this.stmt.range.all(offset, Math.min(bound, offset + limit)) as string[]);
      return { total: bound, items: items.map(parseItem) };
    }
    const total = this.statement(sql.count).get(...sql.values, bound) as number;
    const items = offset >= total ? [] : (this.statement(sql.page).all(...sql.values, bound, limit, offset) as string[]);
    return { total, items: items.map(parseItem) };
  }

  /** Every change in the contract's order, with its industry. */
  *entries(): Generator<IndexedChange> {
    for (const [industry, item] of this.stmt.all.iterate() as Iterable<[string, string]>) yield { industry, item: parseItem(item) };
  }

  private statement(sql: string): Database.Statement {
    let s = this.prepared.get(sql);
    if (!s) {
      s = this.db.prepare(sql).pluck();
      this.prepared.set(sql, s);
    }
    return s;
  }
}

/** An item's JSON as the build serialised it: parsing and serialising again gives the same bytes. */
const parseItem = (json: string) => JSON.parse(json) as ChangeItem;

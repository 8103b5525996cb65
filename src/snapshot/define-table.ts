/**
 * A snapshot table described once: its columns in order, each with its SQL type and constraints and
 * how its value maps between SQLite and the TypeScript record (booleans are stored 0/1, small arrays
 * and objects as JSON text). From that one description come the DDL, the INSERT (naming its
 * columns), the SELECT lists and the decoders, so none of them can drift from another.
 *
 * Decoders and encoders are compiled once per table and column list (new Function), into one object
 * literal or one array per row: the tree writer and the ranking index decode a few hundred thousand
 * rows, and a record built in a fixed shape by straight-line code is what keeps that cheap; a loop
 * over column descriptions per row is not.
 */

/** How a column's value is stored. */
export type Codec = 'plain' | 'boolean' | 'jsonArray' | 'json';

export interface Column<T> {
  /** Type and constraints as the DDL writes them after the name. */
  readonly sql: string;
  readonly codec: Codec;
  /** Never set: carries the column's TypeScript type. */
  readonly type?: T;
}

const column = <T>(sql: string, codec: Codec): Column<T> => ({ sql, codec });

/**
 * Column constructors. `constraints` replaces the default NOT NULL (e.g. 'PRIMARY KEY', written as
 * the published schema always had it); the `nullable` ones declare no constraint and may hold NULL.
 */
export const col = {
  text: <T extends string = string>(constraints = 'NOT NULL') => column<T>(`TEXT ${constraints}`, 'plain'),
  integer: (constraints = 'NOT NULL') => column<number>(`INTEGER ${constraints}`, 'plain'),
  real: () => column<number>('REAL NOT NULL', 'plain'),
  /** 0 or 1 in SQLite; `boolean` in the download's schema. */
  boolean: () => column<boolean>('INTEGER NOT NULL', 'boolean'),
  /** A JSON array, only ever read whole; `array` in the download's schema. */
  jsonArray: <T extends unknown[]>() => column<T>('TEXT NOT NULL', 'jsonArray'),
  /** Bytes (the history store's compressed chunks). */
  blob: () => column<Buffer>('BLOB NOT NULL', 'plain'),
  nullable: {
    text: <T extends string = string>() => column<T | null>('TEXT', 'plain'),
    integer: () => column<number | null>('INTEGER', 'plain'),
    real: () => column<number | null>('REAL', 'plain'),
    /** A JSON object, or NULL. */
    json: <T extends object>() => column<T | null>('TEXT', 'json'),
    blob: () => column<Buffer | null>('BLOB', 'plain'),
  },
};

export type Columns = Record<string, Column<unknown>>;
/** A table's row as TypeScript sees it (decoded). */
export type RowOf<C extends Columns> = { [K in keyof C]: C[K] extends Column<infer V> ? V : never };

/** A raw row: the selected columns in order. `at` is where a record's columns start in it. */
export type Raw = unknown[];

/** A column list to select and the decoder of its values into a record. */
export interface Reader<R> {
  /** The SELECT list, in the order the decoder reads. */
  readonly columns: string;
  /** The record whose columns start at `at` in a raw row. */
  readonly decode: (r: Raw, at?: number) => R;
}

/** Columns read into one nested object, null when its first column is NULL. */
export interface Group<C extends Columns> {
  readonly group: string;
  readonly fields: Record<string, keyof C & string>;
}

/** A prepared statement (better-sqlite3's), which this file does not need to import. */
export interface Runnable {
  run(...params: unknown[]): unknown;
}

export interface TableOptions {
  /** Table constraints after the columns, e.g. 'PRIMARY KEY (ticker, flag_id)'. */
  key?: string;
  withoutRowid?: boolean;
  /** Index name → its column list, e.g. '(ticker, date DESC, record_id)'. */
  indexes?: Record<string, string>;
}

export interface Table<C extends Columns> {
  readonly name: string;
  readonly columns: C;
  readonly names: readonly (keyof C & string)[];
  /** CREATE TABLE and its indexes. */
  readonly ddl: string;
  /** CREATE TABLE alone, and its indexes alone: a table filled before it is indexed (the changes database) runs them apart. */
  readonly createSql: string;
  readonly indexSql: string;
  /** `INSERT INTO name (every column) VALUES (…)`, its parameters in column order. */
  readonly insertSql: string;
  /** A writer of rows given in their TypeScript shape through `insert` (insertSql, prepared), each value encoded as SQLite stores it. */
  writer(insert: Runnable): (row: RowOf<C>) => void;
  /** A reader of the named columns, in their order here (a group stands for its fields' columns). */
  reader<K extends keyof C & string>(picks: readonly (K | Group<C>)[]): Reader<Pick<RowOf<C>, K>>;
  /** A reader of every column but these, in table order. */
  readerWithout<K extends keyof C & string>(omit: readonly K[]): Reader<Omit<RowOf<C>, K>>;
}

/** The expression decoding the raw value at offset i. */
function decodeExpr(codec: Codec, i: number): string {
  const v = `r[at + ${i}]`;
  switch (codec) {
    case 'plain':
      return v;
    case 'boolean':
      return `${v} === 1`;
    case 'jsonArray':
      return `JSON.parse(${v})`;
    case 'json':
      return `(${v} === null ? null : JSON.parse(${v}))`;
  }
}

function encodeExpr(codec: Codec, name: string): string {
  const v = `row[${JSON.stringify(name)}]`;
  switch (codec) {
    case 'plain':
      return v;
    case 'boolean':
      return `(${v} ? 1 : 0)`;
    case 'jsonArray':
      return `JSON.stringify(${v})`;
    case 'json':
      return `(${v} === null ? null : JSON.stringify(${v}))`;
  }
}

const NAME = /^[a-z_][a-z0-9_]*$/;

export function defineTable<C extends Columns>(name: string, columns: C, options: TableOptions = {}): Table<C> {
  const names = Object.keys(columns) as (keyof C & string)[];
  for (const n of [name, ...names, ...Object.keys(options.indexes ?? {})])
    if (!NAME.test(n)) throw new Error(`snapshot table ${name}: bad name ${n}`);
  const lines = [...names.map((n) => `  ${n} ${columns[n]!.sql}`), ...(options.key ? [`  ${options.key}`] : [])];
  const indexSql = Object.entries(options.indexes ?? {})
    .map(([ix, on]) => `CREATE INDEX ${ix} ON ${name} ${on};\n`)
    .join('');
  const createSql = `CREATE TABLE ${name} (\n${lines.join(',\n')}\n)${options.withoutRowid ? ' WITHOUT ROWID' : ''};\n`;

  // The statement's run called with each value as an argument: no array made per row.
  const writer = new Function(
    'insert',
    `return (row) => { insert.run(${names.map((n) => encodeExpr(columns[n]!.codec, n)).join(', ')}); };`,
  ) as Table<C>['writer'];

  function reader(picks: readonly (string | Group<C>)[]): Reader<never> {
    const selected: string[] = [];
    const fields: string[] = [];
    const at = (n: string) => {
      if (!(n in columns)) throw new Error(`snapshot table ${name} has no column ${n}`);
      selected.push(n);
      return selected.length - 1;
    };
    for (const p of picks) {
      if (typeof p === 'string') {
        fields.push(`${JSON.stringify(p)}: ${decodeExpr(columns[p]!.codec, at(p))}`);
        continue;
      }
      const inner = Object.entries(p.fields).map(([field, n]) => `${JSON.stringify(field)}: ${decodeExpr(columns[n]!.codec, at(n))}`);
      const first = selected.length - inner.length;
      fields.push(`${JSON.stringify(p.group)}: r[at + ${first}] === null ? null : { ${inner.join(', ')} }`);
    }
    const decode = new Function('r', 'at', `at = at ?? 0;\nreturn { ${fields.join(', ')} };`) as (r: Raw, at?: number) => never;
    return { columns: selected.join(', '), decode };
  }

  return {
    name,
    columns,
    names,
    ddl: createSql + indexSql,
    createSql,
    indexSql,
    insertSql: `INSERT INTO ${name} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
    writer,
    reader: reader as Table<C>['reader'],
    readerWithout: ((omit: readonly string[]) => reader(names.filter((n) => !omit.includes(n)))) as Table<C>['readerWithout'],
  };
}

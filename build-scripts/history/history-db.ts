import { createReadStream, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import Database from 'better-sqlite3';

/**
 * Every company's history so far, beside the snapshot's database: one row per ticker ever listed,
 * `data` the JSON array of its entries, newest first. The next build reads the previous snapshot's
 * rows to carry history forward (one older snapshot read per build, never all of them), a ticker
 * range at a time from each tree thread; companies no longer listed keep their row, so a relisted
 * company keeps its past and pruned snapshots' entries stay.
 *
 * SQLite rather than a text file because the tree threads each need one ticker range of the
 * previous rows, and all of them write their ranges into the new file at once.
 */
export const HISTORY_DB = 'history.sqlite';
/** The text form written by builds before the database (one `{"ticker","data"}` line per ticker): read once, carried into the database. */
const LEGACY_HISTORY_FILE = 'history.jsonl';

export type HistoryRow = [ticker: string, data: string];

/**
 * Makes this snapshot's (empty) history database, in WAL mode so every tree thread can write its
 * ranges. A rollback journal would write each row once instead of twice (log, then checkpoint); in
 * one 100k run on this machine's disk it was not faster (67 and 94 s against 25 and 47 s with WAL),
 * but that disk varies 2–4× between identical runs, so the comparison is open.
 */
export function createHistoryDb(snapshotDir: string): void {
  const path = join(snapshotDir, HISTORY_DB);
  rmSync(path, { force: true });
  const db = new Database(path);
  // Rows are a kilobyte or more each (every entry carries its score breakdown): large pages and a
  // rowid table write a hundred thousand of them 5× faster than 4 KB pages WITHOUT ROWID (measured).
  db.pragma('page_size = 65536');
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE history (ticker TEXT PRIMARY KEY, data TEXT NOT NULL)');
  db.close();
}

/** After every thread has written: one self-contained file again, no WAL beside it. */
export function sealHistoryDb(snapshotDir: string): void {
  const db = new Database(join(snapshotDir, HISTORY_DB));
  db.pragma('journal_mode = DELETE');
  db.close();
}

/** One thread's connection to this snapshot's history: each chunk's rows in one transaction. */
export class HistoryWriter {
  private readonly db: Database.Database;
  private readonly insertRows: Database.Transaction<(rows: readonly HistoryRow[]) => void>;

  constructor(snapshotDir: string) {
    // Other threads commit their chunks to the same file: wait for the lock rather than fail.
    this.db = new Database(join(snapshotDir, HISTORY_DB), { fileMustExist: true, timeout: 120_000 });
    // The build publishes by renaming a complete folder; a crash discards the folder, not a row.
    this.db.pragma('synchronous = OFF');
    const insert = this.db.prepare('INSERT INTO history (ticker, data) VALUES (?, ?)');
    this.insertRows = this.db.transaction((rows: readonly HistoryRow[]) => {
      for (const r of rows) insert.run(r[0], r[1]);
    });
  }

  write(rows: readonly HistoryRow[]): void {
    // IMMEDIATE: the write lock is taken (waiting its turn) before the first read, so a thread never
    // reads, then finds another thread's chunk committed first, which SQLite fails at once as BUSY.
    this.insertRows.immediate(rows);
  }

  close(): void {
    this.db.close();
  }
}

/** The previous snapshot's history, read a ticker range at a time. */
export class PreviousHistory {
  private readonly db: Database.Database;
  private readonly range: Database.Statement;

  private constructor(path: string) {
    this.db = new Database(path, { readonly: true, fileMustExist: true });
    this.range = this.db.prepare('SELECT ticker, data FROM history WHERE ticker >= ? AND ticker < ? ORDER BY ticker').raw();
  }

  /** Null when the previous snapshot has no history (it was the first, or predates history). */
  static open(previousDir: string | null): PreviousHistory | null {
    if (previousDir === null) return null;
    const path = join(previousDir, HISTORY_DB);
    return existsSync(path) ? new PreviousHistory(path) : null;
  }

  /** Rows with from ≤ ticker < to, in ticker order. */
  between(from: string, to: string): HistoryRow[] {
    return this.range.all(from, to) as HistoryRow[];
  }

  close(): void {
    this.db.close();
  }
}

const LINE_HEAD = '{"ticker":"';
/** `{"ticker":"T","data":[…]}` → T and the data array's JSON (tickers are [0-9A-Z], so no escapes). */
function splitLine(line: string): HistoryRow {
  const end = line.indexOf('"', LINE_HEAD.length);
  if (!line.startsWith(LINE_HEAD) || !line.startsWith('","data":', end) || !line.endsWith(']}')) throw new Error(`${LEGACY_HISTORY_FILE}: malformed line ${line.slice(0, 60)}`);
  return [line.slice(LINE_HEAD.length, end), line.slice(end + 9, -1)];
}

/**
 * A previous snapshot published with the text form has its history carried into a database in
 * `dir` (a scratch folder the caller removes after the tree), so its entries are not lost. Returns
 * the folder to read the previous history from.
 */
export async function previousHistoryDir(previousDir: string | null, dir: string): Promise<string | null> {
  if (previousDir === null || existsSync(join(previousDir, HISTORY_DB)) || !existsSync(join(previousDir, LEGACY_HISTORY_FILE))) return previousDir;
  mkdirSync(dir, { recursive: true });
  createHistoryDb(dir);
  const out = new HistoryWriter(dir);
  const lines = createInterface({ input: createReadStream(join(previousDir, LEGACY_HISTORY_FILE), 'utf8'), crlfDelay: Infinity });
  let batch: HistoryRow[] = [];
  for await (const line of lines) {
    if (!line) continue;
    batch.push(splitLine(line));
    if (batch.length === 1000) {
      out.write(batch);
      batch = [];
    }
  }
  out.write(batch);
  out.close();
  sealHistoryDb(dir);
  return dir;
}

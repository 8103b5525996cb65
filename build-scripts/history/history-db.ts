import { createReadStream, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { brotliCompressSync, brotliDecompressSync, constants as zlib } from 'node:zlib';
import Database from 'better-sqlite3';

/**
 * Every company's history so far, beside the snapshot's database. The next build reads the
 * previous snapshot's rows to carry history forward (one older snapshot read per build, never all
 * of them), a ticker range at a time from each tree thread; companies no longer listed keep their
 * row, so a relisted company keeps its past and pruned snapshots' entries stay.
 *
 * Each row carries, besides the company's entries (the JSON array, newest first), the key of the
 * facts this snapshot scored it on (explain.ts's factsKey; '' when it is not listed here): the next
 * build compares keys and reads earlier facts only for the companies whose key moved.
 *
 * Stored one row per tree chunk (`history_chunks`), its rows as `TICKER\tKEY\tJSON` lines
 * compressed together: the entries repeat the same field names and breakdowns over and over, so a
 * chunk shrinks over twenty-fold, and a hundred thousand companies write a few megabytes instead
 * of over a hundred (the history pass was bound by writing those bytes, measured at 100k). The
 * entries stay bytes from one build to the next (read out of a chunk, put behind the new entry,
 * written to the history file and packed again), never decoded into strings.
 *
 * SQLite rather than a text file because the tree threads each need one ticker range of the
 * previous rows, and all of them write their chunks into the new file at once.
 */
export const HISTORY_DB = 'history.sqlite';
/** The text form written by builds before the database (one `{"ticker","data"}` line per ticker): read once, carried into the database. */
const LEGACY_HISTORY_FILE = 'history.jsonl';

/**
 * One company's row: its ticker, its entries' JSON array (UTF-8), and the key of the facts it was
 * scored on in that snapshot ('' when not listed there; null when unknown, as in rows older builds wrote).
 */
export type HistoryRow = [ticker: string, data: Buffer, key: string | null];

/** How a row's key is written in a chunk: null as '-', which no facts key (a JSON array) or '' can be. */
const UNKNOWN_KEY = '-';
/**
 * Brotli at its fastest quality: on these chunks it packed 24-fold at about 2.5 GB/s, against
 * deflate's fastest level at 17-fold and 1 GB/s (measured here).
 */
const compress = (bytes: Buffer) =>
  brotliCompressSync(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: 0, [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length } });
const TAB = 9;
const NEWLINE = 10;
const NL = Buffer.from('\n');

/**
 * Makes this snapshot's (empty) history database, in WAL mode so every tree thread can write its
 * chunks. A rollback journal made the threads' turns on the file lock 2–3× slower at 100k (measured).
 */
export function createHistoryDb(snapshotDir: string): void {
  const path = join(snapshotDir, HISTORY_DB);
  rmSync(path, { force: true });
  const db = new Database(path);
  // Rows are tens of kilobytes each (a compressed chunk): large pages keep each in few of them.
  db.pragma('page_size = 65536');
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE history_chunks (first TEXT PRIMARY KEY, last TEXT NOT NULL, rows INTEGER NOT NULL, data BLOB NOT NULL)');
  db.close();
}

/** After every thread has written: one self-contained file again, no WAL beside it. */
export function sealHistoryDb(snapshotDir: string): void {
  const db = new Database(join(snapshotDir, HISTORY_DB));
  db.pragma('journal_mode = DELETE');
  db.close();
}

/** Rows (in ticker order) as one compressed chunk. */
function pack(rows: readonly HistoryRow[]): Buffer {
  const parts: Buffer[] = [];
  for (const [ticker, data, key] of rows) parts.push(Buffer.from(`${ticker}\t${key ?? UNKNOWN_KEY}\t`), data, NL);
  return compress(Buffer.concat(parts));
}

/** The rows of a chunk with from ≤ ticker < to; each row's data is a slice of the decompressed chunk, not a copy. */
function unpackBetween(blob: Buffer, from: string, to: string, out: HistoryRow[]): void {
  const bytes = brotliDecompressSync(blob);
  for (let at = 0; at < bytes.length; ) {
    const tab1 = bytes.indexOf(TAB, at);
    const tab2 = bytes.indexOf(TAB, tab1 + 1);
    const end = bytes.indexOf(NEWLINE, tab2 + 1);
    if (tab1 < 0 || tab2 < 0 || end < 0) throw new Error(`${HISTORY_DB}: malformed chunk line at byte ${at}`);
    // Tickers are [0-9A-Z]: latin1 decodes them as they are, without UTF-8's checks.
    const ticker = bytes.toString('latin1', at, tab1);
    if (ticker >= to) break;
    if (ticker >= from) {
      const key = bytes.toString('utf8', tab1 + 1, tab2);
      out.push([ticker, bytes.subarray(tab2 + 1, end), key === UNKNOWN_KEY ? null : key]);
    }
    at = end + 1;
  }
}

/** One thread's connection to this snapshot's history: each chunk's rows as one compressed row. */
export class HistoryWriter {
  private readonly db: Database.Database;
  private readonly insert: Database.Transaction<(first: string, last: string, rows: number, blob: Buffer) => void>;
  /** The last ticker written: a thread claims its chunks in ticker order, so its rows only ever ascend. */
  private lastTicker = '';

  constructor(snapshotDir: string) {
    // Other threads commit their chunks to the same file: wait for the lock rather than fail.
    this.db = new Database(join(snapshotDir, HISTORY_DB), { fileMustExist: true, timeout: 120_000 });
    // The build publishes by renaming a complete folder; a crash discards the folder, not a row.
    this.db.pragma('synchronous = OFF');
    const insert = this.db.prepare('INSERT INTO history_chunks (first, last, rows, data) VALUES (?, ?, ?, ?)');
    this.insert = this.db.transaction((first: string, last: string, rows: number, blob: Buffer) => {
      insert.run(first, last, rows, blob);
    });
  }

  /**
   * Rows in strictly ascending ticker order, after every row this writer wrote before (a reader
   * finds a ticker by its chunk's first and last, and stops at the first row past its range).
   */
  write(rows: readonly HistoryRow[]): void {
    if (rows.length === 0) return;
    let last = this.lastTicker;
    for (const [ticker] of rows) {
      if (!(last < ticker)) throw new Error(`${HISTORY_DB}: rows out of ticker order (${last} before ${ticker})`);
      last = ticker;
    }
    const blob = pack(rows);
    // IMMEDIATE: the write lock is taken (waiting its turn) before the first read, so a thread never
    // reads, then finds another thread's chunk committed first, which SQLite fails at once as BUSY.
    // Compressing comes before, so a thread holds the lock only for the insert.
    this.insert.immediate(rows[0]![0], last, rows.length, blob);
    this.lastTicker = last;
  }

  close(): void {
    this.db.close();
  }
}

/** The previous snapshot's history, read a ticker range at a time. */
export class PreviousHistory {
  private readonly db: Database.Database;
  private readonly chunks: Database.Statement | null;
  private readonly legacyRows: Database.Statement | null;

  private constructor(path: string) {
    this.db = new Database(path, { readonly: true, fileMustExist: true });
    const has = (table: string) => this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) !== undefined;
    // Chunks overlapping the range: a previous build cut its chunks at other tickers.
    this.chunks = has('history_chunks') ? this.db.prepare('SELECT data FROM history_chunks WHERE last >= ? AND first < ? ORDER BY first').pluck() : null;
    // Builds before the chunks wrote one uncompressed row per ticker, without facts keys.
    this.legacyRows = this.chunks === null ? this.db.prepare('SELECT ticker, data, NULL FROM history WHERE ticker >= ? AND ticker < ? ORDER BY ticker').raw() : null;
  }

  /** Null when the previous snapshot has no history (it was the first, or predates history). */
  static open(previousDir: string | null): PreviousHistory | null {
    if (previousDir === null) return null;
    const path = join(previousDir, HISTORY_DB);
    return existsSync(path) ? new PreviousHistory(path) : null;
  }

  /** Rows with from ≤ ticker < to, in ticker order. */
  between(from: string, to: string): HistoryRow[] {
    if (this.legacyRows) return (this.legacyRows.all(from, to) as [string, string, null][]).map(([t, data]) => [t, Buffer.from(data), null]);
    const out: HistoryRow[] = [];
    for (const blob of this.chunks!.all(from, to) as Buffer[]) unpackBetween(blob, from, to, out);
    return out;
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
  return [line.slice(LINE_HEAD.length, end), Buffer.from(line.slice(end + 9, -1)), null];
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

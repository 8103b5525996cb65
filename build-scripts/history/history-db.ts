import { rmSync } from 'node:fs';
import { brotliCompressSync, constants as zlib } from 'node:zlib';
import Database from 'better-sqlite3';
import type { RowOf } from '../../src/snapshot/define-table.js';
import { markStoreFormat } from '../../src/snapshot/format.js';
import {
  HISTORY_CHUNKS,
  HISTORY_FORMAT_VERSION,
  HISTORY_TABLES,
  SNAPSHOT_RECORD,
  UNKNOWN_KEY,
  type HistoryRow,
  type StoreRecord,
} from '../../src/snapshot/history-store.js';

/**
 * Writes one file of the history store (src/snapshot/history-store.ts): a snapshot's own entries,
 * from every tree thread at once, in the build's work folder until publishing moves it into the
 * store. SQLite rather than a text file because the threads all write their chunks into it at once,
 * and the next builds and the shim read it a ticker range, or one ticker, at a time.
 *
 * Rows are `TICKER\tKEY\tENTRY` lines compressed a hundred at a time: an entry repeats the same
 * field names and breakdown sentences as its neighbours, so a chunk shrinks well, while a pinned
 * read, which needs one row of each snapshot's file, decompresses a small chunk instead of a large
 * one (figures: bench/results.md, "Figures the README carried").
 */
const ROWS_PER_CHUNK = 100;

/** The record a store file starts with (its path is where it is read from). */
export type HistoryRecord = Omit<StoreRecord, 'path'>;

/** Brotli at its fastest quality: on these chunks it packs tighter and faster than deflate's fastest level (bench/results.md). */
const compress = (bytes: Buffer) =>
  brotliCompressSync(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: 0, [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length } });
const NL = Buffer.from('\n');

/**
 * Makes an (empty) store file at `path`, in WAL mode so every tree thread can write its chunks. A
 * rollback journal made the threads' turns on the file lock several times slower (bench/results.md). The
 * record is written now, or by sealHistoryDb when it is known only at the end.
 */
export function createHistoryDb(path: string, record: HistoryRecord | null): void {
  rmSync(path, { force: true });
  const db = new Database(path);
  // SQLite's default 4 KB pages: a chunk is a few kilobytes, and a small snapshot's file stays small
  // (64 KB pages, right for the thousand-row chunks of whole histories, made every file 256 KB at least).
  db.pragma('journal_mode = WAL');
  markStoreFormat(db, HISTORY_FORMAT_VERSION);
  for (const table of HISTORY_TABLES) db.exec(table.ddl);
  if (record) insertRecord(db, record);
  db.close();
}

function insertRecord(db: Database.Database, r: HistoryRecord): void {
  SNAPSHOT_RECORD.writer(db.prepare(SNAPSHOT_RECORD.insertSql))({
    id: r.dataset_snapshot_id,
    data_asof: r.data_asof,
    published_at: r.published_at,
    seq: r.seq,
    head: r.head,
  });
}

/** After every thread has written: one self-contained file again, no WAL beside it (and its record, if not written yet). */
export function sealHistoryDb(path: string, record?: HistoryRecord): void {
  const db = new Database(path);
  if (record) insertRecord(db, record);
  db.pragma('journal_mode = DELETE');
  db.close();
}

/** Rows (in ticker order) as one compressed chunk. */
function pack(rows: readonly HistoryRow[]): Buffer {
  const parts: Buffer[] = [];
  for (const [ticker, data, key] of rows) parts.push(Buffer.from(`${ticker}\t${key ?? UNKNOWN_KEY}\t`), data, NL);
  return compress(Buffer.concat(parts));
}

/** One thread's connection to a store file being written. */
export class HistoryWriter {
  private readonly db: Database.Database;
  private readonly insert: Database.Transaction<(chunks: RowOf<typeof HISTORY_CHUNKS.columns>[]) => void>;
  /** The last ticker written: a thread claims its chunks in ticker order, so its rows only ever ascend. */
  private lastTicker = '';

  constructor(path: string) {
    // Other threads commit their chunks to the same file: wait for the lock rather than fail.
    this.db = new Database(path, { fileMustExist: true, timeout: 120_000 });
    // The build publishes after flushing the file system; a crash before discards the file, not a row.
    this.db.pragma('synchronous = OFF');
    const insert = HISTORY_CHUNKS.writer(this.db.prepare(HISTORY_CHUNKS.insertSql));
    this.insert = this.db.transaction((chunks) => {
      for (const c of chunks) insert(c);
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
      if (!(last < ticker)) throw new Error(`history store: rows out of ticker order (${last} before ${ticker})`);
      last = ticker;
    }
    const chunks: RowOf<typeof HISTORY_CHUNKS.columns>[] = [];
    for (let i = 0; i < rows.length; i += ROWS_PER_CHUNK) {
      const part = rows.slice(i, i + ROWS_PER_CHUNK);
      chunks.push({ first: part[0]![0], last: part.at(-1)![0], rows: part.length, data: pack(part) });
    }
    // IMMEDIATE: the write lock is taken (waiting its turn) before the first read, so a thread never
    // reads, then finds another thread's chunk committed first, which SQLite fails at once as BUSY.
    // Compressing comes before, so a thread holds the lock only for the inserts.
    this.insert.immediate(chunks);
    this.lastTicker = last;
  }

  close(): void {
    this.db.close();
  }
}

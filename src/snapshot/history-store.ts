import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { col, defineTable } from './define-table.js';
import { checkStoreFormat } from './format.js';
import { newestFirst, type DatedSnapshot } from './newest-first.js';
import { publishedSnapshotIds } from './published.js';
import { prunedSnapshotIds } from './retention.js';

/**
 * The history store (contract 10): every company's history entries, each written once, by the build
 * of the snapshot they belong to, and shared by every later snapshot. Keeping each snapshot's whole
 * history in each kept snapshot made the kept snapshots' history grow with the square of their
 * number; here it grows by one snapshot's entries per publish.
 *
 * `<SNAPSHOTS_DIR>/history/<id>.sqlite`, one file per published snapshot, never changed once its
 * snapshot is published and never removed by pruning (a pruned snapshot's entries stay in every
 * company's history). Each holds the snapshot's record (`snapshot`: id, data date, publish time, its
 * place in publish order, the history body's head) and one row per company it lists (`TICKER\tKEY\t
 * ENTRY` lines, compressed a hundred at a time in `history_chunks`; KEY is the facts key the next
 * build compares, explain.ts). The current snapshot's tree still holds every company's whole history
 * as a static file; once a snapshot is no longer current those files are dropped, and a pinned read
 * of one is rebuilt here from the same entry bytes (pinnedHistory), so it answers what the file did.
 *
 * A build writes its own file in its work folder (HISTORY_DB) and moves it here just before it
 * publishes. A file placed after the last published snapshot's is a build that died in between: no
 * reader counts it (storeRecords), and the next build removes it.
 */
export const HISTORY_STORE = 'history';
/** A build's own entries in its work folder, until publishing moves them into the store. */
export const HISTORY_DB = 'history.sqlite';

/**
 * The layout's version (SQLite's user_version, format.ts): the build writes it, and a reader refuses
 * a file of another. Raise it with any change to the tables below.
 */
export const HISTORY_FORMAT_VERSION = 1;

/** Rows in ticker order, a hundred at a time: `first` and `last` are the chunk's first and last tickers (build-scripts/history/history-db.ts packs them). */
export const HISTORY_CHUNKS = defineTable('history_chunks', {
  first: col.text('PRIMARY KEY'),
  last: col.text(),
  rows: col.integer(),
  data: col.blob(),
});

/** The file's snapshot (one row): its id, data date, publish time, place in publish order, and its history body's head (null for entries from before the store). */
export const SNAPSHOT_RECORD = defineTable('snapshot', {
  id: col.text(),
  data_asof: col.text(),
  published_at: col.text(),
  seq: col.integer(),
  head: col.nullable.blob(),
});

/** Every table of a store file, in the order they are created. */
export const HISTORY_TABLES = [HISTORY_CHUNKS, SNAPSHOT_RECORD] as const;

const RECORD = SNAPSHOT_RECORD.readerWithout([]);

export const storeFile = (root: string, id: string): string => join(root, HISTORY_STORE, `${id}.sqlite`);

/** A snapshot whose entries are in the store, as the build passes it to its threads. */
export interface StoreMember extends DatedSnapshot {
  /** Its place in publish order: a snapshot's history holds the entries of every member up to its own. */
  seq: number;
  path: string;
}

/** A member with its history body's head (historyHead), or null for entries carried from before the store, whose snapshots keep their history files. */
export interface StoreRecord extends StoreMember {
  head: Buffer | null;
}

/** One company's row: its ticker, its entry's JSON (UTF-8; in a file from before the store, its whole history's array), and its facts key (null when unknown). */
export type HistoryRow = [ticker: string, data: Buffer, key: string | null];

/** How a row's key is written in a chunk: null as '-', which no facts key (a JSON array) or '' can be. */
export const UNKNOWN_KEY = '-';
const TAB = 9;
const NEWLINE = 10;
/** Sorts right after `ticker` and before any longer code: a one-ticker range's end. */
const justAfter = (ticker: string) => `${ticker}\u0000`;

/** The rows of a chunk with from ≤ ticker < to; each row's data is a slice of the decompressed chunk, not a copy. */
export function unpackBetween(blob: Buffer, from: string, to: string, out: HistoryRow[]): void {
  const bytes = brotliDecompressSync(blob);
  for (let at = 0; at < bytes.length;) {
    const tab1 = bytes.indexOf(TAB, at);
    const tab2 = bytes.indexOf(TAB, tab1 + 1);
    const end = bytes.indexOf(NEWLINE, tab2 + 1);
    if (tab1 < 0 || tab2 < 0 || end < 0) throw new Error(`history chunk: malformed line at byte ${at}`);
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

/** One file of the history store, read-only. */
export class HistoryChunks {
  private readonly db: Database.Database;
  private readonly range: Database.Statement;
  private readonly holding: Database.Statement;

  constructor(readonly path: string) {
    this.db = new Database(path, { readonly: true, fileMustExist: true });
    try {
      checkStoreFormat(this.db, path, HISTORY_FORMAT_VERSION);
    } catch (e) {
      this.db.close();
      throw e;
    }
    // Chunks overlapping the range: another build cut its chunks at other tickers.
    this.range = this.db.prepare(`SELECT data FROM ${HISTORY_CHUNKS.name} WHERE last >= ? AND first < ? ORDER BY first`).pluck();
    // A file's chunks never overlap: the one a ticker may be in is the last to start at or before it.
    this.holding = this.db.prepare(`SELECT data FROM ${HISTORY_CHUNKS.name} WHERE first <= ? AND last >= ? ORDER BY first DESC LIMIT 1`).pluck();
  }

  /** The store record. */
  record(): StoreRecord {
    const raw = this.db.prepare(`SELECT ${RECORD.columns} FROM ${SNAPSHOT_RECORD.name}`).raw().get() as unknown[] | undefined;
    if (!raw) throw new Error(`${this.path}: no snapshot record`);
    const r = RECORD.decode(raw);
    return { dataset_snapshot_id: r.id, data_asof: r.data_asof, published_at: r.published_at, seq: r.seq, head: r.head, path: this.path };
  }

  /** Rows with from ≤ ticker < to, in ticker order. */
  between(from: string, to: string): HistoryRow[] {
    const out: HistoryRow[] = [];
    for (const blob of this.range.all(from, to) as Buffer[]) unpackBetween(blob, from, to, out);
    return out;
  }

  /** One company's row, or null when this file has none. */
  rowOf(ticker: string): HistoryRow | null {
    const blob = this.holding.get(ticker, ticker) as Buffer | undefined;
    if (!blob) return null;
    const out: HistoryRow[] = [];
    unpackBetween(blob, ticker, justAfter(ticker), out);
    return out[0] ?? null;
  }

  close(): void {
    this.db.close();
  }
}

/** One store file's snapshot, as a build's threads take it (the bench and tests point at files outside a store). */
export function memberAt(path: string): StoreMember {
  const file = new HistoryChunks(path);
  try {
    const { head: _head, ...member } = file.record();
    return member;
  } finally {
    file.close();
  }
}

/**
 * Which version of a file a cached record or handle was read from. A published snapshot's file
 * never changes, but one can be replaced by hand (or by a test) without the process knowing.
 */
function versionOf(path: string): string {
  const s = statSync(path);
  return `${s.ino}:${s.mtimeMs}:${s.size}`;
}

/** Records of published snapshots' files, by path, with the version they were read from. */
const records = new Map<string, { version: string; record: StoreRecord }>();

/**
 * A file's record. A published snapshot's is cached; any other is read afresh, and one that cannot
 * be read is null: a build killed (or a power cut) before publishing may have left it torn, and the
 * next build may be removing it right now.
 */
function recordOf(path: string, final: boolean): StoreRecord | null {
  let file: HistoryChunks | null = null;
  try {
    const version = versionOf(path);
    const known = records.get(path);
    if (known?.version === version) return known.record;
    file = new HistoryChunks(path);
    const r = file.record();
    if (r && final) records.set(path, { version, record: r });
    return r;
  } catch (e) {
    if (final) throw e;
    return null;
  } finally {
    file?.close();
  }
}

/** Every readable record in the store, those of builds that died before publishing included; and the ids published (kept or pruned). */
export function allStoreRecords(root: string): { records: StoreRecord[]; published: Set<string> } {
  const dir = join(root, HISTORY_STORE);
  const published = new Set([...publishedSnapshotIds(root), ...prunedSnapshotIds(root)]);
  if (!existsSync(dir)) return { records: [], published };
  const out: StoreRecord[] = [];
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.sqlite') || name.startsWith('.')) continue;
    const id = name.slice(0, -'.sqlite'.length);
    const r = recordOf(join(dir, name), published.has(id));
    if (r) out.push(r);
  }
  return { records: out.sort((a, b) => a.seq - b.seq), published };
}

/**
 * The store's snapshots whose entries count, in publish order: every one up to the last published
 * (kept or pruned since). A build that died between storing its file and publishing left one past
 * that, which no history counts (the next build removes it before taking the next place).
 */
export function storeRecords(root: string): StoreRecord[] {
  const { records: all, published } = allStoreRecords(root);
  const last = all.reduce((max, r) => (published.has(r.dataset_snapshot_id) ? Math.max(max, r.seq) : max), 0);
  return all.filter((r) => r.seq <= last);
}

/** Store files kept open for pinned reads (one per published snapshot: a few dozen). */
const openFiles = new Map<string, { version: string; chunks: HistoryChunks }>();

function chunksOf(path: string): HistoryChunks {
  const version = versionOf(path);
  const known = openFiles.get(path);
  if (known?.version === version) return known.chunks;
  known?.chunks.close();
  const chunks = new HistoryChunks(path);
  openFiles.set(path, { version, chunks });
  return chunks;
}

/**
 * A company's history body as snapshot `id` (published, kept or current) served it when current:
 * its head, and the entries of the snapshots published up to it, newest first. Null when the store
 * cannot rebuild it (the snapshot predates the store, or did not list the company).
 */
export function pinnedHistory(root: string, id: string, ticker: string): { head: Buffer; entries: Buffer[] } | null {
  // The snapshot's own file first: an unlisted ticker (a 404) costs one lookup, not a look at the whole store.
  const own = storeFile(root, id);
  if (!existsSync(own) || !chunksOf(own).rowOf(ticker)) return null;
  const members = storeRecords(root);
  const self = members.find((m) => m.dataset_snapshot_id === id);
  if (!self?.head) return null;
  const entries: Buffer[] = [];
  for (const m of members.filter((x) => x.seq <= self.seq).sort(newestFirst)) {
    const row = chunksOf(m.path).rowOf(ticker);
    if (row) entries.push(row[1]);
  }
  return { head: self.head, entries };
}

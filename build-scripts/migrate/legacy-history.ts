import { createReadStream, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { createInterface } from 'node:readline';
import Database from 'better-sqlite3';
import type { HistoryEntry } from '../../src/contract/history.js';
import { HISTORY_DB, HISTORY_STORE, storeFile, unpackBetween, type HistoryRow } from '../../src/snapshot/history-store.js';
import { readMeta } from '../../src/snapshot/format.js';
import { compareSnapshotIds } from '../../src/snapshot/published.js';
import { createHistoryDb, HistoryWriter, sealHistoryDb } from '../history/history-db.js';
import { fsyncPath } from '../snapshot/fsync.js';

/**
 * Builds before the history store kept every company's whole history in each snapshot's folder:
 * `history.sqlite` (rows of `TICKER\tKEY\t[entries, newest first]` in compressed chunks, or earlier
 * one uncompressed row per ticker without keys) or, before that, `history.jsonl`. Migrating carries
 * the current snapshot's into the store, once, so no entry is lost (the next build reads the store).
 */
const LEGACY_JSONL = 'history.jsonl';
const BATCH = 1000;

/** A snapshot folder's whole histories, a batch of rows at a time in ticker order; nothing when it has none. */
async function* legacyRows(dir: string): AsyncGenerator<HistoryRow[]> {
  const dbPath = join(dir, HISTORY_DB);
  if (existsSync(dbPath)) {
    const db = new Database(dbPath, { readonly: true, fileMustExist: true });
    try {
      const has = (table: string) => db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) !== undefined;
      if (has('history_chunks')) {
        for (const blob of db.prepare('SELECT data FROM history_chunks ORDER BY first').pluck().iterate() as Iterable<Buffer>) {
          const rows: HistoryRow[] = [];
          unpackBetween(blob, '', '~', rows);
          yield rows;
        }
      } else {
        let rows: HistoryRow[] = [];
        for (const [t, data] of db.prepare('SELECT ticker, data FROM history ORDER BY ticker').raw().iterate() as Iterable<[string, string]>) {
          rows.push([t, Buffer.from(data), null]);
          if (rows.length === BATCH) yield rows.splice(0);
        }
        yield rows;
      }
    } finally {
      db.close();
    }
    return;
  }
  const jsonl = join(dir, LEGACY_JSONL);
  if (!existsSync(jsonl)) return;
  let rows: HistoryRow[] = [];
  for await (const line of createInterface({ input: createReadStream(jsonl, 'utf8'), crlfDelay: Infinity })) {
    if (!line) continue;
    rows.push(splitLine(line));
    if (rows.length === BATCH) yield rows.splice(0);
  }
  yield rows;
}

const LINE_HEAD = '{"ticker":"';
/** `{"ticker":"T","data":[…]}` → T and the data array's JSON (tickers are [0-9A-Z], so no escapes). */
function splitLine(line: string): HistoryRow {
  const end = line.indexOf('"', LINE_HEAD.length);
  if (!line.startsWith(LINE_HEAD) || !line.startsWith('","data":', end) || !line.endsWith(']}'))
    throw new Error(`${LEGACY_JSONL}: malformed line ${line.slice(0, 60)}`);
  return [line.slice(LINE_HEAD.length, end), Buffer.from(line.slice(end + 9, -1)), null];
}

/** When a snapshot was published: its database says, if it is still kept; a pruned one's id is its publish date. */
function publishedAt(root: string, id: string): string {
  const dir = join(root, id);
  // Read whatever its format: this runs before the snapshots are upgraded.
  if (existsSync(join(dir, 'snapshot.sqlite'))) return readMeta(dir).published_at!;
  return `${id.slice(0, 10)}T00:00:00Z`;
}

/**
 * Carries the current snapshot's whole histories (an older build's) into the store: one file per
 * snapshot they name, its entries split out of each company's array and serialised as they were
 * (JSON.stringify of what JSON.stringify wrote gives the same bytes). The current snapshot's keys
 * go with its own entries. These files have no head: their snapshots keep their history files,
 * which the store never has to rebuild. Each file is complete and flushed before it is renamed in,
 * the current snapshot's last, so a build killed midway does it again. Nothing to do when the
 * store already has the current snapshot or it has no history.
 */
export async function importLegacyHistory(root: string, currentDir: string): Promise<void> {
  const currentId = basename(currentDir);
  if (existsSync(storeFile(root, currentId))) return;
  mkdirSync(join(root, HISTORY_STORE), { recursive: true });
  // Beside the store's files (same file system, so renames), under a name no reader takes for one.
  const scratch = mkdtempSync(join(root, HISTORY_STORE, '.import-'));
  const files = new Map<string, { writer: HistoryWriter; path: string; asof: string }>();
  try {
    for await (const batch of legacyRows(currentDir)) {
      const byId = new Map<string, HistoryRow[]>();
      for (const [ticker, data, key] of batch) {
        for (const e of JSON.parse(data.toString('utf8')) as HistoryEntry[]) {
          const id = e.dataset_snapshot_id;
          let file = files.get(id);
          if (!file) {
            const path = join(scratch, `${id}.sqlite`);
            createHistoryDb(path, null);
            files.set(id, (file = { writer: new HistoryWriter(path), path, asof: e.data_asof }));
          }
          const rows = byId.get(id) ?? byId.set(id, []).get(id)!;
          rows.push([ticker, Buffer.from(JSON.stringify(e)), id === currentId ? key : null]);
        }
      }
      for (const [id, rows] of byId) files.get(id)!.writer.write(rows);
    }
    for (const f of files.values()) f.writer.close();
    // Publish order: ids are given out in it; the current snapshot was published last.
    const ids = [...files.keys()].sort((a, b) => (a === currentId ? 1 : b === currentId ? -1 : compareSnapshotIds(a, b)));
    ids.forEach((id, i) => {
      const f = files.get(id)!;
      sealHistoryDb(f.path, { dataset_snapshot_id: id, data_asof: f.asof, published_at: publishedAt(root, id), seq: i + 1, head: null });
      fsyncPath(f.path);
    });
    for (const id of ids) renameSync(files.get(id)!.path, storeFile(root, id));
    fsyncPath(join(root, HISTORY_STORE));
  } finally {
    for (const f of files.values()) f.writer.close(); // again, harmlessly, after a failure midway
    rmSync(scratch, { recursive: true, force: true });
  }
}

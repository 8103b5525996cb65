import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAndPublish } from '../../build-scripts/build.js';
import { generateDemo } from '../../build-scripts/demo/generate.js';
import { createHistoryDb, HistoryWriter, sealHistoryDb, type HistoryRecord } from '../../build-scripts/history/history-db.js';
import { migrateSnapshots } from '../../build-scripts/migrate/migrate.js';
import { silentProgress } from '../../build-scripts/snapshot/progress.js';
import { historyResponseSchema } from '../../src/contract/history.js';
import { HISTORY_DB, HISTORY_STORE, HistoryChunks, storeFile, storeRecords, type HistoryRow } from '../../src/snapshot/history-store.js';
import { PRUNED_FILE } from '../../src/snapshot/retention.js';
import { getJson, startServer } from '../helpers/server.js';

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'esg-history-db-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const record: HistoryRecord = {
  dataset_snapshot_id: '2026-11-01',
  data_asof: '2026-10-31',
  published_at: '2026-11-01T00:00:00Z',
  seq: 1,
  head: Buffer.from('{"ok":true,'),
};

/** Every row of a store file, in ticker order, read the way the next build reads it. */
const rowsOf = (path: string): HistoryRow[] => {
  const file = new HistoryChunks(path);
  try {
    return file.between('', '~');
  } finally {
    file.close();
  }
};

describe('a history store file', () => {
  const rows = (n: number, at = 0): HistoryRow[] =>
    Array.from({ length: n }, (_, i) => [
      `D${1000 + at + i}`,
      Buffer.from(`{"dataset_snapshot_id":"S","credibility_score":${(at + i) % 100},"verdict":"crédible"}`),
      i % 7 === 0 ? null : `[${at + i},"crédible"]`,
    ]);

  it('stores each thread’s rows a hundred to a compressed chunk, and reads any ticker range, or one ticker, back', () => {
    const path = join(root, 'chunks.sqlite');
    createHistoryDb(path, record);
    const a = new HistoryWriter(path);
    const b = new HistoryWriter(path);
    const all = rows(3000);
    // Two writers, as two tree threads, each claiming chunks in order.
    a.write(all.slice(0, 1000));
    b.write(all.slice(1000, 1550));
    a.write(all.slice(1550, 3000));
    a.write([]);
    a.close();
    b.close();
    sealHistoryDb(path);
    expect(existsSync(`${path}-wal`)).toBe(false);
    const db = new Database(path, { readonly: true });
    const stored = db.prepare('SELECT first, last, rows, length(data) AS bytes FROM history_chunks ORDER BY first').all() as {
      first: string;
      last: string;
      rows: number;
      bytes: number;
    }[];
    db.close();
    expect(stored.length).toBe(10 + 6 + 15);
    expect(stored.slice(9, 12).map((c) => [c.first, c.last, c.rows])).toEqual([
      ['D1900', 'D1999', 100],
      ['D2000', 'D2099', 100],
      ['D2100', 'D2199', 100],
    ]);
    expect(stored[15]).toMatchObject({ first: 'D2500', last: 'D2549', rows: 50 });
    const text = all.reduce((n, [t, d, k]) => n + t.length + d.length + (k ?? '-').length + 3, 0);
    expect(stored.reduce((sum, c) => sum + c.bytes, 0)).toBeLessThan(text / 4);
    expect(rowsOf(path)).toEqual(all);
    const file = new HistoryChunks(path);
    expect(file.record()).toEqual({ ...record, path });
    // Ranges that cut chunks anywhere (the next build's chunks are cut at other tickers).
    expect(file.between('D1990', 'D2010')).toEqual(all.slice(990, 1010));
    expect(file.between('D2549', 'D2550')).toEqual(all.slice(1549, 1550));
    expect(file.between('D1000', 'D1000')).toEqual([]);
    expect(file.between('', 'D1003')).toEqual(all.slice(0, 3));
    expect(file.between('D3998', '~')).toEqual(all.slice(2998));
    for (const i of [0, 99, 100, 1549, 1550, 2999]) expect(file.rowOf(all[i]![0])).toEqual(all[i]);
    expect(file.rowOf('D0999')).toBeNull();
    expect(file.rowOf('D10000')).toBeNull();
    file.close();
  });

  it('refuses rows out of ticker order, within a chunk or after an earlier chunk of the same writer', () => {
    const path = join(root, 'order.sqlite');
    createHistoryDb(path, record);
    const w = new HistoryWriter(path);
    const row = (t: string): HistoryRow => [t, Buffer.from('{}'), ''];
    expect(() => w.write([row('D1002'), row('D1001')])).toThrow(/out of ticker order \(D1002 before D1001\)/);
    expect(() => w.write([row('D1002'), row('D1002')])).toThrow(/out of ticker order/);
    w.write([row('D1005')]);
    expect(() => w.write([row('D1004')])).toThrow(/out of ticker order \(D1005 before D1004\)/);
    w.close();
    expect(rowsOf(path)).toEqual([row('D1005')]);
  });
});

describe('the store counts only published snapshots', () => {
  it('a file placed after the last published one (a build killed before publishing) is left out, and the next build removes it', async () => {
    const sourcesDir = join(root, 'sources-orphan');
    const snapshotsDir = join(root, 'snapshots-orphan');
    await generateDemo({ outDir: sourcesDir, companies: 30 });
    const first = await buildAndPublish({
      sourcesDir,
      snapshotsDir,
      kind: 'demo',
      now: new Date('2026-11-01T00:00:00Z'),
      progress: silentProgress,
      pages: false,
    });
    // As a build killed between storing its entries and renaming its folder leaves it: seq 2, id never published.
    const orphan = storeFile(snapshotsDir, '2026-11-15');
    createHistoryDb(orphan, { ...record, dataset_snapshot_id: '2026-11-15', seq: 2 });
    sealHistoryDb(orphan);
    // And a torn one.
    writeFileSync(storeFile(snapshotsDir, '2026-11-16'), 'not a database');
    expect(storeRecords(snapshotsDir).map((r) => r.dataset_snapshot_id)).toEqual([first.id]);
    const second = await buildAndPublish({
      sourcesDir,
      snapshotsDir,
      kind: 'demo',
      now: new Date('2026-11-15T00:00:00Z'),
      progress: silentProgress,
      pages: false,
    });
    // The orphan's id was free, so the next build took it, and its place.
    expect(second.id).toBe('2026-11-15');
    expect(storeRecords(snapshotsDir).map((r) => [r.dataset_snapshot_id, r.seq])).toEqual([
      [first.id, 1],
      [second.id, 2],
    ]);
    expect(readdirSync(join(snapshotsDir, HISTORY_STORE)).sort()).toEqual([`${first.id}.sqlite`, `${second.id}.sqlite`]);
    const body = historyResponseSchema.parse(JSON.parse(readFileSync(join(second.dir, 'tree/api/v1/company/D1101/history.json'), 'utf8')));
    expect(body.data.map((e) => e.dataset_snapshot_id)).toEqual([second.id, first.id]);
  });
});

/**
 * The three forms builds before the store kept whole histories in, written from a store-era
 * snapshot's own entries: compressed chunks with keys, one uncompressed row per ticker, history.jsonl.
 * Each company's array holds its entry, then one of an older, pruned snapshot.
 */
const OLD_ID = '2026-10-01';
function writeLegacy(dir: string, form: 'chunks' | 'per-ticker' | 'jsonl', own: HistoryRow[]): void {
  const whole = own.map(([t, entry, key]): HistoryRow => {
    const old = { ...JSON.parse(entry.toString()), dataset_snapshot_id: OLD_ID, data_asof: '2026-09-30', credibility_score: 1 };
    return [t, Buffer.from(`[${entry},${JSON.stringify(old)}]`), key];
  });
  if (form === 'chunks') {
    // The same line format, whole arrays in place of single entries, and no record.
    const path = join(dir, HISTORY_DB);
    createHistoryDb(path, null);
    const db = new Database(path);
    db.exec('DROP TABLE snapshot');
    db.close();
    const w = new HistoryWriter(path);
    w.write(whole);
    w.close();
    sealHistoryDb(path);
  } else if (form === 'per-ticker') {
    const db = new Database(join(dir, HISTORY_DB));
    db.exec('CREATE TABLE history (ticker TEXT PRIMARY KEY, data TEXT NOT NULL)');
    const insert = db.prepare('INSERT INTO history VALUES (?, ?)');
    for (const [t, d] of whole) insert.run(t, d.toString());
    db.close();
  } else {
    writeFileSync(join(dir, 'history.jsonl'), whole.map(([t, d]) => `{"ticker":"${t}","data":${d}}\n`).join(''));
  }
}

/** Marks a snapshot as the builds before format versions wrote it (they wrote no format_version). */
function asFormat0(dir: string): void {
  const db = new Database(join(dir, 'snapshot.sqlite'));
  db.exec("DELETE FROM meta WHERE key = 'format_version'");
  db.close();
}

describe('a current snapshot from before the store, migrated', () => {
  it.each(['chunks', 'per-ticker', 'jsonl'] as const)(
    '(%s) has its whole histories carried into the store, one file per snapshot they name, and nothing is lost',
    async (form) => {
      const sourcesDir = join(root, `sources-${form}`);
      const snapshotsDir = join(root, `snapshots-${form}`);
      await generateDemo({ outDir: sourcesDir, companies: 40 });
      const first = await buildAndPublish({
        sourcesDir,
        snapshotsDir,
        kind: 'demo',
        now: new Date('2026-11-01T00:00:00Z'),
        progress: silentProgress,
        pages: false,
      });
      // Back to the older layout: no store; the snapshot's folder holds every company's whole history.
      const own = rowsOf(storeFile(snapshotsDir, first.id));
      rmSync(join(snapshotsDir, HISTORY_STORE), { recursive: true });
      writeLegacy(first.dir, form, own);
      writeFileSync(join(snapshotsDir, PRUNED_FILE), JSON.stringify([OLD_ID]));
      const served = readFileSync(join(first.dir, 'tree/api/v1/company/D1101/history.json'));
      // Such a snapshot is of format 0: the next build refuses it until `npm run migrate` carried its histories.
      asFormat0(first.dir);
      await expect(
        buildAndPublish({ sourcesDir, snapshotsDir, kind: 'demo', now: new Date('2026-12-01T00:00:00Z'), progress: silentProgress, pages: false }),
      ).rejects.toThrow(/npm run migrate/);
      expect(await migrateSnapshots(snapshotsDir)).toEqual({ upgraded: [first.id], current: [] });

      const second = await buildAndPublish({
        sourcesDir,
        snapshotsDir,
        kind: 'demo',
        now: new Date('2026-12-01T00:00:00Z'),
        progress: silentProgress,
        pages: false,
      });
      const third = await buildAndPublish({
        sourcesDir,
        snapshotsDir,
        kind: 'demo',
        now: new Date('2027-01-01T00:00:00Z'),
        progress: silentProgress,
        pages: false,
      });
      expect(readdirSync(join(snapshotsDir, HISTORY_STORE)).sort()).toEqual([OLD_ID, first.id, second.id, third.id].map((id) => `${id}.sqlite`));
      expect(storeRecords(snapshotsDir).map((r) => [r.dataset_snapshot_id, r.seq, r.head === null])).toEqual([
        [OLD_ID, 1, true],
        [first.id, 2, true],
        [second.id, 3, false],
        [third.id, 4, false],
      ]);
      // The carried entries are the bytes the arrays held; the old snapshot's split out of them.
      const carried = rowsOf(storeFile(snapshotsDir, first.id));
      expect(carried.map(([t, e]) => [t, e.toString()])).toEqual(own.map(([t, e]) => [t, e.toString()]));
      expect(carried.every(([, , key], i) => key === (form === 'chunks' ? own[i]![2] : null))).toBe(true);
      expect(rowsOf(storeFile(snapshotsDir, OLD_ID)).length).toBe(own.length);

      const server = await startServer(snapshotsDir);
      try {
        const body = historyResponseSchema.parse((await getJson(`${server.base}/api/v1/company/D1101/history`)).body);
        expect(body.data.map((e) => e.dataset_snapshot_id)).toEqual([third.id, second.id, first.id, OLD_ID]);
        // The snapshot from before the store keeps its history files (the store has no head to rebuild them); the next one's come from the store.
        expect((await getJson(`${server.base}/api/v1/snapshots/${first.id}/company/D1101/history`)).text).toBe(served.toString());
        expect(existsSync(join(first.dir, 'tree/api/v1/company/D1101/history.json'))).toBe(true);
        expect(existsSync(join(second.dir, 'tree/api/v1/company/D1101/history.json'))).toBe(false);
        const pinned = historyResponseSchema.parse((await getJson(`${server.base}/api/v1/snapshots/${second.id}/company/D1101/history`)).body);
        expect(pinned.data.map((e) => e.dataset_snapshot_id)).toEqual([second.id, first.id, OLD_ID]);
      } finally {
        await server.close();
      }
    },
    120_000,
  );

  it('a malformed line fails the migration rather than dropping history', async () => {
    const sourcesDir = join(root, 'sources-broken');
    const snapshotsDir = join(root, 'snapshots-broken');
    await generateDemo({ outDir: sourcesDir, companies: 20 });
    const first = await buildAndPublish({
      sourcesDir,
      snapshotsDir,
      kind: 'demo',
      now: new Date('2026-11-01T00:00:00Z'),
      progress: silentProgress,
      pages: false,
    });
    rmSync(join(snapshotsDir, HISTORY_STORE), { recursive: true });
    writeFileSync(join(first.dir, 'history.jsonl'), '{"ticker":"D1101","data":[]}\nnot json\n');
    asFormat0(first.dir);
    await expect(migrateSnapshots(snapshotsDir)).rejects.toThrow(/history\.jsonl: malformed line not json/);
    // Left of format 0, so no build reads it as migrated.
    await expect(
      buildAndPublish({ sourcesDir, snapshotsDir, kind: 'demo', now: new Date('2026-12-01T00:00:00Z'), progress: silentProgress, pages: false }),
    ).rejects.toThrow(/npm run migrate/);
    // Nothing half-carried is counted, and no scratch is left.
    expect(storeRecords(snapshotsDir)).toEqual([]);
    expect(readdirSync(join(snapshotsDir, HISTORY_STORE))).toEqual([]);
  });
});

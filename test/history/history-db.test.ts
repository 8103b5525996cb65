import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAndPublish } from '../../build-scripts/build.js';
import { generateDemo } from '../../build-scripts/demo/generate.js';
import { createHistoryDb, HISTORY_DB, HistoryWriter, PreviousHistory, previousHistoryDir, sealHistoryDb, type HistoryRow } from '../../build-scripts/history/history-db.js';
import { silentProgress } from '../../build-scripts/snapshot/progress.js';
import { historyResponseSchema } from '../../src/contract/history.js';
import { getJson, startServer } from '../helpers/server.js';

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'esg-history-db-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Every row of a history database, in ticker order, read the way the next build reads it. */
const rowsOf = (dir: string): HistoryRow[] => {
  const history = PreviousHistory.open(dir)!;
  try {
    return history.between('', '~');
  } finally {
    history.close();
  }
};

describe('the history database', () => {
  const rows = (n: number, at = 0): HistoryRow[] =>
    Array.from({ length: n }, (_, i) => [
      `D${1000 + at + i}`, Buffer.from(`[{"dataset_snapshot_id":"S","credibility_score":${(at + i) % 100},"verdict":"crédible"}]`), i % 7 === 0 ? '' : `[${at + i},"crédible"]`,
    ]);

  it('stores each written chunk as one compressed row, and reads any ticker range back across chunks', () => {
    const dir = join(root, 'chunks');
    mkdirSync(dir);
    createHistoryDb(dir);
    const a = new HistoryWriter(dir);
    const b = new HistoryWriter(dir);
    const all = rows(3000);
    // Two writers, as two tree threads, each claiming chunks in order.
    a.write(all.slice(0, 1000));
    b.write(all.slice(1000, 1500));
    a.write(all.slice(1500, 3000));
    a.write([]);
    a.close();
    b.close();
    sealHistoryDb(dir);
    expect(existsSync(join(dir, `${HISTORY_DB}-wal`))).toBe(false);
    const db = new Database(join(dir, HISTORY_DB), { readonly: true });
    const stored = db.prepare('SELECT first, last, rows, length(data) AS bytes FROM history_chunks ORDER BY first').all() as { first: string; last: string; rows: number; bytes: number }[];
    db.close();
    expect(stored.map((c) => [c.first, c.last, c.rows])).toEqual([['D1000', 'D1999', 1000], ['D2000', 'D2499', 500], ['D2500', 'D3999', 1500]]);
    const text = all.reduce((n, [t, d, k]) => n + t.length + d.length + k!.length + 3, 0);
    expect(stored.reduce((sum, c) => sum + c.bytes, 0)).toBeLessThan(text / 5);
    expect(rowsOf(dir)).toEqual(all);
    const history = PreviousHistory.open(dir)!;
    // Ranges that cut chunks anywhere (the next build's chunks are cut at other tickers).
    expect(history.between('D1990', 'D2010')).toEqual(all.slice(990, 1010));
    expect(history.between('D2499', 'D2500')).toEqual(all.slice(1499, 1500));
    expect(history.between('D1000', 'D1000')).toEqual([]);
    expect(history.between('', 'D1003')).toEqual(all.slice(0, 3));
    expect(history.between('D3998', '~')).toEqual(all.slice(2998));
    history.close();
  });

  it('refuses rows out of ticker order, within a chunk or after an earlier chunk of the same writer', () => {
    const dir = join(root, 'order');
    mkdirSync(dir);
    createHistoryDb(dir);
    const w = new HistoryWriter(dir);
    const row = (t: string): HistoryRow => [t, Buffer.from('[]'), ''];
    expect(() => w.write([row('D1002'), row('D1001')])).toThrow(/out of ticker order \(D1002 before D1001\)/);
    expect(() => w.write([row('D1002'), row('D1002')])).toThrow(/out of ticker order/);
    w.write([row('D1005')]);
    expect(() => w.write([row('D1004')])).toThrow(/out of ticker order \(D1005 before D1004\)/);
    w.close();
    expect(rowsOf(dir)).toEqual([row('D1005')]);
  });

  it('reads a database older builds wrote, one uncompressed row per ticker, as rows without keys', () => {
    const dir = join(root, 'per-ticker');
    mkdirSync(dir);
    const db = new Database(join(dir, HISTORY_DB));
    db.exec('CREATE TABLE history (ticker TEXT PRIMARY KEY, data TEXT NOT NULL)');
    const insert = db.prepare('INSERT INTO history VALUES (?, ?)');
    for (const [t, d] of rows(30)) insert.run(t, d.toString());
    db.close();
    const history = PreviousHistory.open(dir)!;
    expect(history.between('D1010', 'D1013')).toEqual(rows(30).slice(10, 13).map(([t, d]) => [t, d, null]));
    history.close();
  });
});

describe('a previous snapshot published with the older history.jsonl', () => {
  it('is read into a scratch database, line for line', async () => {
    const previous = join(root, 'legacy');
    const scratch = join(root, 'scratch');
    const lines = Array.from({ length: 2500 }, (_, i) => [`D${1000 + i}`, Buffer.from(`[{"n":${i}}]`), null] as HistoryRow);
    mkdirSync(previous);
    writeFileSync(join(previous, 'history.jsonl'), lines.map(([t, d]) => `{"ticker":"${t}","data":${d}}\n`).join(''));
    expect(await previousHistoryDir(previous, scratch)).toBe(scratch);
    expect(rowsOf(scratch)).toEqual(lines);
    const history = PreviousHistory.open(scratch)!;
    expect(history.between('D1500', 'D1502')).toEqual(lines.slice(500, 502));
    history.close();
    expect(readdirSync(scratch)).toEqual([HISTORY_DB]);
  });

  it('a malformed line fails the build rather than dropping history', async () => {
    const previous = join(root, 'broken');
    mkdirSync(previous);
    writeFileSync(join(previous, 'history.jsonl'), '{"ticker":"D1101","data":[]}\nnot json\n');
    await expect(previousHistoryDir(previous, join(root, 'scratch-broken'))).rejects.toThrow(/history\.jsonl: malformed line not json/);
  });

  it('a snapshot with a history database, or none at all, is read where it is', async () => {
    expect(await previousHistoryDir(null, join(root, 'unused'))).toBeNull();
    expect(await previousHistoryDir(root, join(root, 'unused'))).toBe(root);
    expect(existsSync(join(root, 'unused'))).toBe(false);
    expect(PreviousHistory.open(root)).toBeNull();
  });

  it('a build after such a snapshot carries its entries forward, and publishes no scratch folder', async () => {
    const sourcesDir = join(root, 'sources');
    const snapshotsDir = join(root, 'snapshots');
    await generateDemo({ outDir: sourcesDir, companies: 40 });
    const first = await buildAndPublish({ sourcesDir, snapshotsDir, kind: 'demo', now: new Date('2026-11-01T00:00:00Z'), progress: silentProgress });
    // Turn the first snapshot's history back into the text form older builds wrote.
    const firstRows = rowsOf(first.dir);
    writeFileSync(join(first.dir, 'history.jsonl'), firstRows.map(([t, d]) => `{"ticker":"${t}","data":${d}}\n`).join(''));
    rmSync(join(first.dir, HISTORY_DB));
    const second = await buildAndPublish({ sourcesDir, snapshotsDir, kind: 'demo', now: new Date('2026-12-01T00:00:00Z'), progress: silentProgress });
    expect(existsSync(join(second.dir, 'previous-history'))).toBe(false);
    const server = await startServer(snapshotsDir);
    try {
      const body = historyResponseSchema.parse((await getJson(`${server.base}/api/v1/company/D1101/history`)).body);
      expect(body.data.map((e) => e.dataset_snapshot_id)).toEqual([second.id, first.id]);
    } finally {
      await server.close();
    }
  });
});

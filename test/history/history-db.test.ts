import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAndPublish } from '../../build-scripts/build.js';
import { generateDemo } from '../../build-scripts/demo/generate.js';
import { HISTORY_DB, PreviousHistory, previousHistoryDir } from '../../build-scripts/history/history-db.js';
import { silentProgress } from '../../build-scripts/snapshot/progress.js';
import { historyResponseSchema } from '../../src/contract/history.js';
import { getJson, startServer } from '../helpers/server.js';

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'esg-history-db-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const rowsOf = (dir: string) => {
  const db = new Database(join(dir, HISTORY_DB), { readonly: true });
  try {
    return db.prepare('SELECT ticker, data FROM history ORDER BY ticker').raw().all() as [string, string][];
  } finally {
    db.close();
  }
};

describe('a previous snapshot published with the older history.jsonl', () => {
  it('is read into a scratch database, line for line', async () => {
    const previous = join(root, 'legacy');
    const scratch = join(root, 'scratch');
    const lines = Array.from({ length: 2500 }, (_, i) => [`D${1000 + i}`, `[{"n":${i}}]`] as [string, string]);
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
    const rows = rowsOf(first.dir);
    writeFileSync(join(first.dir, 'history.jsonl'), rows.map(([t, d]) => `{"ticker":"${t}","data":${d}}\n`).join(''));
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

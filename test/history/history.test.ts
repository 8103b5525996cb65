import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAndPublish } from '../../build-scripts/build.js';
import { generateDemo } from '../../build-scripts/demo/generate.js';
import { factsKey } from '../../build-scripts/history/explain.js';
import { silentProgress } from '../../build-scripts/snapshot/progress.js';
import { historyResponseSchema } from '../../src/contract/history.js';
import { HISTORY_DB, HISTORY_STORE, HistoryChunks, storeFile } from '../../src/snapshot/history-store.js';
import { SnapshotStore } from '../../src/snapshot/store.js';
import { getJson, startServer, untilServing, type RunningServer } from '../helpers/server.js';

const API = '/api/v1';

describe('company history carried forward build by build', () => {
  let root: string;
  let sourcesDir: string;
  let snapshotsDir: string;
  let server: RunningServer;
  const ids: string[] = [];
  /** What /company/{t} served in each snapshot, by snapshot id then ticker. */
  const summaries = new Map<string, Map<string, any>>();
  const tickers = ['D1101', 'D1104', 'D1139'];
  const listed = new Map<string, string[]>();

  async function publishAndRecord(now: string, companies: number) {
    await generateDemo({ outDir: sourcesDir, companies });
    const r = await buildAndPublish({ sourcesDir, snapshotsDir, kind: 'demo', now: new Date(now), progress: silentProgress, pages: false });
    ids.push(r.id);
    if (!server) server = await startServer(snapshotsDir);
    await untilServing(server, r.id); // the shim looks at `current` at most once a second
    const served = new Map<string, any>();
    const store = SnapshotStore.open(r.dir);
    listed.set(r.id, store.tickers());
    store.close();
    for (const t of tickers) {
      const res = await getJson(`${server.base}${API}/company/${t}`);
      if (res.status === 200) served.set(t, res.body.company);
    }
    summaries.set(r.id, served);
  }

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'esg-history-'));
    sourcesDir = join(root, 'sources');
    snapshotsDir = join(root, 'snapshots');
    // The second universe is smaller: its last companies leave, then come back in the third.
    await publishAndRecord('2026-11-01T00:00:00Z', 80);
    await publishAndRecord('2026-12-01T00:00:00Z', 60);
    await publishAndRecord('2027-01-01T00:00:00Z', 80);
  }, 180_000);
  afterAll(async () => {
    await server?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('a third build carries the first two forward: one entry per snapshot that held the company, newest first, equal to what each served', async () => {
    for (const t of tickers) {
      const res = await getJson(`${server.base}${API}/company/${t}/history`);
      expect(res.status).toBe(200);
      const body = historyResponseSchema.parse(res.body);
      expect(body.ticker).toBe(t);
      expect(body.dataset_snapshot_id).toBe(ids[2]);
      expect(body.data.map((e) => e.dataset_snapshot_id)).toEqual([...ids].reverse());
      for (const entry of body.data) {
        const summary = summaries.get(entry.dataset_snapshot_id)!.get(t);
        expect(entry).toMatchObject({
          credibility_score: summary.credibility_score,
          verdict: summary.verdict,
          rank: summary.rank,
          percentile: summary.percentile,
          score_breakdown: summary.score_breakdown,
        });
        expect(entry.flags.slice(0, 3)).toEqual(summary.top_flags);
      }
    }
  });

  it('a company absent from one snapshot has no entry for it, and keeps its past when it returns', async () => {
    const [first, second, third] = ids.map((id) => listed.get(id)!) as [string[], string[], string[]];
    const absent = first.find((t) => !second.includes(t) && third.includes(t))!;
    expect(absent).toBeDefined();
    const body = (await getJson(`${server.base}${API}/company/${absent}/history`)).body;
    expect(body.data.map((e: { dataset_snapshot_id: string }) => e.dataset_snapshot_id)).toEqual([ids[2], ids[0]]);
  });

  it('the history store holds each snapshot’s own entries once, with their facts keys; only the current tree keeps history files', async () => {
    expect(readdirSync(join(snapshotsDir, HISTORY_STORE)).sort()).toEqual(ids.map((id) => `${id}.sqlite`).sort());
    for (const [i, id] of ids.entries()) {
      const dir = join(snapshotsDir, id);
      const file = new HistoryChunks(storeFile(snapshotsDir, id));
      const rows = file.between('', '~');
      const record = file.record()!;
      file.close();
      expect(record).toMatchObject({ dataset_snapshot_id: id, seq: i + 1 });
      // Exactly the companies this snapshot lists, each with its own entry alone and the key of the facts it was scored on.
      expect(rows.map((r) => r[0])).toEqual(listed.get(id));
      const store = SnapshotStore.open(dir);
      const keys = new Map(store.factsBetween('', '~').map((f) => [f.company.ticker, factsKey(f)]));
      store.close();
      for (const [ticker, entry, key] of rows) {
        expect(JSON.parse(entry.toString()).dataset_snapshot_id).toBe(id);
        expect(key).toBe(keys.get(ticker));
      }
      expect(existsSync(join(dir, HISTORY_DB))).toBe(false);
      expect(existsSync(join(dir, 'tree', `api/v1/company/${tickers[0]}/history.json`))).toBe(i === ids.length - 1);
    }
    expect(readdirSync(join(snapshotsDir, HISTORY_STORE)).filter((n) => n.endsWith('-wal'))).toEqual([]);
    // The second snapshot's pinned history, rebuilt from the store, holds what it served: its entry, then the first's.
    const t = listed.get(ids[1]!)![0]!;
    const pinned = await getJson(`${server.base}${API}/snapshots/${ids[1]}/company/${t}/history`);
    expect(pinned.body.data.map((e: { dataset_snapshot_id: string }) => e.dataset_snapshot_id)).toEqual([ids[1], ids[0]]);
  });

  it('pinned: the older snapshot’s history file is what it served', async () => {
    const res = await getJson(`${server.base}${API}/snapshots/${ids[0]}/company/D1101/history`);
    expect(res.body.data.map((e: { dataset_snapshot_id: string }) => e.dataset_snapshot_id)).toEqual([ids[0]]);
  });
});

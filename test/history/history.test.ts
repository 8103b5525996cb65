import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAndPublish } from '../../build-scripts/build.js';
import { generateDemo } from '../../build-scripts/demo/generate.js';
import { factsKey } from '../../build-scripts/history/explain.js';
import { HISTORY_DB, PreviousHistory } from '../../build-scripts/history/history-db.js';
import { silentProgress } from '../../build-scripts/snapshot/progress.js';
import { historyResponseSchema } from '../../src/contract/history.js';
import { SnapshotStore } from '../../src/snapshot/store.js';
import { getJson, startServer, type RunningServer } from '../helpers/server.js';

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
    const r = await buildAndPublish({ sourcesDir, snapshotsDir, kind: 'demo', now: new Date(now), progress: silentProgress });
    ids.push(r.id);
    if (!server) server = await startServer(snapshotsDir);
    await new Promise((res) => setTimeout(res, 1100));
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
          credibility_score: summary.credibility_score, verdict: summary.verdict, rank: summary.rank, percentile: summary.percentile,
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

  it('the history database holds every company ever listed, each row its served history and its facts key, sealed without a WAL', async () => {
    const dir = join(snapshotsDir, ids[1]!);
    const history = PreviousHistory.open(dir)!;
    const rows = history.between('', '~');
    history.close();
    expect(rows.map((r) => r[0])).toEqual([...new Set([...listed.get(ids[0]!)!, ...listed.get(ids[1]!)!])].sort());
    expect(existsSync(join(dir, `${HISTORY_DB}-wal`))).toBe(false);
    expect(existsSync(join(dir, 'previous-history'))).toBe(false);
    // A listed company's row is exactly the data its history file served when this snapshot was current.
    const t = listed.get(ids[1]!)![0]!;
    const pinned = await getJson(`${server.base}${API}/snapshots/${ids[1]}/company/${t}/history`);
    expect(JSON.parse(rows.find((r) => r[0] === t)![1].toString())).toEqual(pinned.body.data);
    // Keys: the facts key of each company this snapshot lists, '' for those it carries but does not list.
    const store = SnapshotStore.open(dir);
    const keys = new Map(store.factsBetween('', '~').map((f) => [f.company.ticker, factsKey(f)]));
    store.close();
    for (const [ticker, , key] of rows) expect(key).toBe(keys.get(ticker) ?? '');
    expect(rows.filter((r) => r[2] === '').length).toBe(20);
  });

  it('pinned: the older snapshot’s history file is what it served', async () => {
    const res = await getJson(`${server.base}${API}/snapshots/${ids[0]}/company/D1101/history`);
    expect(res.body.data.map((e: { dataset_snapshot_id: string }) => e.dataset_snapshot_id)).toEqual([ids[0]]);
  });
});

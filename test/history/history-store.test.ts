import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAndPublish, type BuildResult } from '../../build-scripts/build.js';
import { demoPublishTime } from '../../build-scripts/cli/defaults.js';
import { generateDemoSeries, type DemoMonth } from '../../build-scripts/demo/series.js';
import { historyStorage, type HistoryStorage } from '../../build-scripts/history/storage.js';
import { silentProgress } from '../../build-scripts/snapshot/progress.js';
import { HISTORY_STORE } from '../../src/snapshot/history-store.js';
import { publishedSnapshotIds } from '../../src/snapshot/published.js';
import { SnapshotStore } from '../../src/snapshot/store.js';
import { publishedSnapshotSource } from '../../server/kit/snapshot-source.js';
import { getJson, startServer, untilServing, type RunningServer } from '../helpers/server.js';

const API = '/api/v1';
const COMPANIES = 150;
const MONTHS = 9;

/**
 * Company histories written once into the history store, shared by later snapshots. Nine
 * months of the evolving demo are published one by one (companies come and go between them); while
 * each is current, every company's history is read over HTTP. Then a tenth publish with
 * SNAPSHOTS_KEEP=3 prunes the first seven, and every kept snapshot's pinned history must still be
 * those bytes and that ETag, though the two no longer current now rebuild them from the store.
 */
describe('the history store', () => {
  let root: string;
  let snapshotsDir: string;
  let server: RunningServer;
  let months: DemoMonth[];
  const results: BuildResult[] = [];
  /** What each snapshot served while current: ticker → [body, ETag]. */
  const served = new Map<string, Map<string, [string, string]>>();
  /** History storage after 3, 6 and 9 snapshots. */
  const storage = new Map<number, HistoryStorage>();

  function companiesIn(r: BuildResult): number {
    const store = SnapshotStore.open(r.dir);
    const n = store.companyCount();
    store.close();
    return n;
  }

  async function publish(m: DemoMonth, now: Date, keep = 24): Promise<BuildResult> {
    const r = await buildAndPublish({ sourcesDir: m.dir, snapshotsDir, kind: 'demo', now, progress: silentProgress, pages: false, keep });
    results.push(r);
    server ??= await startServer(snapshotsDir);
    await untilServing(server, r.id); // the shim looks at `current` at most once a second
    const store = SnapshotStore.open(r.dir);
    const tickers = store.tickers();
    store.close();
    const bodies = new Map<string, [string, string]>();
    for (const t of tickers) {
      const res = await getJson(`${server.base}${API}/company/${t}/history`);
      expect(res.status, t).toBe(200);
      expect(res.body.dataset_snapshot_id).toBe(r.id);
      bodies.set(t, [res.text, res.headers.get('etag')!]);
    }
    served.set(r.id, bodies);
    return r;
  }

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'esg-history-store-'));
    snapshotsDir = join(root, 'snapshots');
    months = await generateDemoSeries({ outDir: join(root, 'sources'), companies: COMPANIES, months: MONTHS });
    for (const [i, m] of months.entries()) {
      await publish(m, demoPublishTime(m.asof));
      if ((i + 1) % 3 === 0) storage.set(i + 1, historyStorage(snapshotsDir));
    }
  }, 600_000);
  afterAll(async () => {
    await server?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('grows linearly: each publish adds about the same bytes of history, however many came before', () => {
    const [s3, s6, s9] = [3, 6, 9].map((n) => storage.get(n)!) as [HistoryStorage, HistoryStorage, HistoryStorage];
    // Every snapshot's entries are in the store once; only the current tree holds history files.
    expect(readdirSync(join(snapshotsDir, HISTORY_STORE)).length).toBe(MONTHS);
    expect(s9.treeFiles).toBe(companiesIn(results[MONTHS - 1]!));
    expect(s9.legacyBytes).toBe(0);
    const first = s6.bytes - s3.bytes;
    const second = s9.bytes - s6.bytes;
    // Whole histories in every kept snapshot grew as the square: 3→6 added 15 snapshots' worth of
    // entries per company, 6→9 added 24 (1.6×). Now each publish adds its own entries to the store
    // and one more entry to each current file: the same each time.
    expect(second / first).toBeGreaterThan(0.85);
    expect(second / first).toBeLessThan(1.15);
    // And the first three cost what any three later do.
    expect(first / s3.bytes).toBeGreaterThan(0.8);
    expect(first / s3.bytes).toBeLessThan(1.25);
  });

  it('pinned reads answer each snapshot’s history bytes and ETag as it served them while current, across a prune', async () => {
    // A shim that still takes the ninth for current (it looks at `current` once a second; this one never again).
    const stale = await startServer(snapshotsDir, { snapshots: publishedSnapshotSource(snapshotsDir, { now: () => 0 }) });
    expect((await getJson(`${stale.base}${API}/`)).body.dataset_snapshot_id).toBe(results[8]!.id); // it opens the ninth now
    // The last month again (a republication), published keeping three: the first seven are pruned.
    const tenth = await publish(months.at(-1)!, new Date('2027-06-15T00:00:00Z'), 3);
    expect(tenth.pruned).toEqual(results.slice(0, 7).map((r) => r.id));
    const kept = publishedSnapshotIds(snapshotsDir);
    expect(kept).toEqual(results.slice(7).map((r) => r.id));
    for (const id of kept) {
      // The two no longer current have no history files left: the store answers them.
      const probe = [...served.get(id)!.keys()][0]!;
      expect(existsSync(join(snapshotsDir, id, 'tree', `api/v1/company/${probe}/history.json`)), id).toBe(id === tenth.id);
      for (const [t, [body, etag]] of served.get(id)!) {
        const res = await getJson(`${server.base}${API}/snapshots/${id}/company/${t}/history`);
        expect(res.status, `${id} ${t}`).toBe(200);
        expect(res.text, `${id} ${t}`).toBe(body);
        expect(res.headers.get('etag'), `${id} ${t}`).toBe(etag);
        expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
      }
    }
    // The stale shim answers the ninth's histories, whose files are gone, from the store: nothing changes for its clients.
    try {
      for (const [t, [body, etag]] of served.get(results[8]!.id)!) {
        const res = await getJson(`${stale.base}${API}/company/${t}/history`);
        expect([res.status, res.text, res.headers.get('etag')], t).toEqual([200, body, etag]);
      }
      expect((await getJson(`${stale.base}${API}/company/ZZ999/history`)).status).toBe(404);
      expect((await getJson(`${stale.base}${API}/`)).body.dataset_snapshot_id).toBe(results[8]!.id);
    } finally {
      await stale.close();
    }
    // The ETag holds for a conditional request too.
    const [t, [, etag]] = [...served.get(kept[0]!)!][0]!;
    expect((await fetch(`${server.base}${API}/snapshots/${kept[0]}/company/${t}/history`, { headers: { 'If-None-Match': etag } })).status).toBe(304);
    // Pruned: 410 on their ids, but their entries stay in every company's history, and in the store.
    const pruned = results[0]!.id;
    expect((await getJson(`${server.base}${API}/snapshots/${pruned}/company/${t}/history`)).status).toBe(410);
    const current = await getJson(`${server.base}${API}/company/D1101/history`);
    expect(current.body.data.map((e: { dataset_snapshot_id: string }) => e.dataset_snapshot_id)).toEqual(results.map((r) => r.id).reverse());
    expect(readdirSync(join(snapshotsDir, HISTORY_STORE)).length).toBe(MONTHS + 1);
    // A company a kept snapshot did not list is a 404 there, as its missing file was.
    const unlisted = [...served.get(kept.at(-1)!)!.keys()].find((x) => !served.get(kept[0]!)!.has(x));
    if (unlisted) expect((await getJson(`${server.base}${API}/snapshots/${kept[0]}/company/${unlisted}/history`)).status).toBe(404);
  }, 300_000);

  it('a drop of history files killed (SIGKILL) midway leaves every answer as it was; the next build finishes it', async () => {
    // The ninth snapshot as it was just before its files were dropped: all of them back in its tree.
    const id = results[8]!.id;
    const file = (t: string) => join(snapshotsDir, id, 'tree', `api/v1/company/${t}/history.json`);
    for (const [t, [body]] of served.get(id)!) writeFileSync(file(t), body);
    const script = `import { dropStaleHistoryFiles } from './build-scripts/history/store-steps.ts';
      let n = 0;
      dropStaleHistoryFiles(${JSON.stringify(snapshotsDir)}, () => { if (++n === 40) process.kill(process.pid, 'SIGKILL'); });`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(child.signal).toBe('SIGKILL');
    const left = [...served.get(id)!.keys()].filter((t) => existsSync(file(t)));
    expect(left.length).toBe(served.get(id)!.size - 40);
    for (const [t, [body, etag]] of served.get(id)!) {
      const res = await getJson(`${server.base}${API}/snapshots/${id}/company/${t}/history`);
      expect([res.text, res.headers.get('etag')], `${id} ${t}`).toEqual([body, etag]);
    }
    const next = await buildAndPublish({
      sourcesDir: months.at(-1)!.dir,
      snapshotsDir,
      kind: 'demo',
      now: new Date('2027-07-01T00:00:00Z'),
      progress: silentProgress,
      pages: false,
      keep: 3,
    });
    expect([...served.get(id)!.keys()].filter((t) => existsSync(file(t)))).toEqual([]);
    expect(existsSync(join(next.dir, 'tree', 'api/v1/company/D1101/history.json'))).toBe(true);
  }, 120_000);
});

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAndPublish } from '../../build-scripts/build.js';
import { generateDemo } from '../../build-scripts/demo/generate.js';
import { silentProgress } from '../../build-scripts/snapshot/progress.js';
import { publishedSnapshotIds } from '../../src/snapshot/published.js';
import { prunedSnapshotIds, snapshotsKeepFromEnv } from '../../src/snapshot/retention.js';
import { SnapshotStore } from '../../src/snapshot/store.js';
import { startStaticHost } from '../helpers/static-host.js';
import { getJson, startServer, untilServing, type RunningServer } from '../helpers/server.js';

const API = '/api/v1';
/** Static paths whose bytes a pinned read must reproduce (tickers filled in below). */
const staticPaths = (t: string) => [
  '/',
  '/index',
  `/company/${t}`,
  `/company/${t}/canonical`,
  `/company/${t}.json`,
  '/ranking',
  '/ranking/page/1',
  '/etf',
  '/sources/registry',
  '/methodology',
  '/snapshots',
  '/openapi.json',
];

describe('retention (SNAPSHOTS_KEEP) and pinned reads', () => {
  let root: string;
  let sourcesDir: string;
  let snapshotsDir: string;
  let server: RunningServer;
  const ids: string[] = [];
  /** Bytes each snapshot served for each static path while it was current. */
  const served = new Map<string, Map<string, string>>();
  let ticker: string;

  async function publish(now: string) {
    const r = await buildAndPublish({ sourcesDir, snapshotsDir, kind: 'demo', now: new Date(now), progress: silentProgress, pages: false });
    ids.push(r.id);
    await untilServing(server, r.id); // the shim looks at `current` at most once a second
    const bytes = new Map<string, string>();
    for (const p of staticPaths(ticker)) {
      const res = await getJson(`${server.base}${API}${p}`);
      expect(res.status, p).toBe(200);
      expect(res.body.dataset_snapshot_id, p === '/openapi.json' ? '' : p).toBe(p === '/openapi.json' ? undefined : r.id);
      bytes.set(p, res.text);
    }
    served.set(r.id, bytes);
    return r;
  }

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'esg-retention-'));
    sourcesDir = join(root, 'sources');
    snapshotsDir = join(root, 'snapshots');
    await generateDemo({ outDir: sourcesDir, companies: 120 });
    ticker = 'D1101';
    process.env.SNAPSHOTS_KEEP = '2';
    await buildAndPublish({
      sourcesDir,
      snapshotsDir,
      kind: 'demo',
      now: new Date('2026-11-01T00:00:00Z'),
      progress: silentProgress,
      pages: false,
    }).then((r) => ids.push(r.id));
    server = await startServer(snapshotsDir);
    // Record what the first snapshot served while current.
    const first = new Map<string, string>();
    for (const p of staticPaths(ticker)) first.set(p, (await getJson(`${server.base}${API}${p}`)).text);
    served.set(ids[0]!, first);
  }, 120_000);
  afterAll(async () => {
    delete process.env.SNAPSHOTS_KEEP;
    await server?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('SNAPSHOTS_KEEP defaults to 24 and refuses what is not a whole number ≥ 1', () => {
    expect(snapshotsKeepFromEnv({})).toBe(24);
    expect(snapshotsKeepFromEnv({ SNAPSHOTS_KEEP: '3' })).toBe(3);
    for (const bad of ['0', '-1', '1.5', 'x']) expect(() => snapshotsKeepFromEnv({ SNAPSHOTS_KEEP: bad })).toThrow(/SNAPSHOTS_KEEP/);
  });

  it('a pinned read equals, byte for byte, what the snapshot served when current (also once it is not)', async () => {
    await publish('2026-12-01T00:00:00Z');
    for (const id of ids) {
      for (const [p, text] of served.get(id)!) {
        const pinned = await getJson(`${server.base}${API}/snapshots/${id}${p === '/' ? '' : p}`);
        expect(pinned.status, `${id} ${p}`).toBe(200);
        expect(pinned.text, `${id} ${p}`).toBe(text);
        expect(pinned.headers.get('cache-control')).toBe('public, max-age=3600');
      }
    }
    // A static host with the nginx rule of docs/retention.md serves the same bytes straight from the kept folders.
    const host = await startStaticHost(join(snapshotsDir, 'current', 'tree'), { snapshotsDir });
    try {
      for (const id of ids) {
        for (const [p, text] of served.get(id)!) {
          if (p === '/index' || p.endsWith('.json')) continue; // the shim's own spellings
          const res = await fetch(`${host.base}${API}/snapshots/${id}${p === '/' ? '' : p}`);
          expect(await res.text(), `static ${id} ${p}`).toBe(text);
        }
      }
    } finally {
      await host.close();
    }
    // Codes are case-insensitive and `.json` names the same resource, as everywhere.
    const lower = await getJson(`${server.base}${API}/snapshots/${ids[0]}/company/${ticker.toLowerCase()}/canonical.json`);
    expect(lower.text).toBe(served.get(ids[0]!)!.get(`/company/${ticker}/canonical`));
  }, 120_000);

  it('pinned reads: unknown id 404 naming it, malformed id 400, computed paths and queries refused', async () => {
    const unknown = await getJson(`${server.base}${API}/snapshots/2020-01-01/company/${ticker}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toContain('2020-01-01');
    expect((await getJson(`${server.base}${API}/snapshots/not-an-id/`)).status).toBe(400);
    expect((await getJson(`${server.base}${API}/snapshots/${ids[0]}/company/${ticker}/nope`)).status).toBe(404);
    expect((await getJson(`${server.base}${API}/snapshots/${ids[0]}/compare`)).status).toBe(404);
    expect((await getJson(`${server.base}${API}/snapshots/${ids[0]}/company/!!`)).status).toBe(400);
    expect((await getJson(`${server.base}${API}/snapshots/${ids[0]}/ranking?page=2`)).status).toBe(400);
    expect((await getJson(`${server.base}${API}/snapshots/${ids[0]}/company/ZZ999`)).status).toBe(404);
  });

  it('with SNAPSHOTS_KEEP=2 a third publish prunes the first; its id answers 410 on every path naming it', async () => {
    const third = await publish('2027-01-01T00:00:00Z');
    const [first, second] = ids as [string, string, string];
    expect(third.pruned).toEqual([first]);
    expect(publishedSnapshotIds(snapshotsDir)).toEqual([second, third.id]);
    expect(prunedSnapshotIds(snapshotsDir)).toEqual([first]);
    // The lock file stays (build-scripts/snapshot/publish.ts); nothing else hidden does.
    expect(readdirSync(snapshotsDir).filter((n) => n.startsWith('.'))).toEqual(['.build-lock.sqlite']);
    const list = await getJson(`${server.base}${API}/snapshots`);
    expect(list.body.data.map((e: { dataset_snapshot_id: string }) => e.dataset_snapshot_id)).toEqual([third.id, second]);

    const gonePaths = [
      ...staticPaths(ticker).map((p) => `/snapshots/${first}${p === '/' ? '' : p}`),
      `/snapshots/${first}/`,
      `/snapshots/${first}/company/!!`,
      `/snapshots/${first}/compare`,
      `/snapshots/${first}/ranking?page=2`,
      `/downloads/${first}/SHA256SUMS`,
      `/downloads/${first}/datapackage.json`,
      `/downloads/${first}/nothing-here`,
    ];
    for (const p of gonePaths) {
      const res = await getJson(`${server.base}${API}${p}`);
      expect(res.status, p).toBe(410);
      expect(res.body.error.code).toBe('GONE');
      expect(res.body.error.message).toContain(first);
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
    for (const [p, text] of served.get(second)!)
      expect((await getJson(`${server.base}${API}/snapshots/${second}${p === '/' ? '' : p}`)).text).toBe(text);
  }, 120_000);

  it.each(['recorded', 'renamed'])(
    'a prune killed (SIGKILL) once %s leaves every kept snapshot readable; the next build finishes it',
    async (step) => {
      const kept = publishedSnapshotIds(snapshotsDir);
      // Keep 1: the prune would remove every snapshot but the current one; it is killed midway.
      const current = kept.at(-1)!;
      const script = `import { pruneSnapshots } from './build-scripts/snapshot/prune.ts';
      pruneSnapshots(${JSON.stringify(snapshotsDir)}, 1, ${JSON.stringify(current)}, (s) => { if (s === ${JSON.stringify(step)}) process.kill(process.pid, 'SIGKILL'); });`;
      const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
      expect(child.signal).toBe('SIGKILL');
      const gone = prunedSnapshotIds(snapshotsDir);
      const stillKept = publishedSnapshotIds(snapshotsDir).filter((id) => !gone.includes(id));
      expect(stillKept).toContain(current);
      for (const id of stillKept) {
        const store = SnapshotStore.open(join(snapshotsDir, id));
        expect(store.companyCount()).toBe(120);
        store.close();
        const res = await getJson(`${server.base}${API}/snapshots/${id}/company/${ticker}`);
        expect(res.status).toBe(200);
        expect(res.text).toBe(served.get(id)!.get(`/company/${ticker}`));
      }
      // The current snapshot is never pruned and is served throughout.
      expect((await getJson(`${server.base}${API}/company/${ticker}`)).text).toBe(served.get(current)!.get(`/company/${ticker}`));
      // Whatever the kill left, the ids it recorded are already gone.
      for (const id of prunedSnapshotIds(snapshotsDir)) expect((await getJson(`${server.base}${API}/snapshots/${id}/`)).status).toBe(410);
      if (step === 'renamed') {
        expect(readdirSync(snapshotsDir).some((n) => n.startsWith('.pruned-'))).toBe(true);
        const r = await buildAndPublish({
          sourcesDir,
          snapshotsDir,
          kind: 'demo',
          now: new Date('2027-02-01T00:00:00Z'),
          progress: silentProgress,
          pages: false,
          keep: 2,
        });
        ids.push(r.id);
        expect(readdirSync(snapshotsDir).filter((n) => n.startsWith('.pruned-'))).toEqual([]);
        expect(publishedSnapshotIds(snapshotsDir)).toEqual([current, r.id]);
        expect(JSON.parse(readFileSync(join(snapshotsDir, 'pruned.json'), 'utf8'))).toEqual(prunedSnapshotIds(snapshotsDir));
      }
    },
    120_000,
  );
});

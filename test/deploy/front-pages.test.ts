import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NGINX, startNginx, startShim, type Nginx, type Shim } from './front.js';
import { demoSnapshotsDir } from '../helpers/demo-snapshots-dir.js';

/**
 * `?page=N` alone on /ranking and /changes is the same in both deployments (docs/api-decisions.md, "API
 * decisions beyond the contract"): the page the tree renders, free and `public` whether nginx sends
 * its file or a shim answers (past the last page, or spelled `02`), with no RateLimit and nothing
 * counted. Any other query is metered and `private` in both. One keyless client, one shim (its
 * counters in memory), nginx in front believing nothing but its own X-Forwarded-For.
 */
let dir: string;
let shim: Shim;
let nginx: Nginx;

beforeAll(async () => {
  if (!NGINX) return;
  dir = mkdtempSync(join(tmpdir(), 'esg-front-pages-'));
  const snapshotsDir = demoSnapshotsDir;
  shim = await startShim({ SNAPSHOTS_DIR: snapshotsDir, KEYS_DB: join(dir, 'keys.sqlite'), TRUST_PROXY: 'loopback', LOG_LEVEL: 'warn' });
  nginx = await startNginx(join(dir, 'nginx'), snapshotsDir, [`127.0.0.1:${shim.port}`]);
}, 120_000);
afterAll(async () => {
  await nginx?.stop();
  await shim?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function get(base: string, path: string) {
  const res = await fetch(base + path);
  return { status: res.status, cache: res.headers.get('cache-control'), rateLimit: res.headers.get('ratelimit'), text: await res.text() };
}
/** This client's calls/day so far (both deployments see it as 127.0.0.1). */
async function usedToday(): Promise<number> {
  const usage = JSON.parse((await get(shim.base, '/api/v1/usage')).text) as { buckets: { bucket: string; used: number }[] };
  return usage.buckets.find((b) => b.bucket === 'calls/day')!.used;
}

describe.skipIf(!NGINX)('?page=N through nginx and through the shim', () => {
  it('alone on /ranking and /changes: 200, public, no RateLimit, the same body, nothing counted', async () => {
    const pages = [
      '/api/v1/ranking?page=2',
      '/api/v1/changes?page=1',
      '/api/v1/ranking.json?page=3',
      '/api/v1/ranking?page=02',
      '/api/v1/ranking?page=999',
      '/api/v1/changes?page=50',
    ];
    const before = await usedToday();
    for (const path of pages) {
      const [viaNginx, viaShim] = [await get(nginx.base, path), await get(shim.base, path)];
      expect(viaNginx, path).toEqual({ status: 200, cache: 'public, max-age=3600', rateLimit: null, text: viaShim.text });
      expect(viaShim, path).toEqual({ status: 200, cache: 'public, max-age=3600', rateLimit: null, text: viaNginx.text });
    }
    expect(JSON.parse((await get(shim.base, '/api/v1/ranking?page=999')).text).data).toEqual([]); // past the end: the contract's empty page
    expect(await usedToday()).toBe(before);
  });

  it('with any other parameter: metered and private in both, each call counted', async () => {
    for (const path of ['/api/v1/ranking?page=2&limit=50', '/api/v1/changes?limit=50&page=1']) {
      const before = await usedToday();
      const [viaNginx, viaShim] = [await get(nginx.base, path), await get(shim.base, path)];
      for (const r of [viaNginx, viaShim]) {
        expect([r.status, r.cache], path).toEqual([200, 'private, max-age=3600']);
        expect(r.rateLimit, path).toMatch(/^"calls\/min";r=\d+;t=\d+$/);
      }
      expect(viaNginx.text).toBe(viaShim.text);
      expect(await usedToday()).toBe(before + 2);
    }
  });
});

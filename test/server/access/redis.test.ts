import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyStore } from '../../../server/access/key-store.js';
import { freePort, startRedis, startShimProcess, until, type RedisServer, type ShimProcess } from './processes.js';
import { demoSnapshotsDir } from '../../helpers/demo-snapshots-dir.js';

/**
 * Counters shared in Redis (contract 6): two shim processes on one real redis-server share a quota
 * exactly; with Redis stopped they keep answering, uncounted, and say so once; when it is back they
 * count again.
 */
let dir: string;
let keys: KeyStore;
let redisPort: number;
let redis: RedisServer | undefined;
const shims: ShimProcess[] = [];

/**
 * A key, once both shims have seen it: they re-read the key store once a second, and until then
 * refuse it (401). Asked on /usage, which counts nothing, rather than a fixed wait of a second.
 */
async function newKey(daily: number, perMinute = 100_000): Promise<string> {
  const { key } = keys.create({ tier: 'commercial', owner: 'redis test', daily, perMinute });
  for (const shim of shims) await until('the shim seeing a new key', 5000, async () => (await call(shim, key, '/usage')).status === 200, shim.child);
  return key;
}
const call = async (shim: ShimProcess, key: string, path = '/ranking?limit=1') => {
  const res = await fetch(`${shim.base}/api/v1${path}`, { headers: { 'X-API-Key': key } });
  const text = await res.text();
  return { status: res.status, ratelimit: res.headers.get('ratelimit'), text };
};
const usedToday = async (shim: ShimProcess, key: string) =>
  (JSON.parse((await call(shim, key, '/usage')).text) as { buckets: { used: number | null }[] }).buckets[0]!.used;
const linesMatching = (shim: ShimProcess, re: RegExp) =>
  shim
    .log()
    .split('\n')
    .filter((l) => re.test(l)).length;
const UNREACHABLE = /quota counters unreachable/;
const BACK = /quota counters reachable again/;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'esg-redis-'));
  const keysDb = join(dir, 'keys.sqlite');
  keys = KeyStore.open(keysDb);
  redisPort = await freePort();
  redis = await startRedis(redisPort);
  const env = { SNAPSHOTS_DIR: demoSnapshotsDir, KEYS_DB: keysDb, REDIS_URL: redis.url };
  shims.push(...(await Promise.all([startShimProcess(env), startShimProcess(env)])));
}, 120_000);

afterAll(async () => {
  await Promise.all(shims.map((s) => s.stop()));
  await redis?.stop();
  keys?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('two shims, one Redis', () => {
  it('60 parallel calls spread over both against a quota of 25: exactly 25 succeed', async () => {
    const key = await newKey(25);
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => call(shims[i % 2]!, key)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(25);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(35);
    expect(await usedToday(shims[0]!, key)).toBe(25);
    expect(await usedToday(shims[1]!, key)).toBe(25);
    // This Redis keeps nothing on disk: each shim says once that a restart of it starts every quota again.
    for (const shim of shims) expect(linesMatching(shim, /redis keeps nothing on disk/)).toBe(1);
  });

  it('Redis stopped mid-run: no failed call, one log line per outage, counting resumes after restart', async () => {
    const key = await newKey(1_000_000);
    for (let i = 0; i < 6; i++) expect((await call(shims[i % 2]!, key)).status).toBe(200);
    expect(await usedToday(shims[0]!, key)).toBe(6);

    await redis!.stop();
    const during = await Promise.all(Array.from({ length: 30 }, (_, i) => call(shims[i % 2]!, key)));
    for (let i = 0; i < 10; i++) during.push(await call(shims[i % 2]!, key));
    expect(during.map((a) => a.status)).toEqual(during.map(() => 200));
    expect(during.every((a) => a.ratelimit === null)).toBe(true); // uncounted, so no quota to state
    expect(await usedToday(shims[0]!, key)).toBeNull();
    for (const shim of shims) {
      expect(linesMatching(shim, UNREACHABLE)).toBe(1);
      expect(linesMatching(shim, BACK)).toBe(0);
    }

    redis = await startRedis(redisPort); // empty: nothing was persisted
    const spent = await newKey(3);
    const deadline = Date.now() + 15_000;
    // The clients reconnect by themselves; wait until each shim counts again.
    for (const shim of shims) {
      while ((await call(shim, key)).ratelimit === null) {
        expect(Date.now()).toBeLessThan(deadline);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push((await call(shims[i % 2]!, spent)).status);
    expect(answers).toEqual([200, 200, 200, 429, 429]);
    expect(await usedToday(shims[1]!, spent)).toBe(3);
    // The outage is over, and said once, when counting has held for a second (server/access/outage.ts).
    for (const shim of shims) await until('the line that counting resumed', 5000, async () => linesMatching(shim, BACK) > 0, shim.child);
    for (const shim of shims) {
      expect(linesMatching(shim, UNREACHABLE)).toBe(1);
      expect(linesMatching(shim, BACK)).toBe(1);
      expect(shim.log()).not.toContain(key);
      expect(shim.log()).not.toContain(spent);
    }
  }, 60_000);

  it('a Redis that hangs: calls are answered within a second, uncounted, and counted again when it answers', async () => {
    const key = await newKey(1_000_000);
    expect((await call(shims[0]!, key)).ratelimit).not.toBeNull();
    redis!.pause();
    try {
      const start = performance.now();
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => call(shims[i % 2]!, key)));
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
      expect(performance.now() - start).toBeLessThan(1500);
      expect(answers.every((a) => a.ratelimit === null)).toBe(true);
    } finally {
      redis!.resume();
    }
    const deadline = Date.now() + 10_000;
    for (const shim of shims) {
      while ((await call(shim, key)).ratelimit === null) {
        expect(Date.now()).toBeLessThan(deadline);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }, 30_000);
});

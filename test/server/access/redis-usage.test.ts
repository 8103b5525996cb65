import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usageResponseSchema } from '../../../src/contract/usage.js';
import { KeyStore } from '../../../server/access/key-store.js';
import { freePort, startRedis, startShimProcess, until, type RedisServer, type ShimProcess } from './processes.js';
import { demoSnapshotsDir } from '../../helpers/demo-snapshots-dir.js';

/**
 * /usage and daily quotas with the counters in a real redis-server (Debian's, on loopback): an
 * unused bucket is `used: 0` and an unlimited one says so (null is only "unreachable"); a Redis
 * with an append-only file keeps the counts across its restart, graceful or a crash a second after
 * the calls; a Redis that stutters under load is one outage in the log, not a line per flicker.
 */
let dir: string;
let keys: KeyStore;
let redisPort: number;
let redis: RedisServer | undefined;
let shim: ShimProcess;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'esg-redis-usage-'));
  keys = KeyStore.open(join(dir, 'keys.sqlite'));
  redisPort = await freePort();
  redis = await startRedis(redisPort, { aofDir: dir });
  shim = await startShimProcess({ SNAPSHOTS_DIR: demoSnapshotsDir, KEYS_DB: join(dir, 'keys.sqlite'), REDIS_URL: redis.url });
}, 120_000);

afterAll(async () => {
  await shim?.stop();
  await redis?.stop();
  keys?.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * A key, once the shim has seen it: it looks for changes to the key store once a second, and until
 * then refuses the key (401). Asked on /usage, which counts nothing, rather than a fixed wait of a second.
 */
async function newKey(tier: 'developer' | 'commercial', limits: { daily?: number; perMinute?: number } = {}): Promise<string> {
  const { key } = keys.create({ tier, owner: 'redis usage test', ...limits });
  const seen = async () => {
    const r = await call(key, '/usage');
    await r.arrayBuffer();
    return r.status === 200;
  };
  await until('the shim seeing a new key', 5000, seen, shim.child);
  return key;
}
const call = (key: string | undefined, path: string) => fetch(`${shim.base}/api/v1${path}`, { headers: key ? { 'X-API-Key': key } : {} });
async function usage(key?: string) {
  const r = await call(key, '/usage');
  expect(r.status).toBe(200);
  const body = usageResponseSchema.parse(await r.json());
  return Object.fromEntries(body.buckets.map((b) => [b.bucket, b]));
}
/** Waits until the shim counts again after Redis came back (a counted call carries RateLimit). */
async function countingAgain(key: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while ((await call(key, '/ranking?limit=1')).headers.get('ratelimit') === null) {
    expect(Date.now()).toBeLessThan(deadline);
    await new Promise((r) => setTimeout(r, 100));
  }
}
const lines = (re: RegExp) =>
  shim
    .log()
    .split('\n')
    .filter((l) => re.test(l));

describe('/usage under Redis', () => {
  it('an unused bucket is used 0 with its whole allowance; an unlimited one says unlimited and still counts', async () => {
    const key = await newKey('developer');
    const before = await usage(key);
    expect(before['calls/day']).toMatchObject({ limit: 10_000, unlimited: false, used: 0, remaining: 10_000 });
    expect(before['batch/day']).toMatchObject({ limit: 2_000, unlimited: false, used: 0, remaining: 2_000 });
    expect(before['csv/day']).toMatchObject({ limit: null, unlimited: true, used: 0, remaining: null });
    expect((await call(key, '/ranking?format=csv&limit=1')).status).toBe(200);
    const after = await usage(key);
    expect(after['csv/day']).toMatchObject({ limit: null, unlimited: true, used: 1, remaining: null });
    expect(after['calls/day']).toMatchObject({ used: 1, remaining: 9_999 });
    expect(after['batch/day']).toMatchObject({ used: 0, remaining: 2_000 });
    // Keyless: a bucket the tier lacks is limit 0, used 0; nothing is null while Redis answers.
    const free = await usage();
    expect(free['packs/day']).toMatchObject({ limit: 0, unlimited: false, used: 0, remaining: 0 });
    expect(Object.values(free).every((b) => b.used !== null)).toBe(true);
  });
});

describe('daily quotas across a restart of Redis (appendonly yes)', () => {
  it('a graceful restart and a crash a second after the calls both keep the counts', async () => {
    expect(lines(/redis keeps nothing on disk/)).toHaveLength(0); // this Redis keeps an append-only file
    const key = await newKey('commercial', { daily: 1_000 });
    for (let i = 0; i < 7; i++) expect((await call(key, '/ranking?limit=1')).status).toBe(200);
    expect((await usage(key))['calls/day']!.used).toBe(7);

    await redis!.stop(); // SIGTERM: Redis writes the file out and exits
    redis = await startRedis(redisPort, { aofDir: dir });
    await countingAgain(key);
    expect((await usage(key))['calls/day']!.used).toBe(8);

    for (let i = 0; i < 4; i++) await call(key, '/ranking?limit=1');
    await new Promise((r) => setTimeout(r, 1500)); // appendfsync everysec: on disk within a second
    await redis!.kill();
    redis = await startRedis(redisPort, { aofDir: dir });
    await countingAgain(key);
    expect((await usage(key))['calls/day']!.used).toBe(13);
  }, 60_000);
});

describe('reconnecting', () => {
  it('Redis killed and started again ten times in a row: each time the shim counts again within seconds', async () => {
    // A reconnect that meets a Redis going down must not leave the client "ready" on a dead socket
    // (node-redis's CLIENT SETINFO, see server/access/counters.ts): before, 1 restart in about 7.
    const key = await newKey('commercial', { daily: 1_000_000, perMinute: 1_000_000 });
    for (let i = 0; i < 10; i++) {
      await redis!.kill();
      redis = await startRedis(redisPort, { aofDir: dir });
      await countingAgain(key);
    }
  }, 120_000);
});

describe('one outage, one line each way', () => {
  it('Redis stuttering under load (stopped 0.7 s, running 0.15 s, three times): every call 200, one line that counters are unreachable and one that they are back', async () => {
    const key = await newKey('commercial', { daily: 1_000_000, perMinute: 1_000_000 });
    // The restarts above are outages of their own: each said to be over before this one starts.
    await until(
      'the earlier outages over',
      5000,
      async () => lines(/quota counters reachable again/).length === lines(/quota counters unreachable/).length,
      shim.child,
    );
    const start = { down: lines(/quota counters unreachable/).length, back: lines(/quota counters reachable again/).length };
    let stop = false;
    const statuses: number[] = [];
    // Four clients, one call at a time each, for as long as the stutter lasts (and never past 20 s or 4,000 calls).
    const deadline = Date.now() + 20_000;
    const client = async () => {
      while (!stop && Date.now() < deadline && statuses.length < 4000) statuses.push((await call(key, '/ranking?limit=1')).status);
    };
    const load = Promise.all(Array.from({ length: 4 }, client));
    await new Promise((r) => setTimeout(r, 300));
    for (let i = 0; i < 3; i++) {
      redis!.pause();
      await new Promise((r) => setTimeout(r, 700));
      redis!.resume();
      await new Promise((r) => setTimeout(r, 150));
    }
    await new Promise((r) => setTimeout(r, 500));
    stop = true;
    await load;
    expect(statuses.length).toBeGreaterThan(20);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    await until('the line that counting resumed', 5000, async () => lines(/quota counters reachable again/).length > start.back, shim.child);
    expect(lines(/quota counters unreachable/).length - start.down).toBe(1);
    expect(lines(/quota counters reachable again/).length - start.back).toBe(1);
    const back = JSON.parse(lines(/quota counters reachable again/).at(-1)!) as { down_seconds: number; served_unchecked: number };
    expect(back.down_seconds).toBeGreaterThan(1); // from the first stop to the last failure
    expect(back.served_unchecked).toBeGreaterThan(0);
  }, 60_000);
});

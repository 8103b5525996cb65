import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryCounters, redisCounters, type Counters } from '../../../server/access/counters.js';
import { DEFAULT_MEMORY_CLIENTS } from '../../../server/access/client-table.js';
import { KeyStore } from '../../../server/access/key-store.js';
import { Meter } from '../../../server/access/meter.js';
import { OAUTH_RATE_LIMITS } from '../../../src/contract/oauth.js';
import { demoSnapshotsDir } from '../../helpers/demo-snapshots-dir.js';
import { startServer, type RunningServer } from '../../helpers/server.js';
import { freePort, startRedis, type RedisServer } from '../access/processes.js';
import { silentMailer } from './silent-mailer.js';

const run = promisify(execFile);

/**
 * OAuth's endpoints are rate-limited per client address, and each limiter's store is bounded
 *: the MCP SDK's MemoryStore kept one entry per address without a cap, even with
 * REDIS_URL, and some 710k IPv6 /56 clients at POST /token took a shim out of memory. Now they
 * count where the quota counters do: in memory for at most QUOTA_MEMORY_CLIENTS addresses (the one
 * idle longest forgotten), or in Redis with a lifetime per key.
 */

/** The memory table's own figure (test/server/access/bounded.test.ts): about 250 bytes a client. */
const BYTES_PER_CLIENT = 250;
/**
 * Distinct addresses per flood. In memory, four times the table's default: it is full at a quarter of
 * the way and has turned over once at half, and from there the heap must stay flat; a store keeping
 * each address (the SDK's MemoryStore took some 120 bytes an address) would grow by over 20 MB over
 * that last half, against the 3 MB allowed. With Redis, as many as the table holds: a store keeping
 * them in the heap, bounded by the table or not, would grow by over 10 MB, against the 3 MB allowed.
 * A million addresses each proved no more and took four minutes more of the suite.
 */
const MEMORY_CLIENTS = 4 * DEFAULT_MEMORY_CLIENTS;
const REDIS_CLIENTS = DEFAULT_MEMORY_CLIENTS;
const TOKEN_LIMIT = OAUTH_RATE_LIMITS.token.limit;
const mailer = silentMailer;

let dir: string;
let redis: RedisServer;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'esg-oauth-limits-'));
  redis = await startRedis(await freePort());
}, 30_000);
afterAll(async () => {
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A shim with sign-in on, behind a proxy on loopback (so X-Forwarded-For is the client), counting in `counters`. */
async function shimWith(counters: Counters, name: string): Promise<RunningServer & { access: Meter }> {
  const access = new Meter({ keys: KeyStore.open(join(dir, `${name}.sqlite`)), counters });
  const server = await startServer(demoSnapshotsDir, { access, mailer, trustProxy: 'loopback' });
  return {
    ...server,
    access,
    close: async () => {
      await server.close();
      await access.close();
    },
  };
}
const postToken = async (base: string, ip: string) =>
  (
    await fetch(`${base}/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Forwarded-For': ip },
      body: 'grant_type=refresh_token&refresh_token=esgrt_x&client_id=nobody',
    })
  ).status;
const statuses = async (n: number, call: () => Promise<number>) => {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(await call());
  return out;
};

describe('hundreds of thousands of distinct addresses at POST /token', () => {
  /** Runs many-token-clients.ts in a heap the size npm start gives; its JSON line. */
  async function flood(clients: number, redisUrl?: string) {
    const keysDir = mkdtempSync(join(dir, 'flood-'));
    const args = [
      '--expose-gc',
      '--max-semi-space-size=4',
      '--max-old-space-size=160',
      '--import',
      'tsx',
      'test/server/oauth/many-token-clients.ts',
      keysDir,
      demoSnapshotsDir,
      String(clients),
      ...(redisUrl ? [redisUrl] : []),
    ];
    const { QUOTA_MEMORY_CLIENTS: _, ...env } = process.env;
    const { stdout } = await run(process.execPath, args, { env, timeout: 420_000, maxBuffer: 1 << 20 });
    return JSON.parse(stdout.trim().split('\n').pop()!) as {
      baseline: number;
      heap: number[];
      statuses: Record<string, number>;
      first: number;
      last: number;
    };
  }

  it('in memory: the heap stays under the cap, flat once the table is full; the first address is forgotten, the last counted', async () => {
    const r = await flood(MEMORY_CLIENTS);
    const capMb = (DEFAULT_MEMORY_CLIENTS * BYTES_PER_CLIENT) / 1e6;
    // The SDK's MemoryStore: past 145 MB from 61 at 710k addresses, then out of memory (the child dies).
    for (const mb of r.heap) expect(mb - r.baseline).toBeLessThan(capMb * 1.1);
    // The heap is sampled every tenth of the addresses: from the sample where the table has turned over once, flat.
    const turnedOver = Math.ceil((2 * DEFAULT_MEMORY_CLIENTS) / Math.ceil(MEMORY_CLIENTS / 10)) - 1;
    expect(r.heap).toHaveLength(10);
    expect(Math.max(...r.heap.slice(turnedOver + 1)) - r.heap[turnedOver]!).toBeLessThan(3);
    expect(r.statuses).toEqual({ 400: MEMORY_CLIENTS }); // each address once: none limited, each refused as an unknown client
    expect(r.last).toBe(429);
    expect(r.first).toBe(400);
  }, 480_000);

  it('with REDIS_URL: nothing per address in the heap; Redis holds each address for the window only', async () => {
    const r = await flood(REDIS_CLIENTS, redis.url);
    for (const mb of r.heap) expect(mb - r.baseline).toBeLessThan(3);
    expect(r.statuses).toEqual({ 400: REDIS_CLIENTS });
    // The last address is counted (its 51st request is refused), and so is the first: its window (15
    // minutes) lasts over the flood, which takes about a minute.
    expect(r.last).toBe(429);
    expect(r.first).toBe(429);
    const client = createClient({ url: redis.url });
    await client.connect();
    try {
      const keys = await client.keys('esg:quota:oauth-token:*');
      expect(keys.length).toBeGreaterThan(REDIS_CLIENTS / 2); // a /56 per IPv6 address, so slightly fewer keys than addresses
      const ttl = await client.pTTL(keys[0]!);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(OAUTH_RATE_LIMITS.token.windowMs);
      await client.flushAll();
    } finally {
      await client.close();
    }
  }, 480_000);
});

describe('over HTTP', () => {
  it(`in memory, QUOTA_MEMORY_CLIENTS=2: an address past ${TOKEN_LIMIT} a window is forgotten once two other addresses came`, async () => {
    const shim = await shimWith(memoryCounters({ maxClients: 2 }), 'memory');
    try {
      const from = (ip: string) => () => postToken(shim.base, ip);
      expect((await statuses(TOKEN_LIMIT + 1, from('198.51.100.1'))).at(-1)).toBe(429);
      expect(await from('198.51.100.2')()).toBe(400);
      expect(await from('2001:db8:1:100::1')()).toBe(400); // full: .1, idle longest, is forgotten
      expect(await from('198.51.100.1')()).toBe(400);
    } finally {
      await shim.close();
    }
  });

  it('with REDIS_URL: two shims share the count of an address, kept in Redis with the window as its lifetime', async () => {
    const [a, b] = await Promise.all([shimWith(redisCounters(redis.url), 'redis-a'), shimWith(redisCounters(redis.url), 'redis-b')]);
    try {
      const ip = '203.0.113.7';
      const half = TOKEN_LIMIT / 2;
      expect(await statuses(half, () => postToken(a.base, ip))).toEqual(Array(half).fill(400));
      expect(await statuses(half, () => postToken(b.base, ip))).toEqual(Array(half).fill(400));
      expect([await postToken(a.base, ip), await postToken(b.base, ip)]).toEqual([429, 429]);
      const client = createClient({ url: redis.url });
      await client.connect();
      try {
        const ttl = await client.pTTL(`esg:quota:oauth-token:${ip}`);
        expect(ttl).toBeGreaterThan(OAUTH_RATE_LIMITS.token.windowMs - 60_000);
        expect(ttl).toBeLessThanOrEqual(OAUTH_RATE_LIMITS.token.windowMs);
      } finally {
        await client.close();
      }
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('with Redis down, the endpoints answer as before (uncounted), as metered calls do', async () => {
    const shim = await shimWith(redisCounters(`redis://127.0.0.1:${await freePort()}`, { commandTimeoutMs: 200 }), 'redis-down');
    try {
      expect(await statuses(TOKEN_LIMIT + 5, () => postToken(shim.base, '203.0.113.8'))).toEqual(Array(TOKEN_LIMIT + 5).fill(400));
    } finally {
      await shim.close();
    }
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../../src/contract/common.js';
import { usageResponseSchema } from '../../../src/contract/usage.js';
import { QUOTA_BUCKETS, type QuotaBucket } from '../../../src/contract/vocabulary.js';
import { count, MINUTE, startMetered, statuses, type Metered } from './harness.js';
import { demoSnapshotsDir } from '../../helpers/demo-snapshots-dir.js';

/**
 * Quotas of contract 6 over HTTP, counters in memory, on an injected clock. Each test starts on a
 * day of its own, so daily and minute buckets start empty.
 */
const DAY = 86_400_000;
let m: Metered;
let day = 0;
let dayStart = 0;

beforeAll(async () => {
  m = await startMetered(demoSnapshotsDir);
});
afterAll(() => m?.close());
beforeEach(() => {
  day += 2; // a test may step into the next day
  dayStart = Date.UTC(2026, 10, 23) + day * DAY;
  m.clock.now = dayStart + 10 * 3_600_000; // 10:00 UTC
});

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
const RANKING = '/ranking?limit=1';
const batchBody = { tickers: ['D1101', 'D1102'] };

async function usage(key?: string) {
  const r = await m.call('/usage', { key });
  expect(r.status).toBe(200);
  const body = usageResponseSchema.parse(r.body);
  return { body, of: (b: QuotaBucket) => body.buckets.find((x) => x.bucket === b)! };
}

/** Spends a bucket's calls/min allowance minute after minute until `calls` were made (all must be 200). */
async function spread(calls: number, perMinute: number, make: () => Promise<{ status: number }>): Promise<void> {
  for (let done = 0; done < calls; done += perMinute) {
    const n = Math.min(perMinute, calls - done);
    expect(count(await statuses(n, make), 200)).toBe(n);
    m.clock.now += MINUTE;
  }
}

function expectRateLimited(r: Awaited<ReturnType<Metered['call']>>, bucket: string, resetMs: number) {
  expect(r.status).toBe(429);
  const body = errorBodySchema.parse(r.body);
  expect(body.error.code).toBe('RATE_LIMITED');
  expect(body.error.message).toContain(bucket);
  expect(body.error.message).toContain(iso(resetMs));
  expect(r.headers.get('retry-after')).toBe(String(Math.ceil((resetMs - m.clock.now) / 1000)));
  expect(r.headers.get('ratelimit')).toBe(`"${bucket}";r=0;t=${Math.ceil((resetMs - m.clock.now) / 1000)}`);
  expect(r.headers.get('cache-control')).toBe('no-store');
}

describe('free tier: no key, counted per client IP', () => {
  it('the sixth call in a minute is 429 RATE_LIMITED naming calls/min, with Retry-After and the RateLimit headers', async () => {
    m.clock.now += 15_000; // 10:00:15: 45 s left in the minute
    const first = await m.call(RANKING);
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-policy')).toMatch(/^"calls\/min";q=5;w=60;pk=:[A-Za-z0-9+/=]+:$/);
    expect(first.headers.get('ratelimit')).toBe('"calls/min";r=4;t=45');
    expect(count(await statuses(4, () => m.call(RANKING)), 200)).toBe(4);
    const sixth = await m.call(RANKING);
    expectRateLimited(sixth, 'calls/min', dayStart + 10 * 3_600_000 + MINUTE);
    expect(sixth.headers.get('retry-after')).toBe('45');
  });

  it('minute buckets are fixed 60 s windows on the clock, not sliding ones', async () => {
    m.clock.now += MINUTE - 500; // 10:00:59.5
    expect(count(await statuses(6, () => m.call(RANKING)), 200)).toBe(5);
    m.clock.now += 500; // 10:01:00.000: a new window
    expect(count(await statuses(6, () => m.call(RANKING)), 200)).toBe(5);
    m.clock.now += MINUTE - 1; // 10:01:59.999: the same window, whatever the first call's time was
    expect((await m.call(RANKING)).status).toBe(429);
    m.clock.now += 1;
    expect((await m.call(RANKING)).status).toBe(200);
  });

  it('calls/day: 100 a day, reset at 00:00 UTC', async () => {
    await spread(100, 5, () => m.call(RANKING));
    const over = await m.call(RANKING);
    expectRateLimited(over, 'calls/day', dayStart + DAY);
    expect((await usage()).of('calls/day')).toMatchObject({ limit: 100, used: 100, remaining: 0, reset: iso(dayStart + DAY) });
    m.clock.now = dayStart + DAY - 1; // 23:59:59.999
    expect((await m.call(RANKING)).status).toBe(429);
    m.clock.now = dayStart + DAY; // 00:00 UTC
    expect((await m.call(RANKING)).status).toBe(200);
    expect((await usage()).of('calls/day')).toMatchObject({ used: 1, remaining: 99 });
  });

  it('batch/day: 20 batches a day; a refused call is not counted toward the other buckets', async () => {
    await spread(20, 5, () => m.call('/batch', { body: batchBody }));
    expectRateLimited(await m.call('/batch', { body: batchBody }), 'batch/day', dayStart + DAY);
    const u = await usage();
    expect(u.of('batch/day')).toMatchObject({ limit: 20, used: 20, remaining: 0 });
    expect(u.of('calls/day').used).toBe(20);
    expect(u.of('calls/min').used).toBe(0);
    // Other calls still go through: only batches are spent.
    expect((await m.call(RANKING)).status).toBe(200);
  });

  it('csv/day: 3 exports a day, and the header shows the bucket nearest to running out', async () => {
    const csv = () => m.call('/ranking?format=csv&market_type=otc');
    const first = await csv();
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    // csv/day has 2 left, calls/min 4: the export bucket is nearer to running out.
    expect(first.headers.get('ratelimit')).toBe(`"csv/day";r=2;t=${(dayStart + DAY - m.clock.now) / 1000}`);
    expect(first.headers.get('ratelimit-policy')).toMatch(/^"csv\/day";q=3;w=86400;pk=/);
    expect(count(await statuses(2, csv), 200)).toBe(2);
    expectRateLimited(await csv(), 'csv/day', dayStart + DAY);
    expect((await m.call('/ranking?format=json&limit=1')).status).toBe(200);
  });

  it('a 4xx other than 429 counts and carries the headers; a 429 does not count', async () => {
    const bad = await m.call('/ranking?limit=0');
    expect(bad.status).toBe(400);
    expect(bad.headers.get('ratelimit')).toMatch(/^"calls\/min";r=4;t=\d+$/);
    const badBatch = await m.call('/batch', { body: { nope: 1 } });
    expect(badBatch.status).toBe(400);
    const notJson = await m.call('/batch', { method: 'POST', headers: { 'Content-Type': 'text/plain' } });
    expect(notJson.status).toBe(400);
    let u = await usage();
    expect(u.of('calls/min').used).toBe(3);
    expect(u.of('batch/day').used).toBe(2);
    expect(count(await statuses(5, () => m.call(RANKING)), 429)).toBe(3);
    u = await usage();
    expect(u.of('calls/min').used).toBe(5);
    expect(u.of('calls/day').used).toBe(5);
  });

  it('static files, the canonical view without a query and /usage are free; ?fields= is metered without a key', async () => {
    for (const path of [
      '/company/D1101',
      '/company/d1101',
      '/company/D1101/canonical',
      '/company/D1101.json',
      '/ranking',
      '/ranking/page/2',
      '/methodology',
      '/',
      '/usage',
      '/usage',
    ]) {
      const r = await m.call(path);
      expect(r.status, path).toBe(200);
      expect(r.headers.get('ratelimit'), path).toBeNull();
    }
    expect((await usage()).of('calls/min').used).toBe(0);
    const fields = await m.call('/company/D1101/canonical?fields=flags');
    expect(fields.status).toBe(200);
    expect(fields.headers.get('ratelimit')).toMatch(/^"calls\/min";r=4;/);
    expect((await usage()).of('calls/min').used).toBe(1);
  });

  it('/usage: the tier, every bucket with limit, used, remaining and reset; never cached', async () => {
    await m.call(RANKING);
    const r = await m.call('/usage');
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.headers.get('etag')).toBeNull();
    const body = usageResponseSchema.parse(r.body);
    expect(body).toMatchObject({ ok: true, tier: 'free', tier_number: 0, key_id: null });
    expect(body.buckets.map((b) => b.bucket)).toEqual([...QUOTA_BUCKETS]);
    expect(body.buckets).toEqual([
      { bucket: 'calls/day', limit: 100, unlimited: false, used: 1, remaining: 99, reset: iso(dayStart + DAY), window_seconds: 86400 },
      {
        bucket: 'calls/min',
        limit: 5,
        unlimited: false,
        used: 1,
        remaining: 4,
        reset: iso(m.clock.now - (m.clock.now % MINUTE) + MINUTE),
        window_seconds: 60,
      },
      { bucket: 'batch/day', limit: 20, unlimited: false, used: 0, remaining: 20, reset: iso(dayStart + DAY), window_seconds: 86400 },
      { bucket: 'csv/day', limit: 3, unlimited: false, used: 0, remaining: 3, reset: iso(dayStart + DAY), window_seconds: 86400 },
      { bucket: 'packs/day', limit: 0, unlimited: false, used: 0, remaining: 0, reset: iso(dayStart + DAY), window_seconds: 86400 },
    ]);
    expect((await m.call('/usage?x=1')).status).toBe(400);
    expect((await m.call('/usage', { method: 'POST', body: {} })).status).toBe(405);
  });
});

describe('key tiers', () => {
  const TABLE = {
    academic: { 'calls/day': 5000, 'calls/min': 30, 'batch/day': 200, 'csv/day': 10, 'packs/day': 0 },
    developer: { 'calls/day': 10000, 'calls/min': 120, 'batch/day': 2000, 'csv/day': null, 'packs/day': 10 },
    commercial: { 'calls/day': 100000, 'calls/min': 300, 'batch/day': 10000, 'csv/day': null, 'packs/day': 50 },
  } as const;

  it.each(Object.entries(TABLE))('%s: the contract table in /usage, and calls/min spent at its limit', async (tier, row) => {
    const key = m.newKey(tier as keyof typeof TABLE);
    const u = await usage(key);
    expect(u.body).toMatchObject({ tier, tier_number: ['free', 'academic', 'developer', 'commercial'].indexOf(tier) });
    expect(Object.fromEntries(u.body.buckets.map((b) => [b.bucket, b.limit]))).toEqual(row);
    const perMinute = row['calls/min'];
    const calls = await Promise.all(Array.from({ length: perMinute + 3 }, () => m.call(RANKING, { key })));
    expect(
      count(
        calls.map((c) => c.status),
        200,
      ),
    ).toBe(perMinute);
    expect(
      count(
        calls.map((c) => c.status),
        429,
      ),
    ).toBe(3);
    expect((await usage(key)).of('calls/min')).toMatchObject({ used: perMinute, remaining: 0 });
  });

  it('commercial keys take their own daily and per-minute limits', async () => {
    const key = m.newKey('commercial', { daily: 7, perMinute: 3 });
    expect(count(await statuses(5, () => m.call(RANKING, { key })), 200)).toBe(3);
    m.clock.now += MINUTE;
    expect(count(await statuses(5, () => m.call(RANKING, { key })), 200)).toBe(3);
    m.clock.now += MINUTE;
    const last = await statuses(3, () => m.call(RANKING, { key }));
    expect(last).toEqual([200, 429, 429]);
    expectRateLimited(await m.call(RANKING, { key }), 'calls/day', dayStart + DAY);
  });

  it('academic: 10 exports a day; developer: exports unlimited, still counted', async () => {
    const academic = m.newKey('academic');
    const developer = m.newKey('developer');
    const csv = (key: string) => m.call('/ranking?format=csv&gf=GF-F01', { key });
    expect(count(await statuses(11, () => csv(academic)), 200)).toBe(10);
    expect(count(await statuses(15, () => csv(developer)), 200)).toBe(15);
    expect((await usage(developer)).of('csv/day')).toMatchObject({ limit: null, unlimited: true, used: 15, remaining: null });
    // With exports unlimited, the header names the bucket that can run out: calls/min (120 − 16).
    expect((await csv(developer)).headers.get('ratelimit')).toMatch(/^"calls\/min";r=104;/);
  });

  it('counters are per key: one key spent leaves another and the keyless tier untouched', async () => {
    const a = m.newKey('academic');
    const b = m.newKey('academic');
    expect(count(await statuses(31, () => m.call(RANKING, { key: a })), 429)).toBe(1);
    expect((await m.call(RANKING, { key: b })).status).toBe(200);
    expect((await m.call(RANKING)).status).toBe(200);
  });
});

describe('exactness under concurrency, one process', () => {
  it('40 parallel keyless calls against 5 a minute: exactly 5 succeed', async () => {
    const calls = await Promise.all(Array.from({ length: 40 }, () => m.call(RANKING)));
    expect(
      count(
        calls.map((c) => c.status),
        200,
      ),
    ).toBe(5);
    expect(
      count(
        calls.map((c) => c.status),
        429,
      ),
    ).toBe(35);
    const u = await usage();
    expect(u.of('calls/min').used).toBe(5);
    expect(u.of('calls/day').used).toBe(5);
  });

  it('60 parallel batches on a key with 25 calls a day: exactly 25 succeed', async () => {
    const key = m.newKey('commercial', { daily: 25, perMinute: 1000 });
    const calls = await Promise.all(Array.from({ length: 60 }, () => m.call('/batch', { key, body: batchBody })));
    expect(
      count(
        calls.map((c) => c.status),
        200,
      ),
    ).toBe(25);
    expect(
      count(
        calls.map((c) => c.status),
        429,
      ),
    ).toBe(35);
    const u = await usage(key);
    expect(u.of('calls/day').used).toBe(25);
    expect(u.of('batch/day').used).toBe(25);
  });
});

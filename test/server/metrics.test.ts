import type { Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryCounters, type Counters } from '../../server/access/counters.js';
import { KeyStore } from '../../server/access/key-store.js';
import { Meter } from '../../server/access/meter.js';
import { createMetrics, metricsAddress, startMetricsServer, type Metrics } from '../../server/kit/metrics.js';
import { publishedSnapshotSource } from '../../server/kit/snapshot-source.js';
import { startServer, type RunningServer } from '../helpers/server.js';
import { rawBytes } from '../helpers/raw-http.js';
import { freePort, startRedis, startShimProcess, type RedisServer, type ShimProcess } from './access/processes.js';
import { demoSnapshotsDir } from '../helpers/demo-snapshots-dir.js';

/**
 * /metrics (prom-client) on a server of its own: Prometheus text whose request counter equals the
 * requests sent, by route pattern and status; 429s by bucket; the snapshot by id and age; Redis up
 * or down and the calls served uncounted meanwhile; Node's event-loop lag and heap.
 */
const T0 = Date.UTC(2026, 10, 23, 10, 0, 0);

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Prometheus text format 0.0.4: `# HELP`/`# TYPE` comments, then `name{label="value",…} value`. Throws on any other line. */
function parsePrometheus(text: string): Sample[] {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const comment = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.*)$/.exec(line);
    if (comment) {
      if (comment[1] === 'TYPE') {
        expect(['counter', 'gauge', 'histogram', 'summary', 'untyped']).toContain(comment[3]);
        types.set(comment[2]!, comment[3]!);
      }
      continue;
    }
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: -?\d+)?$/.exec(line);
    if (!m) throw new Error(`not Prometheus text: ${line}`);
    const labels: Record<string, string> = {};
    const body = m[2] ?? '';
    const label = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/y;
    let at = 0;
    while (at < body.length) {
      label.lastIndex = at;
      const l = label.exec(body);
      if (!l) throw new Error(`bad labels in: ${line}`);
      labels[l[1]!] = l[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
      at = label.lastIndex;
    }
    // prom-client writes NaN as `Nan`; Prometheus reads it as Go's ParseFloat does, any case.
    const value = m[3] === '+Inf' ? Infinity : m[3] === '-Inf' ? -Infinity : /^nan$/i.test(m[3]!) ? NaN : Number(m[3]);
    if (Number.isNaN(value) && !/^nan$/i.test(m[3]!)) throw new Error(`bad value in: ${line}`);
    const family = m[1]!.replace(/_(bucket|sum|count)$/, '');
    if (!types.has(m[1]!) && !types.has(family)) throw new Error(`sample before its # TYPE: ${line}`);
    samples.push({ name: m[1]!, labels, value });
  }
  return samples;
}

async function scrape(url: string): Promise<Sample[]> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheus(await res.text());
}

/** The value of the one sample named `name` whose labels include `labels`; undefined when none. */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  expect(found.length, `${name} ${JSON.stringify(labels)}`).toBeLessThanOrEqual(1);
  return found[0]?.value;
}

const snapshotsDir = () => demoSnapshotsDir;

describe('metrics in process', () => {
  let dir: string;
  let server: RunningServer;
  let metrics: Metrics;
  let metricsServer: Server;
  let access: Meter;
  let url: string;
  let snapshotId: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'esg-metrics-'));
    const snapshots = publishedSnapshotSource(snapshotsDir());
    snapshotId = snapshots.current().meta.dataset_snapshot_id;
    metrics = createMetrics({ snapshots });
    access = new Meter({ keys: KeyStore.open(join(dir, 'keys.sqlite')), counters: memoryCounters(), clock: () => T0, metrics });
    server = await startServer(snapshotsDir(), { snapshots, access, metrics });
    metricsServer = await startMetricsServer(metrics, 0);
    url = metricsAddress(metricsServer);
  });
  afterAll(async () => {
    metricsServer.close();
    metricsServer.closeAllConnections();
    await server.close();
    await access.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('counts the requests sent by route and status, their latencies, and 429s by bucket', async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    const before = await scrape(url);
    const N = 37;
    const get = (path: string) => fetch(server.base + path).then(async (r) => (await r.arrayBuffer(), r.status));
    // Company files in canonical spelling take the fast path outside Express; they count all the same.
    const statuses = await Promise.all(Array.from({ length: N }, (_, i) => get(i % 2 ? '/api/v1/company/D1101' : '/api/v1/company/d1101')));
    expect(statuses.every((s) => s === 200)).toBe(true);
    for (let i = 0; i < 3; i++) expect(await get(`/api/v1/company/ZZ${i}99`)).toBe(404);
    // The free tier's 5 calls a minute, then a 429 on calls/min.
    const ranking = [];
    for (let i = 0; i < 6; i++) ranking.push(await get('/api/v1/ranking?limit=1'));
    expect(ranking).toEqual([200, 200, 200, 200, 200, 429]);
    // Two requests the HTTP parser refuses before there is a request (an unknown method): counted too.
    for (let i = 0; i < 2; i++) await rawBytes(server.base, 'FOO / HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((r) => setTimeout(r, 20)); // the last response's 'close'

    const after = await scrape(url);
    const delta = (name: string, labels: Record<string, string>) => (valueOf(after, name, labels) ?? 0) - (valueOf(before, name, labels) ?? 0);
    const company = { route: '/api/v1/company/{ticker}' };
    expect(delta('esg_http_requests_total', { ...company, status: '200' })).toBe(N);
    expect(delta('esg_http_requests_total', { ...company, status: '404' })).toBe(3);
    expect(delta('esg_http_request_duration_seconds_count', { ...company, status: '200' })).toBe(N);
    expect(delta('esg_http_request_duration_seconds_bucket', { ...company, status: '200', le: '+Inf' })).toBe(N);
    expect(delta('esg_http_request_duration_seconds_sum', { ...company, status: '200' })).toBeGreaterThan(0);
    expect(delta('esg_http_requests_total', { route: '/api/v1/ranking', status: '200' })).toBe(5);
    expect(delta('esg_http_requests_total', { route: '/api/v1/ranking', status: '429' })).toBe(1);
    expect(delta('esg_quota_rejections_total', { bucket: 'calls/min' })).toBe(1);
    expect(valueOf(after, 'esg_quota_rejections_total', { bucket: 'calls/day' })).toBe(0);
    expect(valueOf(after, 'esg_quota_fail_open_total')).toBe(0);
    // No raw path is ever a label: every route label is a pattern.
    const routes = new Set(after.filter((s) => s.name === 'esg_http_requests_total').map((s) => s.labels.route));
    expect(delta('esg_http_requests_total', { route: 'unknown', status: '405' })).toBe(2);
    expect([...routes].sort()).toEqual(['/api/v1/company/{ticker}', '/api/v1/ranking', 'unknown']);
  });

  it('names the current snapshot and its age; reports event-loop lag and heap', async () => {
    const samples = await scrape(url);
    expect(samples.filter((s) => s.name === 'esg_snapshot_info')).toEqual([
      { name: 'esg_snapshot_info', labels: { snapshot: snapshotId }, value: 1 },
    ]);
    const age = valueOf(samples, 'esg_snapshot_age_seconds')!;
    const published = Date.parse(publishedSnapshotSource(snapshotsDir()).current().meta.published_at);
    expect(Math.abs(age - (Date.now() - published) / 1000)).toBeLessThan(60);
    expect(valueOf(samples, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(valueOf(samples, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(1e6);
    expect(valueOf(samples, 'esg_redis_up'), 'no Redis, no gauge').toBeUndefined();
  });

  it('serves nothing but /metrics; the API does not serve /metrics', async () => {
    expect((await fetch(url.replace('/metrics', '/'))).status).toBe(404);
    expect((await fetch(`${url}?x=1`)).status).toBe(200);
    expect((await fetch(`${server.base}/metrics`)).status).toBe(404);
  });
});

describe('health', () => {
  it('/healthz and /readyz: 200 with what they checked, never metered, not in the API index', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'esg-health-'));
    const access = new Meter({ keys: KeyStore.open(join(dir, 'keys.sqlite')), counters: memoryCounters(), clock: () => T0 });
    const server = await startServer(snapshotsDir(), { access });
    try {
      // Far past the free tier's 5 calls a minute: neither is counted.
      for (let i = 0; i < 8; i++) {
        for (const path of ['/healthz', '/readyz']) {
          const res = await fetch(server.base + path);
          expect(res.status, path).toBe(200);
          expect(res.headers.get('ratelimit'), path).toBeNull();
          expect(res.headers.get('cache-control')).toBe('no-store');
          const body = await res.json();
          if (path === '/healthz') expect(body).toEqual({ ok: true });
          else expect(body).toEqual({ ok: true, dataset_snapshot_id: expect.stringMatching(/^\d{4}-\d\d-\d\d/), quota_counters: 'memory' });
        }
      }
      const index = await (await fetch(`${server.base}/api/v1/`)).text();
      expect(index).not.toContain('healthz');
      expect(index).not.toContain('readyz');
    } finally {
      await server.close();
      await access.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('metrics and /readyz with the quota counters down', () => {
  it('fail open: calls served uncounted are counted, Redis reads down, /readyz stays 200 and says so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'esg-metrics-'));
    const failing = async () => {
      throw new Error('ECONNREFUSED');
    };
    const down: Counters = {
      kind: 'redis',
      bucket: () => ({ increment: failing, decrement: failing, get: failing }),
      limiter: () => ({ increment: failing, decrement: failing, resetKey: failing }),
      ping: async () => false,
      close: async () => {},
    };
    const snapshots = publishedSnapshotSource(snapshotsDir());
    const metrics = createMetrics({ snapshots, redisUp: () => access.countersReachable(), processMetrics: false });
    const access = new Meter({ keys: KeyStore.open(join(dir, 'keys.sqlite')), counters: down, clock: () => T0, metrics });
    const server = await startServer(snapshotsDir(), { snapshots, access, metrics });
    const metricsServer = await startMetricsServer(metrics, 0);
    try {
      for (let i = 0; i < 7; i++) expect((await fetch(`${server.base}/api/v1/ranking?limit=1`)).status).toBe(200); // past the free 5/min: uncounted
      const ready = await fetch(`${server.base}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({ ok: true, quota_counters: 'redis', redis: 'down' });
      const samples = await scrape(metricsAddress(metricsServer));
      expect(valueOf(samples, 'esg_quota_fail_open_total')).toBe(7);
      expect(valueOf(samples, 'esg_redis_up')).toBe(0);
      expect(valueOf(samples, 'nodejs_heap_size_used_bytes'), 'process metrics off').toBeUndefined();
    } finally {
      metricsServer.close();
      metricsServer.closeAllConnections();
      await server.close();
      await access.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('metrics of the server process (METRICS_PORT), with a real Redis', () => {
  let dir: string;
  let redis: RedisServer | undefined;
  let shim: ShimProcess | undefined;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'esg-metrics-'));
    redis = await startRedis(await freePort());
  });
  afterAll(async () => {
    await shim?.stop();
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves /metrics on loopback; Redis up, then down with calls served uncounted; /readyz says redis down with a 200', async () => {
    const metricsPort = await freePort();
    shim = await startShimProcess({
      SNAPSHOTS_DIR: snapshotsDir(),
      KEYS_DB: join(dir, 'keys.sqlite'),
      REDIS_URL: redis!.url,
      METRICS_PORT: String(metricsPort),
    });
    const url = `http://127.0.0.1:${metricsPort}/metrics`;
    const start = JSON.parse(
      shim
        .log()
        .split('\n')
        .find((l) => l.includes('"listening"'))!,
    ) as Record<string, unknown>;
    expect(start).toMatchObject({ metrics: url, quota_counters: 'redis' });
    for (let i = 0; i < 4; i++) expect((await fetch(`${shim.base}/api/v1/company/D1101`)).status).toBe(200);
    let samples = await scrape(url);
    expect(valueOf(samples, 'esg_http_requests_total', { route: '/api/v1/company/{ticker}', status: '200' })).toBe(4);
    expect(valueOf(samples, 'esg_redis_up')).toBe(1);
    expect(await (await fetch(`${shim.base}/readyz`)).json()).toMatchObject({ ok: true, redis: 'up' });

    await redis!.stop();
    redis = undefined;
    for (let i = 0; i < 3; i++) expect((await fetch(`${shim.base}/api/v1/ranking?limit=1`)).status).toBe(200);
    const ready = await fetch(`${shim.base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ ok: true, quota_counters: 'redis', redis: 'down' });
    samples = await scrape(url);
    expect(valueOf(samples, 'esg_redis_up')).toBe(0);
    expect(valueOf(samples, 'esg_quota_fail_open_total')).toBe(3);
    // The process logs the connection's loss once (the meter, what it means for calls, once too).
    expect(
      shim
        .log()
        .split('\n')
        .filter((l) => l.includes('redis connection lost')),
    ).toHaveLength(1);
    expect(
      shim
        .log()
        .split('\n')
        .filter((l) => l.includes('quota counters unreachable')),
    ).toHaveLength(1);
  });
});

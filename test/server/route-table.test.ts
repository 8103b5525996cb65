import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openApiDocument } from '../../src/contract/openapi.js';
import { ROUTES, type Operation } from '../../src/contract/routes.js';
import { memoryCounters } from '../../server/access/counters.js';
import { KeyStore } from '../../server/access/key-store.js';
import { Meter } from '../../server/access/meter.js';
import { sendJson } from '../../server/http.js';
import { createMetrics } from '../../server/metrics.js';
import { HANDLERS, Router } from '../../server/router.js';
import { writeHandBuiltSnapshot } from '../helpers/hand-built-snapshot.js';
import { getJson, startServer, type RunningServer } from '../helpers/server.js';

/**
 * Adding an endpoint is one entry in the route table (README, "Adding things"): an operation added
 * here, in this test only, is routed, documented, labelled in the metrics and metered, with no
 * other file touched.
 */
const dummy: Operation = {
  id: 'dummy',
  method: 'GET',
  path: '/dummy/{ticker}',
  group: 'companies',
  summary: 'A test operation: echoes its ticker and its n (computed)',
  query: z.strictObject({ n: z.string().optional() }),
  ok: { schema: z.object({ ticker: z.string(), n: z.string().nullable() }) },
};
const table = [...ROUTES, dummy];
const router = new Router(table, {
  computed: HANDLERS.computed,
  handlers: {
    ...HANDLERS.handlers,
    dummy: ({ params, query }, ctx) => sendJson(ctx.req, ctx.res, { ticker: params.ticker, n: (query as { n?: string }).n ?? null }),
  },
});

let dir: string;
let server: RunningServer;
const metrics = createMetrics({ processMetrics: false });
let keys: KeyStore;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'esg-route-table-'));
  const snapshot = join(dir, '2026-11-01');
  writeHandBuiltSnapshot(snapshot);
  // A snapshot is its database and its tree (server/snapshot-source.ts); this one's tree is only its index.
  mkdirSync(join(snapshot, 'tree', 'api', 'v1'), { recursive: true });
  writeFileSync(join(snapshot, 'tree', 'api', 'v1', 'index.json'), '{}');
  symlinkSync('2026-11-01', join(dir, 'current'));
  keys = KeyStore.open(join(dir, 'keys.sqlite'), { maxStalenessMs: 0 });
  const access = new Meter({ keys, counters: memoryCounters(), clock: () => Date.UTC(2026, 10, 23, 10) });
  server = await startServer(dir, { router, access, metrics });
});
afterAll(async () => {
  await server?.close();
  keys?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('an operation added to the route table in a test', () => {
  it('is routed: its path and parameters reach its handler, a malformed code is the contract’s 400, another method a 405', async () => {
    const ok = await getJson(`${server.base}/api/v1/dummy/d1101?n=7`);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ ticker: 'D1101', n: '7' });
    const bad = await getJson(`${server.base}/api/v1/dummy/not!a!code?n=1`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/Malformed ticker/);
    const post = await getJson(`${server.base}/api/v1/dummy/D1101`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  it('is documented in the OpenAPI document, as a counted operation with its parameters', () => {
    const doc = JSON.parse(JSON.stringify(openApiDocument('test', undefined, table)));
    const op = doc.paths['/api/v1/dummy/{ticker}'].get;
    expect(op.operationId).toBe('dummy');
    expect(op.summary).toBe(dummy.summary);
    expect(op.tags).toEqual(['Companies']);
    expect(op.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual(['path:ticker', 'query:n']);
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '429']));
    expect(op.security).toBeDefined();
  });

  it('is labelled by its template in the metrics, never by the raw path', async () => {
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/esg_http_requests_total\{route="\/api\/v1\/dummy\/\{ticker\}",status="200"\} [1-9]/);
    expect(text).not.toMatch(/D1101/i);
  });

  it('is metered: a call with a query string is counted and private; the free tier’s sixth call in a minute is a 429', async () => {
    const statuses: number[] = [];
    let first: Awaited<ReturnType<typeof getJson>> | undefined;
    for (let i = 0; i < 6; i++) {
      const r = await getJson(`${server.base}/api/v1/dummy/D1101?n=${i}`, { headers: { 'X-Forwarded-For': '10.0.0.1' } });
      first ??= r;
      statuses.push(r.status);
    }
    expect(first!.headers.get('cache-control')).toMatch(/^private/);
    expect(first!.headers.get('ratelimit')).toMatch(/calls\/min/);
    // The earlier tests' calls came from the same address: the minute's five are spent by the sixth at the latest.
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(1);
  });
});

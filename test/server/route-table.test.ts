import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openApiDocument } from '../../src/contract/openapi.js';
import { fileForUrlPath } from '../../src/contract/api-paths.js';
import { unknownTickers } from '../../src/contract/named-errors.js';
import { ROUTES, urlOf, type Operation } from '../../src/contract/routes.js';
import { SnapshotStore } from '../../src/snapshot/store.js';
import { errorExample, type ErrorExampleFacts } from '../../build-scripts/tree/openapi-error-examples.js';
import { sharedResources, type SharedFiles } from '../../build-scripts/tree/shared-resources.js';
import { TreeFiles } from '../../build-scripts/output/tree-files.js';
import { memoryCounters } from '../../server/access/counters.js';
import { KeyStore } from '../../server/access/key-store.js';
import { Meter } from '../../server/access/meter.js';
import { sendJson } from '../../server/kit/http.js';
import { createMetrics } from '../../server/kit/metrics.js';
import { HANDLERS, Router } from '../../server/router.js';
import { writeHandBuiltSnapshot } from '../helpers/hand-built-snapshot.js';
import { getJson, startServer, type RunningServer } from '../helpers/server.js';

/**
 * Adding an endpoint is its route entry, its view and its cases (README, "Adding things"): two
 * operations added here, in this test only — one computed, one static — are written to the tree,
 * routed and served, documented, given their error cases, labelled in the metrics and metered,
 * with no other file touched. The table's own consumers take the table (and the views) as an argument.
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
/** A static operation: one file per company, written by the tree writer from its view below. */
const initials: Operation = {
  id: 'initials',
  method: 'GET',
  path: '/initials/{ticker}',
  group: 'companies',
  summary: 'A test operation: a company’s initials (static)',
  ok: { schema: z.strictObject({ ticker: z.string(), initials: z.string() }) },
  file: { missing: (p) => unknownTickers([p.ticker!]).message },
};
/** Its view: the files the tree writer writes for it. */
const initialsFiles: SharedFiles = (store) =>
  store.tickers().map((ticker) => ({ params: { ticker }, body: { ticker, initials: store.company(ticker)!.company_name.slice(0, 1) } }));

const table = [...ROUTES, dummy, initials];
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
let store: SnapshotStore;
let written: TreeFiles;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'esg-route-table-'));
  const snapshot = join(dir, '2026-11-01');
  writeHandBuiltSnapshot(snapshot);
  // A snapshot is its database and its tree (server/kit/snapshot-source.ts); this one's tree is its index and the test's own files.
  mkdirSync(join(snapshot, 'tree', 'api', 'v1'), { recursive: true });
  writeFileSync(join(snapshot, 'tree', 'api', 'v1', 'index.json'), '{}');
  store = SnapshotStore.open(snapshot);
  written = new TreeFiles(join(snapshot, 'tree'));
  written.writeAll(sharedResources(store, { initials: initialsFiles }, table));
  symlinkSync('2026-11-01', join(dir, 'current'));
  keys = KeyStore.open(join(dir, 'keys.sqlite'), { maxStalenessMs: 0 });
  const access = new Meter({ keys, counters: memoryCounters(), clock: () => Date.UTC(2026, 10, 23, 10) });
  server = await startServer(dir, { router, access, metrics });
});
afterAll(async () => {
  await server?.close();
  keys?.close();
  store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('an operation added to the route table in a test', () => {
  it('the static one is written by the tree writer from its view, one file per company, each checked by its schema', () => {
    expect(written.stats.files).toBe(store.tickers().length);
    const first = store.tickers()[0]!;
    const file = JSON.parse(readFileSync(join(dir, '2026-11-01', 'tree', fileForUrlPath(urlOf(initials, { ticker: first }))), 'utf8'));
    expect(file).toEqual({ ticker: first, initials: store.company(first)!.company_name.slice(0, 1) });
    const broken: SharedFiles = () => [{ params: { ticker: first }, body: { ticker: first } }];
    expect(() => new TreeFiles(join(dir, 'broken-tree')).writeAll(sharedResources(store, { initials: broken }, table))).toThrow(/initials/);
  });

  it('the static one is served: its file at its URL, in each spelling, and its missing resource is the table’s 404', async () => {
    const first = store.tickers()[0]!;
    for (const spelling of [first, first.toLowerCase(), `${first}.json`]) {
      const ok = await getJson(`${server.base}/api/v1/initials/${spelling}`);
      expect(ok.status, spelling).toBe(200);
      expect(ok.body.ticker).toBe(first);
    }
    const missing = await getJson(`${server.base}/api/v1/initials/ZZ9999`);
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe('Unknown ticker: ZZ9999');
    const query = await getJson(`${server.base}/api/v1/initials/${first}?x=1`);
    expect(query.status).toBe(400);
    expect(query.body.error.message).toBe('Unknown query parameter "x": /initials/{ticker} takes no query parameters.');
  });

  it('both are cased: their error examples are the shim’s answers to the requests named beside them', async () => {
    const facts: ErrorExampleFacts = {
      meta: store.meta,
      tickers: [store.tickers()[0]!, store.tickers()[1]!],
      etfCode: undefined,
      rankingPages: 1,
      changesPages: 1,
      oldestSnapshotId: store.meta.dataset_snapshot_id,
    };
    for (const [id, status] of [
      ['initials', '400'],
      ['initials', '404'],
      ['dummy', '400'],
      ['dummy', '405'],
    ] as const) {
      const example = errorExample(id, status, facts, table)!;
      const answer = await getJson(`${server.base}${example.request!.url}`, { method: example.request!.method });
      expect(answer.status, `${id} ${status}`).toBe(Number(status));
      expect({ ...answer.body, error: { ...answer.body.error, request_id: example.body.error.request_id } }, `${id} ${status}`).toEqual(example.body);
    }
  });

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

  it('is documented in the OpenAPI document, as a counted operation with its parameters; the static one as a file', () => {
    const doc = JSON.parse(JSON.stringify(openApiDocument('test', undefined, table)));
    const file = doc.paths['/api/v1/initials/{ticker}'].get;
    expect(file.operationId).toBe('initials');
    expect(file.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual(['path:ticker']);
    expect(Object.keys(file.responses)).toEqual(expect.arrayContaining(['200', '400', '404']));
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

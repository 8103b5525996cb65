import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/contract/vocabulary.js';
import { jsonLogger } from '../../server/kit/logger.js';
import { routePattern } from '../../server/kit/observe.js';
import { startMetered, type Metered } from './access/harness.js';
import { startShimProcess } from './access/processes.js';
import { rawBytes } from '../helpers/raw-http.js';
import { startServer } from '../helpers/server.js';
import { demoSnapshotsDir } from '../helpers/demo-snapshots-dir.js';

/**
 * Request logs (pino): one JSON line per request, fast path included, with the fields an
 * operator needs and never a key; LOG_LEVEL=warn turns them off.
 */
const snapshotsDir = () => demoSnapshotsDir;
type Line = Record<string, unknown>;
const parse = (lines: string[]): Line[] =>
  lines
    .join('')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Line);
const requestLines = (lines: Line[]) => lines.filter((l) => l.message === 'request' || l.message === 'request aborted');

/** Waits until `count()` reaches `n` (a line is written when its response has finished), or 2 s. */
async function until(n: number, count: () => number): Promise<void> {
  const deadline = Date.now() + 2000;
  while (count() < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
}

describe('request lines', () => {
  let m: Metered;
  let key: string;
  let spent: string;
  beforeAll(async () => {
    // One proxy hop trusted: the client address is the one it names in X-Forwarded-For.
    m = await startMetered(snapshotsDir(), { trustProxy: 1 });
    key = m.newKey('developer');
    spent = m.newKey('commercial', { daily: 1 });
  });
  afterAll(() => m.close());

  it('one line per request, JSON, with id, method, route pattern, status, duration, bytes, tier, key id, client and snapshot; never a key', async () => {
    const before = requestLines(parse(m.logs)).length;
    const sent: {
      route: string;
      status: number;
      tier: string | null;
      keyId: string | null;
      client?: string;
      requestId: string | null;
      method: string;
    }[] = [];
    const send = async (
      path: string,
      o: { route: string; status: number; key?: string; method?: string; body?: unknown; headers?: Record<string, string>; tier?: string | null },
    ) => {
      const headers: Record<string, string> = { ...o.headers };
      if (o.key) headers['X-API-Key'] = o.key;
      if (o.body !== undefined) headers['Content-Type'] = 'application/json';
      const method = o.method ?? (o.body === undefined ? 'GET' : 'POST');
      const res = await fetch(m.base + path, { method, headers, body: o.body === undefined ? undefined : JSON.stringify(o.body) });
      await res.arrayBuffer();
      expect(res.status, path).toBe(o.status);
      const tier = o.tier !== undefined ? o.tier : o.key ? 'developer' : null;
      sent.push({
        route: o.route,
        status: o.status,
        tier,
        keyId: tier && o.key ? o.key.slice(4, 14) : null,
        client: headers['X-Forwarded-For'],
        requestId: res.headers.get('x-request-id'),
        method,
      });
    };
    for (let round = 0; round < 3; round++) {
      await Promise.all([
        send('/api/v1/company/D1101', { route: '/api/v1/company/{ticker}', status: 200 }), // the fast path
        send('/api/v1/company/d1101/canonical', { route: '/api/v1/company/{ticker}/canonical', status: 200 }), // Express
        send('/api/v1/company/D1101/canonical?fields=flags', { route: '/api/v1/company/{ticker}/canonical', status: 200, key }),
        send('/api/v1/ranking?limit=2', { route: '/api/v1/ranking', status: 200, key }),
        send('/api/v1/batch', { route: '/api/v1/batch', status: 200, key, body: { tickers: ['D1101', 'D1102'] } }),
        send('/api/v1/usage', { route: '/api/v1/usage', status: 200, key }),
        send('/api/v1/ranking?limit=1', {
          route: '/api/v1/ranking',
          status: 200,
          tier: 'free',
          headers: { 'X-Forwarded-For': `203.0.113.${round + 1}` },
        }),
        send('/api/v1/ranking?limit=1', { route: '/api/v1/ranking', status: 401, key: `${key.slice(0, -2)}xx`, tier: null }),
        send('/company/D1101/', { route: '/company/{ticker}/', status: 200 }),
        send('/api/v1/nope', { route: 'unknown', status: 404 }),
        send('/api/v1/company/ZZZ99', { route: '/api/v1/company/{ticker}', status: 404 }),
        send('/api/v1/company/D1101', { route: '/api/v1/company/{ticker}', status: 200, method: 'HEAD' }),
        send('/healthz', { route: '/healthz', status: 200 }),
      ]);
    }
    // A spent quota: the 429 is logged like any other answer.
    await send('/api/v1/ranking?limit=1', { route: '/api/v1/ranking', status: 200, key: spent, tier: 'commercial' });
    await send('/api/v1/ranking?limit=1', { route: '/api/v1/ranking', status: 429, key: spent, tier: 'commercial' });

    await until(before + sent.length, () => requestLines(parse(m.logs)).length);
    const lines = requestLines(parse(m.logs)).slice(before);
    expect(lines).toHaveLength(sent.length);
    const byId = new Map(lines.map((l) => [l.request_id, l]));
    expect(byId.size).toBe(sent.length);
    const snapshot = (await (await fetch(`${m.base}/readyz`)).json()).dataset_snapshot_id;
    for (const s of sent) {
      const line = byId.get(s.requestId)!;
      expect(line, `${s.method} ${s.route}`).toBeDefined();
      expect(line).toMatchObject({ level: 'info', method: s.method, route: s.route, status: s.status, tier: s.tier, key_id: s.keyId, snapshot });
      expect(line.client).toBe(s.client ?? '127.0.0.1');
      expect(line.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(line.duration_ms).toEqual(expect.any(Number));
      expect(line.duration_ms as number).toBeGreaterThanOrEqual(0);
      // Bytes sent for the response, headers included: more than its headers for a body, some for a HEAD.
      expect(line.bytes as number).toBeGreaterThan(s.method === 'HEAD' ? 200 : 400);
    }
    const everything = m.logs.join('');
    for (const k of [key, spent]) {
      expect(everything).not.toContain(k);
      expect(everything).not.toContain(k.slice(15)); // the secret part alone
    }
  });

  it('a request whose client hangs up before the answer: "request aborted", no status', async () => {
    const before = requestLines(parse(m.logs)).length;
    const { connect } = await import('node:net');
    const socket = connect(Number(new URL(m.base).port), '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    socket.write('POST /api/v1/batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"tickers":');
    await new Promise((r) => setTimeout(r, 100));
    socket.destroy();
    await until(before + 1, () => requestLines(parse(m.logs)).length);
    const [line] = requestLines(parse(m.logs)).slice(before);
    expect(line).toMatchObject({
      message: 'request aborted',
      method: 'POST',
      route: '/api/v1/batch',
      status: null,
      tier: 'free',
      client: '127.0.0.1',
    });
  });

  it('requests the HTTP parser refuses (unknown method, oversized headers, not HTTP) get a line too, with their request id', async () => {
    const raw = (bytes: string) => rawBytes(m.base, bytes);
    const refused = (l: Line) => l.message === 'request refused';
    const before = parse(m.logs).filter(refused).length;
    const answers = [
      await raw('FOO /api/v1/ranking HTTP/1.1\r\nHost: x\r\n\r\n'),
      await raw(`GET /api/v1/ranking HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(4 * (LIMITS.urlBytes + LIMITS.headerBytes) + 1000)}\r\n\r\n`),
      await raw('\x16\x03\x01 not http at all\r\n\r\n'),
    ];
    const expected = answers.map((a) => ({ status: Number(a.slice(9, 12)), requestId: /x-request-id: (\S+)/i.exec(a)?.[1] }));
    expect(expected.map((e) => e.status)).toEqual([405, 431, 400]);
    await until(before + 3, () => parse(m.logs).filter(refused).length);
    const lines = parse(m.logs).filter(refused).slice(before);
    expect(lines).toHaveLength(3);
    const snapshot = (await (await fetch(`${m.base}/readyz`)).json()).dataset_snapshot_id;
    expected.forEach((e, i) => {
      expect(lines[i]).toMatchObject({
        level: 'info',
        request_id: e.requestId,
        method: null,
        route: 'unknown',
        status: e.status,
        client: '127.0.0.1',
        snapshot,
      });
      expect(lines[i]!.bytes as number).toBeGreaterThan(200);
    });
  });

  it('LOG_LEVEL=warn (the logger at warn) writes no request lines', async () => {
    const lines: string[] = [];
    const s = await startServer(snapshotsDir(), { logger: jsonLogger((l) => lines.push(l), 'warn') });
    try {
      for (const path of ['/api/v1/company/D1101', '/api/v1/ranking?limit=1', '/company/D1101/', '/api/v1/nope'])
        await (await fetch(s.base + path)).arrayBuffer();
      await new Promise((r) => setTimeout(r, 50));
      expect(requestLines(parse(lines))).toEqual([]);
    } finally {
      await s.close();
    }
  });
});

describe('logs of the server process', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'esg-logging-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('stderr carries a start-up line and a line per request; LOG_LEVEL=warn silences the request lines', async () => {
    const env = { SNAPSHOTS_DIR: snapshotsDir(), KEYS_DB: join(dir, 'keys.sqlite') };
    const paths = ['/api/v1/company/D1101', '/api/v1/company/D1101/canonical', '/api/v1/ranking?limit=3', '/ranking/', '/api/v1/nope'];
    for (const level of ['info', 'warn'] as const) {
      const shim = await startShimProcess({ ...env, LOG_LEVEL: level });
      try {
        for (const path of paths) await (await fetch(shim.base + path)).arrayBuffer();
        const notReadiness = () => requestLines(parse([shim.log()])).filter((l) => l.route !== '/readyz');
        if (level === 'info') {
          await until(paths.length, () => notReadiness().length);
          expect(notReadiness().map((l) => l.route)).toEqual([
            '/api/v1/company/{ticker}',
            '/api/v1/company/{ticker}/canonical',
            '/api/v1/ranking',
            '/ranking/',
            'unknown',
          ]);
          expect(parse([shim.log()]).find((l) => l.message === 'listening')).toMatchObject({
            level: 'info',
            quota_counters: 'memory',
            log_level: 'info',
          });
        } else {
          await new Promise((r) => setTimeout(r, 200));
          expect(requestLines(parse([shim.log()]))).toEqual([]);
        }
      } finally {
        await shim.stop();
      }
    }
  });
});

describe('the request line', () => {
  it('has the shape of every other line, and escapes any string that is not plain', () => {
    const lines: string[] = [];
    const logger = jsonLogger((l) => lines.push(l));
    logger.info('event', { a: 1 });
    const hostile = 'a"b\\c\n{"level":"error"}\u2028é';
    logger.request!(
      {
        request_id: hostile,
        method: 'GET',
        route: '/api/v1/ranking',
        status: null,
        duration_ms: 1.5,
        bytes: 10,
        tier: 'free',
        key_id: null,
        client: hostile,
        snapshot: '2026-10-01.2',
      },
      'request',
    );
    const [event, line] = parse(lines);
    expect(lines).toHaveLength(2);
    expect(Object.keys(line!).slice(0, 3)).toEqual(Object.keys(event!).slice(0, 3)); // level, time, pid
    expect(line).toEqual({
      level: 'info',
      time: expect.any(String),
      pid: process.pid,
      request_id: hostile,
      method: 'GET',
      route: '/api/v1/ranking',
      status: null,
      duration_ms: 1.5,
      bytes: 10,
      tier: 'free',
      key_id: null,
      client: hostile,
      snapshot: '2026-10-01.2',
      message: 'request',
    });
  });

  it('is not written, and costs nothing to prepare, when info is off', () => {
    expect(jsonLogger(() => {}, 'warn').request).toBeUndefined();
    expect(jsonLogger(() => {}, 'debug').request).toBeDefined();
  });
});

describe('route patterns', () => {
  it('name the route, never the codes in it, and stay within a fixed set', () => {
    const cases: [string, string][] = [
      ['/api/v1/', '/api/v1/'],
      ['/api/v1', '/api/v1/'],
      ['/api/v1/index.json', '/api/v1/'],
      ['/api/v1/company/D1101', '/api/v1/company/{ticker}'],
      ['/api/v1/company/D1101.json?x=1', '/api/v1/company/{ticker}'],
      ['/api/v1/company/D1101/history', '/api/v1/company/{ticker}/history'],
      ['/api/v1/etf/DE5001', '/api/v1/etf/{code}'],
      ['/api/v1/ranking/page/3', '/api/v1/ranking/page/{page}'],
      ['/api/v1/changes?cause=penalty_new', '/api/v1/changes'],
      ['/api/v1/openapi.json', '/api/v1/openapi.json'],
      ['/api/v1/openapi', '/api/v1/openapi.json'],
      ['/api/v1/snapshots/2026-09-01', '/api/v1/snapshots/{id}/{path}'],
      ['/api/v1/downloads/2026-10-01', '/api/v1/downloads/{id}'],
      ['/api/v1/feed.atom', '/api/v1/feed.atom'],
      ['/api/v1/sources/registry', '/api/v1/sources/registry'],
      ['/api/v1/downloads/2026-10-01/snapshot.sqlite', '/api/v1/downloads/{id}/{file}'],
      ['/api/v1/snapshots/2026-09-01/company/D1101/canonical', '/api/v1/snapshots/{id}/{path}'],
      ['/api/v1/secret/D1101', 'unknown'],
      ['/', '/'],
      ['/company/D1101/', '/company/{ticker}/'],
      ['/company/d1101', '/company/{ticker}/'],
      ['/ranking/page/2/', '/ranking/page/{page}/'],
      ['/ranking/industry/01/', '/ranking/industry/{value}/'],
      ['/ranking/flag/GF-D01/page/2/', '/ranking/flag/{value}/page/{page}/'],
      ['/assets/site.css', '/assets/{file}'],
      ['/healthz', '/healthz'],
      ['/mcp', '/mcp'],
      ['/mcp?x=1', '/mcp'],
      ['/mcp/', 'page'],
      ['/wp-admin/setup.php', 'page'],
      // The Traditional Chinese pages: the English page's pattern under the language's prefix.
      ['/zh-TW/', '/zh-TW/'],
      ['/zh-TW/company/D1101/', '/zh-TW/company/{ticker}/'],
      ['/zh-TW/ranking/industry/01/page/2/', '/zh-TW/ranking/industry/{value}/page/{page}/'],
      ['/zh-TW/404.html', '/zh-TW/404.html'],
      ['/zh-TW/wp-admin/setup.php', 'page'],
      // The keys page's flow: a mailed link's token is in its query string, never in the label.
      ['/keys/', '/keys/'],
      ['/keys/ask', '/keys/ask'],
      ['/keys/link?t=aGVsbG8taGVsbG8taGVsbG8taGVsbG8taGVsbG8taGVsbG8', '/keys/link'],
      ['/zh-TW/keys/manage', '/zh-TW/keys/manage'],
    ];
    for (const [url, route] of cases) expect(routePattern(url), url).toBe(route);
  });
});

import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../src/contract/common.js';
import { currentSnapshotDir, currentSnapshotId } from '../../src/snapshot/published.js';
import { SnapshotStore } from '../../src/snapshot/store.js';
import type { SnapshotSource } from '../../server/kit/snapshot-source.js';
import { expectEnvelope, raw, rawBytes } from '../helpers/raw-http.js';
import { getJson, startServer, type RunningServer } from '../helpers/server.js';
import { demoSnapshotsDir } from '../helpers/demo-snapshots-dir.js';
import { linkCopy } from '../helpers/link-copy.js';

let server: RunningServer;
let snapshotsDir: string;

beforeAll(async () => {
  snapshotsDir = demoSnapshotsDir;
  server = await startServer(snapshotsDir);
});
afterAll(() => server.close());

describe('every error path returns the envelope', () => {
  const cases: [string, string, number, string, RegExp?][] = [
    ['malformed ticker', '/api/v1/company/D11-01', 400, 'BAD_REQUEST', /letters or digits/],
    ['ticker too long', '/api/v1/company/D1234567890123', 400, 'BAD_REQUEST'],
    ['malformed ticker on canonical', '/api/v1/company/%E5%8F%B0/canonical', 400, 'BAD_REQUEST'],
    ['malformed fund code', '/api/v1/etf/DE_5001', 400, 'BAD_REQUEST'],
    ['unknown ticker', '/api/v1/company/d9999', 404, 'NOT_FOUND', /D9999/],
    ['unknown ticker canonical', '/api/v1/company/Z1/canonical', 404, 'NOT_FOUND', /Z1/],
    ['unknown fund', '/api/v1/etf/de9999', 404, 'NOT_FOUND', /DE9999/],
    ['unknown path', '/api/v1/nothing/here', 404, 'NOT_FOUND'],
    ['unknown sub-path', '/api/v1/company/D1101/penalties', 404, 'NOT_FOUND'],
    // Outside /api the pages for people answer (an HTML 404 for unknown pages, see test/site/).
    ['another API version', '/api/v2/company/D1101', 404, 'NOT_FOUND'],
    ['ranking page past the end', '/api/v1/ranking/page/999', 404, 'NOT_FOUND'],
    ['malformed ranking page', '/api/v1/ranking/page/0', 400, 'BAD_REQUEST'],
    ['parameter on a static resource', '/api/v1/company/D1101?x=1', 400, 'BAD_REQUEST', /"x"/],
    ['bad parameter value', '/api/v1/ranking?limit=201', 400, 'BAD_REQUEST', /limit/],
    ['repeated parameter', '/api/v1/ranking?sort=score_asc&sort=score_desc', 400, 'BAD_REQUEST', /sort/],
    ['unknown download snapshot', '/api/v1/downloads/2001-01-01/SHA256SUMS', 404, 'NOT_FOUND'],
    ['malformed download snapshot', '/api/v1/downloads/latest/SHA256SUMS', 400, 'BAD_REQUEST'],
  ];
  it.each(cases)('%s', async (_name, path, status, code, message) => {
    const r = await raw(server.base, path);
    const body = expectEnvelope(r, status, code);
    if (message) expect(body.error.message).toMatch(message);
    expect(body.dataset_snapshot_id).toBe(currentSnapshotId(snapshotsDir));
  });

  it('wrong method: 405 with Allow', async () => {
    const r = await raw(server.base, '/api/v1/company/D1101', 'DELETE');
    expectEnvelope(r, 405, 'METHOD_NOT_ALLOWED');
    expect(r.headers.allow).toBe('GET, HEAD, OPTIONS');
    const post = await raw(server.base, '/api/v1/batch', 'GET');
    expectEnvelope(post, 405, 'METHOD_NOT_ALLOWED');
    expect(post.headers.allow).toBe('POST, OPTIONS');
  });

  it('errors raised inside the body parser: bad JSON, wrong type, too large', async () => {
    const json = { 'Content-Type': 'application/json' };
    expectEnvelope(await raw(server.base, '/api/v1/batch', 'POST', json, '{"tickers": ['), 400, 'BAD_REQUEST');
    expectEnvelope(await raw(server.base, '/api/v1/batch', 'POST', { 'Content-Type': 'text/plain' }, '{"tickers":["D1101"]}'), 400, 'BAD_REQUEST');
    const big = JSON.stringify({ tickers: Array(20_000).fill('D1101') });
    expect(big.length).toBeGreaterThan(64 * 1024);
    expectEnvelope(await raw(server.base, '/api/v1/batch', 'POST', json, big), 413, 'PAYLOAD_TOO_LARGE');
    expectEnvelope(await raw(server.base, '/api/v1/batch', 'POST', { ...json, 'Content-Encoding': 'br' }, 'xx'), 400, 'BAD_REQUEST');
  });

  it('HEAD of an error has the status and headers but no body', async () => {
    const r = await raw(server.base, '/api/v1/company/D9999', 'HEAD');
    expect(r.status).toBe(404);
    expect(r.text).toBe('');
    expect(r.headers['x-request-id']).toBeTruthy();
  });

  it.each([
    '/api/v1/../../../../etc/passwd',
    '/api/v1/company/..%2F..%2F..%2Fsnapshot.sqlite',
    '/api/v1/company/%2e%2e/%2e%2e/snapshot.sqlite',
    '/api/v1/downloads/2026-11-01/..%2F..%2Fsnapshot.sqlite',
    '/api/v1/downloads/2026-11-01/.build.lock',
    '/api/v1/company/D1101/..%2f..%2f..%2fsnapshot',
    '/api/v1//etc/passwd',
    '/api/v1/%00',
  ])('never serves anything outside the tree: %s', async (path) => {
    const r = await raw(server.base, path);
    expect([400, 404]).toContain(r.status);
    expectEnvelope(r, r.status, r.status === 400 ? 'BAD_REQUEST' : 'NOT_FOUND');
    expect(r.text).not.toContain('root:');
    expect(r.text).not.toContain('SQLite format');
  });
});

describe('a snapshot that cannot be read', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'esg-broken-'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('nothing published: 502 UPSTREAM_FAILURE with null snapshot fields, /readyz 503, /healthz 200', async () => {
    const s = await startServer(join(root, 'empty'));
    try {
      const body = expectEnvelope(await raw(s.base, '/api/v1/company/D1101'), 502, 'UPSTREAM_FAILURE');
      expect(body.dataset_snapshot_id).toBeNull();
      expect((await getJson(`${s.base}/readyz`)).status).toBe(503);
      expect((await getJson(`${s.base}/healthz`)).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  it('a corrupt database: 502, and the server keeps running', async () => {
    const dir = join(root, 'corrupt');
    // The whole snapshot, its tree shared (only read), its database copied and then overwritten.
    linkCopy(currentSnapshotDir(snapshotsDir)!, join(dir, 'bad'), { copied: ['snapshot.sqlite'], shared: ['tree'] });
    writeFileSync(join(dir, 'bad', 'snapshot.sqlite'), 'this is not a database');
    symlinkSync('bad', join(dir, 'current'));
    const s = await startServer(dir);
    try {
      expectEnvelope(await raw(s.base, '/api/v1/company/D1101'), 502, 'UPSTREAM_FAILURE');
      expectEnvelope(await raw(s.base, '/api/v1/ranking?limit=5'), 502, 'UPSTREAM_FAILURE');
      expect((await getJson(`${s.base}/healthz`)).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  it('a bug inside a handler: 500 INTERNAL with a generic message, logged with its request id', async () => {
    const store = SnapshotStore.open(currentSnapshotDir(snapshotsDir)!);
    const logged: Record<string, unknown>[] = [];
    const failing: SnapshotSource = {
      root: snapshotsDir,
      current: () =>
        new Proxy(store, {
          get: (target, prop) =>
            prop === 'facts'
              ? () => {
                  throw new Error('SELECT boom FROM secret_table');
                }
              : Reflect.get(target, prop),
        }),
      unready: () => null,
      readFailed: () => {},
      fileMissing: () => {},
      close: () => store.close(),
    };
    const s = await startServer(snapshotsDir, {
      snapshots: failing,
      logger: { info() {}, warn() {}, error: (_m, f) => logged.push(f ?? {}) },
    });
    try {
      const r = await raw(s.base, '/api/v1/company/D1101/canonical?fields=flags');
      const body = expectEnvelope(r, 500, 'INTERNAL');
      expect(body.error.message).not.toContain('boom');
      expect(logged[0]?.request_id).toBe(body.error.request_id);
    } finally {
      await s.close();
    }
  });
});

function envelopeOf(text: string) {
  return errorBodySchema.parse(JSON.parse(Buffer.from(text.slice(text.indexOf('\r\n\r\n') + 4), 'latin1').toString('utf8')));
}

describe('requests over the size limits, and requests the HTTP parser rejects', () => {
  it('headers over 16 KiB together answer 431 in the envelope', async () => {
    expectEnvelope(await raw(server.base, '/api/v1/company/D1101', 'GET', { 'X-Big': 'a'.repeat(20_000) }), 431, 'HEADERS_TOO_LARGE');
    expectEnvelope(await raw(server.base, '/api/v1/ranking?limit=5', 'GET', { 'X-Big': 'a'.repeat(20_000) }), 431, 'HEADERS_TOO_LARGE');
  });

  it('headers beyond what the parser reads at all still answer 431, and the client reads the answer', async () => {
    for (let i = 0; i < 5; i++) {
      const text = await rawBytes(server.base, `GET /api/v1/company/D1101 HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(200_000)}\r\n\r\n`);
      expect(text).toMatch(/^HTTP\/1\.1 431 /);
      expect(envelopeOf(text).error.code).toBe('HEADERS_TOO_LARGE');
    }
  });

  it('a URL over 8 KiB answers 414 in the envelope', async () => {
    expectEnvelope(await raw(server.base, `/api/v1/ranking?q=${'a'.repeat(9000)}`), 414, 'URI_TOO_LONG');
    expectEnvelope(await raw(server.base, `/api/v1/company/${'D'.repeat(60_000)}`), 414, 'URI_TOO_LONG');
  });

  it('a request line beyond everything the parser reads is still answered in the envelope, not dropped', async () => {
    // Past the parser's own bound Node cannot say whether the URL or the headers overflowed it.
    const text = await rawBytes(server.base, `GET /api/v1/ranking?q=${'a'.repeat(200_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(text).toMatch(/^HTTP\/1\.1 (414|431) /);
    expect(['URI_TOO_LONG', 'HEADERS_TOO_LARGE']).toContain(envelopeOf(text).error.code);
  });

  it('a method the server does not know answers 405 with Allow in the envelope', async () => {
    const text = await rawBytes(server.base, 'FOO /api/v1/company/D1101 HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(text).toMatch(/^HTTP\/1\.1 405 /);
    expect(text).toMatch(/\r\nAllow: GET, HEAD, POST, OPTIONS\r\n/);
    expect(envelopeOf(text).error.code).toBe('METHOD_NOT_ALLOWED');
  });

  it('bytes that are not HTTP get the envelope', async () => {
    const text = await rawBytes(server.base, 'NOT HTTP AT ALL\r\n\r\n');
    expect(text).toMatch(/^HTTP\/1\.1 400/);
    const body = envelopeOf(text);
    expect(body.error.code).toBe('BAD_REQUEST');
    expect(text).toContain(`X-Request-Id: ${body.error.request_id}`);
  });
});

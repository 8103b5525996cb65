import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/contract/vocabulary.js';
import { expectEnvelope, rawBytes } from '../helpers/raw-http.js';
import { freePort } from '../server/access/processes.js';
import { NGINX, startNginx, startShim, type Nginx, type Shim } from './front.js';
import { demoSnapshotsDir } from '../helpers/demo-snapshots-dir.js';

/**
 * The errors the nginx front answers itself, each on an API path, each in the API's
 * envelope (contract 2) with `Content-Type: application/json`, `Cache-Control: no-store`, CORS and
 * a request id equal to the body's; never nginx's HTML page. Where nginx's own status has no code in
 * the contract, the answer is the shim's for the same failure (build-scripts/deploy/nginx-errors.ts).
 * Real failures: a request nginx refuses, no shim listening (502), and a shim stopped with SIGSTOP,
 * which accepts connections and answers nothing (504, after a 2 s upstream timeout).
 */
let dir: string;
let shim: Shim;
let refused: Nginx;
let hung: Nginx;

beforeAll(async () => {
  if (!NGINX) return;
  dir = mkdtempSync(join(tmpdir(), 'esg-front-errors-'));
  const snapshotsDir = demoSnapshotsDir;
  shim = await startShim({ SNAPSHOTS_DIR: snapshotsDir, KEYS_DB: join(dir, 'keys.sqlite'), TRUST_PROXY: 'loopback', LOG_LEVEL: 'warn' });
  refused = await startNginx(join(dir, 'refused'), snapshotsDir, [`127.0.0.1:${await freePort()}`]);
  hung = await startNginx(join(dir, 'hung'), snapshotsDir, [`127.0.0.1:${shim.port}`], { upstreamTimeoutS: 2 });
}, 120_000);
afterAll(async () => {
  shim?.child.kill('SIGCONT');
  await refused?.stop();
  await hung?.stop();
  await shim?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** An HTTP/1.1 answer as received: status, headers (lower-case names), body. */
function parse(raw: string): { status: number; headers: Record<string, string>; text: string } {
  const end = raw.indexOf('\r\n\r\n');
  const [statusLine, ...lines] = raw.slice(0, end).split('\r\n');
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine!)?.[1]), headers, text: raw.slice(end + 4) };
}

describe.skipIf(!NGINX)('nginx’s own errors on API paths: the envelope', () => {
  const big = (n: number) => 'a'.repeat(n);
  const cases: [string, string, number, string][] = [
    ['400: a request nginx cannot parse (HTTP/1.1 without Host)', 'GET /api/v1/company/D1101 HTTP/1.1\r\n\r\n', 400, 'BAD_REQUEST'],
    [
      '413: a body over what nginx takes',
      `POST /api/v1/batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${LIMITS.bodyBytes * 4}\r\n\r\n`,
      413,
      'PAYLOAD_TOO_LARGE',
    ],
    ['414: a request line over nginx’s buffers', `GET /api/v1/company/${big(40_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 414, 'URI_TOO_LONG'],
    [
      '431 (nginx’s 494): headers over its buffers',
      `GET /api/v1/company/D1101 HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 10 }, (_, i) => `X-Big-${i}: ${big(30_000)}`).join('\r\n')}\r\n\r\n`,
      431,
      'HEADERS_TOO_LARGE',
    ],
    [
      '501: a Transfer-Encoding nginx does not implement, the shim’s 400',
      'POST /api/v1/batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: gzip\r\n\r\n',
      400,
      'BAD_REQUEST',
    ],
  ];
  for (const [name, request, status, code] of cases) {
    it(name, async () => {
      const answer = parse(await rawBytes(refused.base, request));
      expectEnvelope(answer, status, code);
      expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    });
  }

  it('502: no shim listening, for a GET and a POST', async () => {
    for (const init of [{}, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"tickers":["D1101"]}' }]) {
      const res = await fetch(`${refused.base}/api/v1/${init.method ? 'batch' : 'ranking?limit=2'}`, init);
      const body = expectEnvelope({ status: res.status, headers: res.headers, text: await res.text() }, 502, 'UPSTREAM_FAILURE');
      expect(body.dataset_snapshot_id).toBeNull();
    }
    // The files are nginx's own: still served.
    expect((await fetch(`${refused.base}/api/v1/company/D1101`)).status).toBe(200);
  });

  it('504: a shim that accepts and never answers (stopped), the contract’s 502 saying so', async () => {
    expect((await fetch(`${hung.base}/api/v1/ranking?limit=2`)).status).toBe(200);
    shim.child.kill('SIGSTOP');
    try {
      const started = performance.now();
      const res = await fetch(`${hung.base}/api/v1/ranking?limit=3`);
      const body = expectEnvelope({ status: res.status, headers: res.headers, text: await res.text() }, 502, 'UPSTREAM_FAILURE');
      expect(body.error.message).toBe('No API server answered within 2 s; try again shortly.');
      expect(performance.now() - started).toBeGreaterThan(1900);
      expect(hung.errorLog()).toMatch(/upstream timed out/);
    } finally {
      shim.child.kill('SIGCONT');
    }
  });

  it('the error locations are no URLs of their own: asked for from outside, the shim’s miss', async () => {
    const res = await fetch(`${hung.base}/.esg-error/400`);
    expect([res.status, res.headers.get('content-type')]).toEqual([404, 'text/html; charset=utf-8']);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEnvelope, raw } from '../helpers/raw-http.js';
import { startServer, type RunningServer } from '../helpers/server.js';
import { demoSnapshotsDir } from '../helpers/demo-snapshots-dir.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer(demoSnapshotsDir);
});
afterAll(() => server.close());

/**
 * Paths that only read answer other methods with 405 and `Allow` (contract 2), not the 404 that
 * says the path does not exist: the envelope where machines ask (the API, the health
 * paths), plain words on the pages people read.
 */
describe('methods a path does not take', () => {
  it.each([
    ['POST', '/healthz'],
    ['PUT', '/readyz'],
    ['DELETE', '/healthz'],
    ['PATCH', '/readyz'],
  ])('%s %s: 405 in the envelope, Allow GET, HEAD, OPTIONS', async (method, path) => {
    // Content-Length: Node's client sends a DELETE's body unframed otherwise.
    const r = await raw(server.base, path, method, { 'Content-Type': 'application/json', 'Content-Length': '2' }, '{}');
    const body = expectEnvelope(r, 405, 'METHOD_NOT_ALLOWED');
    expect(r.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(body.error.message).toContain(method);
  });

  it.each([
    ['POST', '/company/D1101/', 'GET or HEAD'],
    ['DELETE', '/ranking/', 'GET or HEAD'],
    ['PUT', '/', 'GET or HEAD'],
    ['POST', '/company/d1101', 'GET or HEAD'], // what GET redirects to a page is that page
    ['POST', '/zh-TW/company/D1101/', '僅能以 GET 或 HEAD 讀取'],
  ])('%s on the page %s: 405 with Allow and a plain-text body in its language', async (method, path, words) => {
    const r = await raw(server.base, path, method, { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': '3' }, 'q=1');
    expect(r.status).toBe(405);
    expect(r.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(r.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.headers['x-request-id']).toBeTruthy();
    expect(r.text).toContain(words);
  });

  it('a path that is no page stays a 404, whatever the method', async () => {
    expectEnvelope(await raw(server.base, '/no/such/page/', 'POST'), 404, 'NOT_FOUND');
    expectEnvelope(await raw(server.base, '/../etc/passwd', 'DELETE'), 404, 'NOT_FOUND');
  });

  it('the API keeps its own 405s, and GET, HEAD and OPTIONS still answer where they did', async () => {
    const api = await raw(server.base, '/api/v1/company/D1101', 'POST', { 'Content-Type': 'application/json' }, '{}');
    expectEnvelope(api, 405, 'METHOD_NOT_ALLOWED');
    expect(api.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect((await raw(server.base, '/healthz')).status).toBe(200);
    expect((await raw(server.base, '/readyz', 'HEAD')).status).toBe(200);
    expect((await raw(server.base, '/company/D1101/', 'HEAD')).status).toBe(200);
    expect((await raw(server.base, '/healthz', 'OPTIONS')).status).toBe(204);
  });
});

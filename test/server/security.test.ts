import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/app.js';
import { createHttpServer } from '../../server/serve.js';
import { publishedSnapshotSource } from '../../server/kit/snapshot-source.js';
import { DOCS_PAGE_CSP, PAGE_CSP, SECURITY_HEADERS } from '../../src/contract/security.js';
import { startServer, type RunningServer } from '../helpers/server.js';
import { demoSnapshotsDir } from '../helpers/demo-snapshots-dir.js';

/**
 * Hardening: security headers on every response, a strict Content-Security-Policy on the
 * pages (the browser tests load every page type with it on and fail on any violation), and request
 * timeouts that close a stalled client's socket.
 */
let server: RunningServer;
let id: string;
beforeAll(async () => {
  server = await startServer(demoSnapshotsDir);
  id = server.source.current().meta.dataset_snapshot_id;
});
afterAll(async () => server?.close());

const headersOf = async (path: string, init?: RequestInit) => {
  const res = await fetch(server.base + path, init);
  await res.arrayBuffer();
  return res;
};

describe('security headers', () => {
  it('every JSON answer, success or error, static or computed, fast path or not, carries them', async () => {
    for (const path of [
      '/api/v1/company/D1101',
      '/api/v1/company/d1101.json',
      '/api/v1/ranking?limit=2',
      '/api/v1/company/ZZ9999',
      '/api/v1/nope',
      `/api/v1/downloads/${id}/SHA256SUMS`,
    ]) {
      const res = await headersOf(path);
      for (const [k, v] of Object.entries(SECURITY_HEADERS)) expect(res.headers.get(k), `${path} ${k}`).toBe(v);
    }
    // An open API: other sites' scripts may read it (CORS *), so resources are cross-origin readable.
    expect(SECURITY_HEADERS['Cross-Origin-Resource-Policy']).toBe('cross-origin');
    expect(SECURITY_HEADERS['Content-Security-Policy']).toBe("default-src 'none';frame-ancestors 'none'");
    expect(SECURITY_HEADERS['X-Content-Type-Options']).toBe('nosniff');
  });

  it('pages get the strict page policy; the API reference alone allows inline styles (Scalar injects them)', async () => {
    for (const path of ['/', '/company/D1101/', '/ranking/', '/methodology/', '/downloads/', '/research/', `/api/v1/downloads/${id}/`]) {
      expect((await headersOf(path)).headers.get('content-security-policy'), path).toBe(PAGE_CSP);
    }
    expect((await headersOf('/missing/')).headers.get('content-security-policy')).toBe(PAGE_CSP);
    expect((await headersOf('/docs/')).headers.get('content-security-policy')).toBe(DOCS_PAGE_CSP);
    expect((await headersOf('/docs/index.html')).headers.get('content-security-policy')).toBe(DOCS_PAGE_CSP);
    expect(PAGE_CSP).toContain("script-src 'self';");
    expect(PAGE_CSP).toContain("style-src 'self';");
    expect(PAGE_CSP).not.toContain('unsafe');
  });
});

describe('request timeouts', () => {
  /** A shim with short timeouts; a raw socket that sends `bytes` and then nothing. */
  async function stall(bytes: string): Promise<{ answer: string; ms: number }> {
    const source = publishedSnapshotSource(demoSnapshotsDir);
    const http = createHttpServer(createApp({ snapshots: source }), source, { headersMs: 300, requestMs: 600, keepAliveMs: 5000 });
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    const { port } = http.address() as AddressInfo;
    const started = Date.now();
    try {
      return await new Promise((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
        let answer = '';
        socket.on('data', (d) => (answer += d.toString('latin1')));
        socket.on('close', () => resolve({ answer, ms: Date.now() - started }));
        socket.on('error', reject);
        setTimeout(() => reject(new Error('the server kept a stalled socket open')), 5000).unref();
      });
    } finally {
      http.closeAllConnections();
      await new Promise((r) => http.close(r));
      source.close();
    }
  }

  it('headers that never end: 408 and the socket closed', async () => {
    const { answer, ms } = await stall('GET /api/v1/company/D1101 HTTP/1.1\r\nHost: x\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(ms).toBeLessThan(3000);
  });

  it('a body that never ends: 408 and the socket closed', async () => {
    const { answer, ms } = await stall(
      'POST /api/v1/batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"tickers":',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(ms).toBeLessThan(3000);
  });
});

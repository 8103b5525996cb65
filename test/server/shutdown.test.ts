import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, get } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentSnapshotDir } from '../../src/snapshot/published.js';
import { listensOn, rawRequest, watchShim } from './shim-process.js';
import { demoSnapshotsDir } from '../helpers/demo-snapshots-dir.js';

/**
 * Graceful shutdown (server/shutdown.ts), tried the way supervisors do it: SIGTERM to `npm start`
 * (systemd and `docker stop` signal the main process) and to node itself, while 150 downloads are
 * being read slowly. /readyz says 503 at once; for the drain the server keeps accepting and answers
 * with `Connection: close`; then it stops listening. Every response that had started completes
 * with all its bytes, the log says how many were drained, and the exit code is 0 within the
 * drain and the grace; with a grace too short for stalled requests, the exit code is 1 and the
 * log says how many were cut; a second signal exits at once. 200 requests in flight and 200
 * connections queued: shutdown-drain.test.ts.
 */
const snapshotsDir = () => demoSnapshotsDir;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'esg-shutdown-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The shim as `npm start` or node runs it; downloads capped well above this file's 150 at once. */
const startShim = (how: 'npm start' | 'node', env: Record<string, string> = {}) =>
  watchShim(how, { SNAPSHOTS_DIR: snapshotsDir(), KEYS_DB: join(dir, 'keys.sqlite'), DOWNLOADS_PER_CLIENT: '400', DOWNLOADS_MAX: '400', ...env });

interface Download {
  /** Resolves when the response's headers have arrived. */
  started: Promise<void>;
  done: Promise<{ status?: number; declared?: number; length: number; sha256: string; complete: boolean; error?: string }>;
}

/** A download read at `bytesPerMs`, on a keep-alive connection as browsers and proxies make them. */
function download(agent: Agent, port: number, path: string, bytesPerMs: number): Download {
  let started!: () => void;
  const startedP = new Promise<void>((r) => (started = r));
  const done = new Promise<Awaited<Download['done']>>((resolve) => {
    const req = get({ host: '127.0.0.1', port, path, agent }, (res) => {
      started();
      const hash = createHash('sha256');
      let length = 0;
      const result = (error?: string) => ({
        status: res.statusCode,
        declared: Number(res.headers['content-length']),
        length,
        sha256: hash.digest('hex'),
        complete: res.complete,
        error,
      });
      let settled = false;
      const settle = (error?: string) => {
        if (settled) return;
        settled = true;
        resolve(result(error));
      };
      res.on('data', (chunk: Buffer) => {
        hash.update(chunk);
        length += chunk.length;
        res.pause();
        setTimeout(() => res.resume(), Math.max(1, chunk.length / bytesPerMs));
      });
      res.on('end', () => settle());
      res.on('error', (e) => settle(e.message));
      res.on('close', () => settle(res.complete ? undefined : 'closed before the end'));
    });
    req.on('error', (e) => resolve({ length: 0, sha256: '', complete: false, error: e.message }));
  });
  return { started: startedP, done };
}

/**
 * Requests the server cannot finish: a POST whose body stops half way, and downloads pipelined on one
 * connection that is never read. (One download read by nobody still finishes on the server: a 2.7 MB
 * file fits in the kernel's socket buffers on loopback, so the next ones on the connection wait.)
 * Resolves once the first download's first bytes came, so the server has taken the requests.
 */
async function stall(port: number, path: string): Promise<() => void> {
  const upload = connect(port, '127.0.0.1');
  upload.on('error', () => {});
  upload.write(`POST /api/v1/batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{"tickers":["D11`);
  const downloads = connect(port, '127.0.0.1');
  downloads.on('error', () => {});
  downloads.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`.repeat(4));
  await new Promise<void>((resolve) => downloads.once('data', () => resolve()));
  downloads.pause();
  await new Promise((r) => setTimeout(r, 200)); // the upload's headers are in too
  return () => {
    upload.destroy();
    downloads.destroy();
  };
}

function theDownload() {
  const current = currentSnapshotDir(snapshotsDir())!;
  const id = basename(current);
  const bytes = readFileSync(join(current, 'tree', 'api', 'v1', 'downloads', id, 'snapshot.sqlite'));
  return { path: `/api/v1/downloads/${id}/snapshot.sqlite`, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
}

describe('SIGTERM under load', () => {
  const K = 150;
  for (const how of ['npm start', 'node'] as const) {
    it(`${how}: every started download completes whole; unready at once, new connections answered with Connection: close while draining, refused once listening stops; the log counts them drained; exit 0 in time`, async () => {
      const file = theDownload();
      const shim = await startShim(how);
      const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
      try {
        // About 2.7 s per download at 1 MB/s: all of them still running when the signal comes.
        const downloads = Array.from({ length: K }, () => download(agent, shim.port, file.path, 1000));
        await Promise.all(downloads.map((d) => d.started));
        const signalledAt = Date.now();
        shim.child.kill('SIGTERM'); // to npm itself when started with npm: it forwards the signal to node
        const begun = await shim.line('shutting down', 5000);
        expect(begun).toMatchObject({ signal: 'SIGTERM', drain_ms: 5000, grace_ms: 10_000 });
        // Draining: unready at once, yet a new connection is taken and answered, with Connection: close.
        const ready = await rawRequest(shim.port, 'GET /readyz HTTP/1.1\r\nHost: x\r\n\r\n').answer;
        expect(ready).toMatchObject({ status: 503, connection: 'close', complete: true });
        const during = await rawRequest(shim.port, 'GET /api/v1/company/D1101 HTTP/1.1\r\nHost: x\r\n\r\n').answer;
        expect(during).toMatchObject({ status: 200, connection: 'close', complete: true });
        const stopped = await shim.line('shutdown: stopped listening', 10_000);
        expect(stopped.refused).toBe(0);
        expect(listensOn(shim.pid, shim.port), 'listening once it says it stopped').toBe(false);

        const results = await Promise.all(downloads.map((d) => d.done));
        for (const r of results) {
          expect(r.error).toBeUndefined();
          expect(r).toMatchObject({ status: 200, declared: file.size, length: file.size, sha256: file.sha256, complete: true });
        }
        const exit = await shim.exited;
        expect(exit.code).toBe(0);
        expect(exit.at - signalledAt).toBeLessThan(5000 + 10_000);
        const end = await shim.line('shut down');
        expect(end).toMatchObject({ cut: 0, refused: 0, abandoned: 0 });
        // Every request in flight when the signal came was drained, and the two made during the drain.
        expect(end.drained).toBe((begun.in_flight as number) + 2);
        // Most are still being sent at the signal; some may have been handed whole to the kernel's
        // socket buffers already (a 2.7 MB file fits), which ends them for the server.
        expect(begun.in_flight as number, 'downloads still being sent at the signal').toBeGreaterThanOrEqual(10);
        expect(begun.in_flight as number).toBeLessThanOrEqual(K);
        // The server process itself is gone (npm's child, not only npm).
        expect(() => process.kill(end.pid as number, 0)).toThrow();
      } finally {
        agent.destroy();
        shim.child.kill('SIGKILL');
      }
    });
  }
});

describe('the grace runs out', () => {
  it('stalled requests are cut when SHUTDOWN_GRACE_MS=50 runs out: exit 1, the log counts them cut', async () => {
    const file = theDownload();
    const shim = await startShim('node', { SHUTDOWN_DRAIN_MS: '0', SHUTDOWN_GRACE_MS: '50' });
    const release = await stall(shim.port, file.path);
    try {
      const signalledAt = Date.now();
      shim.child.kill('SIGTERM');
      const exit = await shim.exited;
      expect(exit.code).toBe(1);
      expect(exit.at - signalledAt).toBeLessThan(5000);
      const begun = await shim.line('shutting down');
      const end = await shim.line('shut down');
      // The upload and at least one pipelined download were being answered when the signal came.
      expect(begun.in_flight as number).toBeGreaterThanOrEqual(2);
      expect(end).toMatchObject({ level: 'warn', cut: begun.in_flight, drained: 0 });
      expect(end.message).toContain(`${begun.in_flight as number} cut`);
    } finally {
      release();
      shim.child.kill('SIGKILL');
    }
  });

  it('a second signal exits at once (143); the same signal twice at once (Ctrl-C under npm) is one', async () => {
    const file = theDownload();
    const first = await startShim('node', { SHUTDOWN_DRAIN_MS: '0' });
    const second = await startShim('node', { SHUTDOWN_DRAIN_MS: '0', SHUTDOWN_GRACE_MS: '1500' });
    const releases: (() => void)[] = [];
    try {
      // A second SIGTERM well after the first: out at once, 128 + 15.
      releases.push(await stall(first.port, file.path));
      first.child.kill('SIGTERM');
      await first.line('shutting down', 5000);
      await new Promise((r) => setTimeout(r, 700));
      const secondAt = Date.now();
      first.child.kill('SIGTERM');
      const exit = await first.exited;
      expect(exit.code).toBe(143);
      expect(exit.at - secondAt).toBeLessThan(2000);
      expect(await first.line('shutdown: second signal')).toMatchObject({ signal: 'SIGTERM', exit_code: 143 });
      expect((await first.line('shutdown: second signal')).cut as number).toBeGreaterThanOrEqual(2);

      // SIGINT twice within a millisecond, as a terminal's Ctrl-C reaches node under npm: one signal,
      // so the grace applies (1.5 s, then the stalled download is cut: exit 1, not 130).
      releases.push(await stall(second.port, file.path));
      const signalledAt = Date.now();
      second.child.kill('SIGINT');
      second.child.kill('SIGINT');
      const exit2 = await second.exited;
      expect(exit2.code).toBe(1);
      expect(exit2.at - signalledAt).toBeGreaterThanOrEqual(1400);
      expect((await second.line('shut down')).cut as number).toBeGreaterThanOrEqual(2);
    } finally {
      for (const release of releases) release();
      first.child.kill('SIGKILL');
      second.child.kill('SIGKILL');
    }
  });
});

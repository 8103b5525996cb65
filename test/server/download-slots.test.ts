import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DOWNLOAD_LIMITS, downloadLimitsFromEnv, type DownloadLimits } from '../../src/contract/downloads.js';
import { expectEnvelope } from '../helpers/raw-http.js';
import { startServer, type RunningServer } from '../helpers/server.js';
import { GREEDY, OTHER, openUnread, requestFrom as from, withLargeDownload } from '../helpers/unread-downloads.js';
import { demoSnapshotsDir } from '../helpers/demo-snapshots-dir.js';

/**
 * The shim's caps on downloads (server/kit/download-slots.ts), on an in-process shim with small
 * caps: per client and in all, answered 429 in the envelope with Retry-After; a slot held while its
 * connection stays open and freed by its next request or its close; a download its client stopped
 * reading cut with a reset after DOWNLOAD_STALL_MS, which frees its slot. The download is 24 MB, more
 * than the kernel's socket buffers take, so an unread one stays open in the shim.
 */
let dir: string;
let snapshotsDir: string;
let big: { path: string; size: number; id: string };
const servers: RunningServer[] = [];
const sockets: Socket[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'esg-download-slots-'));
  snapshotsDir = join(dir, 'snapshots');
  big = withLargeDownload(demoSnapshotsDir, snapshotsDir, 24);
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await Promise.all(servers.map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

async function shim(downloads: DownloadLimits): Promise<{ base: string; port: number }> {
  const server = await startServer(snapshotsDir, { downloads });
  servers.push(server);
  return { base: server.base, port: Number(new URL(server.base).port) };
}

const file = (name: string) => `/api/v1/downloads/${big.id}/${name}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('caps on downloads at once', () => {
  it('a client past its cap, and everyone past the total, get 429 in the envelope with Retry-After; others are served', async () => {
    const { port } = await shim({ perClient: 2, total: 3, stallMs: 60_000 });
    sockets.push(...(await openUnread(port, big.path, 2)));
    await sleep(200);
    const over = await from(GREEDY, port, file('CITATION.cff'));
    const body = expectEnvelope(over, 429, 'RATE_LIMITED');
    expect(body.error.message).toMatch(/at most 2 connections from one client/);
    expect(over.headers['retry-after']).toBe('5');
    expect(body.dataset_snapshot_id).toBe(big.id);
    // Another client has its own two: the first fills the total.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const other = await from(OTHER, port, file('CITATION.cff'), { agent });
    expect([other.status, other.headers['content-type']]).toEqual([200, 'application/x-yaml; charset=utf-8']);
    const full = await from('127.0.0.4', port, file('CITATION.cff'));
    expect(expectEnvelope(full, 429, 'RATE_LIMITED').error.message).toMatch(/as many downloads as it takes at once \(3\)/);
    // Nothing but downloads is capped.
    expect((await from('127.0.0.4', port, '/api/v1/company/D1101')).status).toBe(200);
    agent.destroy();
  });

  it('HEAD and a 304 send no body and take no slot', async () => {
    const { port } = await shim({ perClient: 1, total: 10, stallMs: 60_000 });
    sockets.push(...(await openUnread(port, big.path, 1)));
    await sleep(200);
    const head = await from(GREEDY, port, file('CITATION.cff'), { method: 'HEAD' });
    expect([head.status, head.bytes]).toEqual([200, 0]);
    const notModified = await from(GREEDY, port, file('CITATION.cff'), { headers: { 'If-None-Match': String(head.headers.etag) } });
    expect(notModified.status).toBe(304);
    expect((await from(GREEDY, port, file('CITATION.cff'))).status).toBe(429);
  });

  it('a slot is held while its connection stays open, and freed by the connection’s next request or its close', async () => {
    const { port } = await shim({ perClient: 1, total: 10, stallMs: 60_000 });
    const kept = new Agent({ keepAlive: true, maxSockets: 1 });
    const first = await from(OTHER, port, file('SHA256SUMS'), { agent: kept });
    expect(first.status).toBe(200);
    // Read whole, but the connection is open: what the kernel still held for it would count here.
    expect((await from(OTHER, port, file('SHA256SUMS'))).status).toBe(429);
    expect((await from(OTHER, port, '/api/v1/', { agent: kept })).status).toBe(200); // its next request
    const second = new Agent({ keepAlive: true, maxSockets: 1 });
    expect((await from(OTHER, port, file('SHA256SUMS'), { agent: second })).status).toBe(200);
    expect((await from(OTHER, port, file('SHA256SUMS'), { agent: kept })).status).toBe(429);
    second.destroy(); // closed
    await sleep(100);
    expect((await from(OTHER, port, file('SHA256SUMS'), { agent: kept })).status).toBe(200);
    // The same connection asking again holds one slot, not two.
    expect((await from(OTHER, port, file('CITATION.cff'), { agent: kept })).status).toBe(200);
    kept.destroy();
  });

  it('a download its client stopped reading is cut with a reset after DOWNLOAD_STALL_MS, and its slot freed', async () => {
    const { port } = await shim({ perClient: 1, total: 10, stallMs: 700 });
    const [stalled] = await openUnread(port, big.path, 1);
    sockets.push(stalled!);
    await sleep(200);
    expect((await from(GREEDY, port, file('CITATION.cff'))).status).toBe(429);
    await sleep(1300);
    // Read now, past the stall: what the kernel kept for it, then the end; the rest of the 24 MB never
    // comes (read before the stall, it would all come: the next test).
    stalled!.resume();
    await new Promise<void>((resolve) => (stalled!.destroyed ? resolve() : stalled!.once('close', () => resolve())));
    expect(stalled!.bytesRead).toBeLessThan(big.size / 2);
    expect((await from(GREEDY, port, file('CITATION.cff'))).status).toBe(200);
  });

  it('a client that reads slowly but steadily is not cut, and gets every byte', async () => {
    const { port } = await shim({ perClient: 1, total: 10, stallMs: 700 });
    const bytes = await new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: big.path, localAddress: OTHER, agent: false }, (res) => {
        let n = 0;
        // A pause of 5 ms after each chunk (64 KiB at most): some 2 s for 24 MB, never 700 ms without reading.
        res.on('data', (c: Buffer) => {
          n += c.length;
          res.pause();
          setTimeout(() => res.resume(), 5);
        });
        res.on('end', () => resolve(n));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
    expect(bytes).toBe(big.size);
  });
});

describe('the settings', () => {
  it('each cap from its environment variable, the defaults without, one line naming a bad value', () => {
    const fail = (m: string): never => {
      throw new Error(m);
    };
    expect(downloadLimitsFromEnv({}, fail)).toEqual(DEFAULT_DOWNLOAD_LIMITS);
    expect(downloadLimitsFromEnv({ DOWNLOADS_PER_CLIENT: '2', DOWNLOADS_MAX: '9', DOWNLOAD_STALL_MS: '1500' }, fail)).toEqual({
      perClient: 2,
      total: 9,
      stallMs: 1500,
    });
    for (const [name, value] of [
      ['DOWNLOADS_PER_CLIENT', '0'],
      ['DOWNLOADS_MAX', 'many'],
      ['DOWNLOAD_STALL_MS', '1.5'],
      ['DOWNLOADS_MAX', '-1'],
    ]) {
      expect(() => downloadLimitsFromEnv({ [name!]: value }, fail), `${name}=${value}`).toThrow(
        `${name} must be a whole number of at least 1; got ${value}`,
      );
    }
  });

  it('the shim refuses to start on a bad one: that line, exit 2', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        SNAPSHOTS_DIR: snapshotsDir,
        KEYS_DB: join(dir, 'keys.sqlite'),
        DOWNLOADS_PER_CLIENT: 'lots',
      },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe('DOWNLOADS_PER_CLIENT must be a whole number of at least 1; got lots');
  });
});

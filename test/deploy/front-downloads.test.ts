import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DOWNLOAD_LIMITS } from '../../src/contract/downloads.js';
import { currentSnapshotDir } from '../../src/snapshot/published.js';
import { PRUNED_FILE } from '../../src/snapshot/retention.js';
import { DOWNLOADS_DIR } from '../../src/contract/api-paths.js';
import { expectEnvelope } from '../helpers/raw-http.js';
import { OTHER, firstStatuses, openUnread, requestFrom, withLargeDownload } from '../helpers/unread-downloads.js';
import { expectScenario, unreadScenarioRuns } from '../helpers/unread-scenario.js';
import { NGINX, startNginx, startShim, tempFilesHeld, type Nginx, type Shim } from './front.js';
import { demoSnapshotsDir } from '../helpers/demo-snapshots-dir.js';

/**
 * Downloads through the nginx front: nginx sends each file of a snapshot's download folder
 * itself, with the shim's headers; misses and other spellings still reach the shim; per client,
 * `limit_conn` answers a 7th download at once with 429 in the envelope, even for a file the kernel
 * would otherwise take whole (the fixed send buffer); a client that stops reading
 * is reset after the stall time (2 s, on a second front) and its slot is free again; and 2,000 unread requests for a
 * 24 MB snapshot.sqlite from one client leave another client's p99 under 50 ms and the shim's
 * memory where it was (the downloads never reach it; up to three tries for the p99, as on the shim).
 */
let dir: string;
let snapshotsDir: string;
let big: { path: string; size: number; id: string };
let shim: Shim;
let nginx: Nginx;
/** The same front with a 2 s stall time, for the one test that waits for it. */
let quick: Nginx;
const PRUNED_ID = '2025-12-01';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'esg-front-downloads-'));
  snapshotsDir = join(dir, 'snapshots');
  big = withLargeDownload(demoSnapshotsDir, snapshotsDir, 24);
  writeFileSync(join(snapshotsDir, PRUNED_FILE), JSON.stringify([PRUNED_ID]));
  shim = await startShim({ SNAPSHOTS_DIR: snapshotsDir, KEYS_DB: join(dir, 'keys.sqlite'), TRUST_PROXY: 'loopback', LOG_LEVEL: 'warn' });
  nginx = await startNginx(join(dir, 'nginx'), snapshotsDir, [`127.0.0.1:${shim.port}`]);
  quick = await startNginx(join(dir, 'quick'), snapshotsDir, [`127.0.0.1:${shim.port}`], {
    downloads: { perClient: DEFAULT_DOWNLOAD_LIMITS.perClient, stallMs: 2000 },
  });
}, 120_000);
afterAll(async () => {
  await nginx?.stop();
  await quick?.stop();
  await shim?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Headers that differ between two answers or name their sender (nginx adds Last-Modified and Accept-Ranges to files). */
const VOLATILE = new Set([
  'date',
  'x-request-id',
  'etag',
  'last-modified',
  'server',
  'connection',
  'keep-alive',
  'accept-ranges',
  'transfer-encoding',
]);
const stable = (h: Headers) => Object.fromEntries([...h.entries()].filter(([k]) => !VOLATILE.has(k)).sort(([a], [b]) => a.localeCompare(b)));

async function get(base: string, path: string, init?: RequestInit) {
  const res = await fetch(base + path, { redirect: 'manual', ...init });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, bytes, text: bytes.toString('utf8') };
}
/** Who answered each URI last (the access log's `upstream`, "" for nginx itself), once nginx has written its buffered lines. */
async function upstreams(): Promise<(uri: string) => string | undefined> {
  await new Promise((r) => setTimeout(r, 1200));
  const lines = nginx.accessLog();
  return (uri) => lines.filter((e) => e.uri === uri).at(-1)?.upstream;
}

describe.skipIf(!NGINX)('downloads through nginx', () => {
  it('nginx sends every file of the folder, and its page, itself: the bytes of the file, the shim’s headers', async () => {
    const folder = join(currentSnapshotDir(snapshotsDir)!, 'tree', DOWNLOADS_DIR, big.id);
    const names = readFileSync(join(folder, 'SHA256SUMS'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => l.slice(66));
    expect(names).toEqual(expect.arrayContaining(['snapshot.sqlite', 'companies.csv', 'datapackage.json', 'CITATION.cff', 'api-v1-tree.tar.gz']));
    const files = [
      ...[...names, 'SHA256SUMS'].map((n) => [`/api/v1/downloads/${big.id}/${n}`, n]),
      [`/api/v1/downloads/${big.id}/`, 'index.html'],
      // Whatever the query.
      [`/api/v1/downloads/${big.id}/SHA256SUMS?x=1`, 'SHA256SUMS'],
      [`/api/v1/downloads/${big.id}/?utm_source=mail`, 'index.html'],
    ] as [string, string][];
    for (const [url, file] of files) {
      const [viaNginx, viaShim] = [await get(nginx.base, url), await get(shim.base, url)];
      expect(viaNginx.status, url).toBe(200);
      expect(viaNginx.bytes.equals(readFileSync(join(folder, file))), url).toBe(true);
      expect(stable(viaNginx.headers), url).toEqual(stable(viaShim.headers));
      const again = await get(nginx.base, url, { headers: { 'If-None-Match': viaNginx.headers.get('etag')! } });
      expect(again.status, url).toBe(304);
    }
    const by = await upstreams();
    for (const [url] of files) expect(by(url), `${url} sent by nginx itself`).toBe('');
    const head = await get(nginx.base, big.path, { method: 'HEAD' });
    expect([head.status, head.bytes.length, head.headers.get('content-length')]).toEqual([200, 0, String(big.size)]);
  });

  it('misses, other spellings, pruned and unknown ids and other methods: the shim’s answers', async () => {
    const cases: [string, number, RequestInit?][] = [
      [`/api/v1/downloads/${big.id}/nope.csv`, 404],
      ['/api/v1/downloads/2001-01-01/SHA256SUMS', 404],
      [`/api/v1/downloads/${PRUNED_ID}/SHA256SUMS`, 410],
      ['/api/v1/downloads/latest/SHA256SUMS', 400],
      [`/api/v1/downloads/${big.id}`, 301],
      [`/api/v1/downloads/${big.id}/%43ITATION.cff`, 200],
      [`/api/v1/downloads/${big.id}/SHA256SUMS`, 405, { method: 'POST' }],
    ];
    for (const [url, status, init] of cases) {
      const [viaNginx, viaShim] = [await get(nginx.base, url, init), await get(shim.base, url, init)];
      expect([viaNginx.status, viaShim.status], url).toEqual([status, status]);
      if (status !== 301) expect(viaNginx.text.replace(/"request_id":"[^"]+"/, ''), url).toBe(viaShim.text.replace(/"request_id":"[^"]+"/, ''));
    }
    const by = await upstreams();
    for (const [url] of cases) expect(by(url), `${url} went to the shim`).toBe(`127.0.0.1:${shim.port}`);
  });

  it('unread downloads with a query string: nginx’s, capped per client, and nothing spooled to disk, the shim’s other spellings included', async () => {
    // As the probe sent them: each with a query of its own, from one client, never read.
    const held = await openUnread(nginx.port, `${big.path}?n=0`, 1, { from: '127.0.0.9' });
    for (let i = 1; i < 12; i++) held.push(...(await openUnread(nginx.port, `${big.path}?n=${i}`, 1, { from: '127.0.0.9' })));
    // Another client, by a spelling only the shim serves (percent-encoded): nginx passes its answer on without a temp file.
    const encoded = big.path.replace(/snapshot\.sqlite$/, '%73napshot.sqlite');
    held.push(...(await openUnread(nginx.port, `${encoded}?n=x`, 3, { from: '127.0.0.10' })));
    try {
      await new Promise((r) => setTimeout(r, 1000));
      expect(tempFilesHeld(nginx)).toEqual([]);
      expect(await firstStatuses(held.slice(0, 12))).toEqual({
        200: DEFAULT_DOWNLOAD_LIMITS.perClient,
        429: 12 - DEFAULT_DOWNLOAD_LIMITS.perClient,
      });
      expect(nginx.errorLog()).not.toMatch(/buffered to a temporary file/);
    } finally {
      for (const s of held) s.destroy();
    }
    // Logged once each ends (here, reset by its client).
    const by = await upstreams();
    for (let i = 0; i < 12; i++) expect(by(`${big.path}?n=${i}`), `${big.path}?n=${i} sent by nginx itself`).toBe('');
    expect(by(`${encoded}?n=x`)).toBe(`127.0.0.1:${shim.port}`);
  });

  it('a client’s 7th download at once is 429 in the envelope with Retry-After; another client is served', async () => {
    const held = await openUnread(nginx.port, big.path, DEFAULT_DOWNLOAD_LIMITS.perClient, { from: '127.0.0.6' });
    try {
      await new Promise((r) => setTimeout(r, 300));
      const over = await requestFrom('127.0.0.6', nginx.port, `/api/v1/downloads/${big.id}/CITATION.cff`);
      const body = expectEnvelope(over, 429, 'RATE_LIMITED');
      expect(body.error.message).toMatch(/at most 6 connections from one client/);
      expect(over.headers['retry-after']).toBe('5');
      expect((await requestFrom(OTHER, nginx.port, `/api/v1/downloads/${big.id}/CITATION.cff`)).status).toBe(200);
    } finally {
      for (const s of held) s.destroy();
    }
  });

  it('a download the kernel could take whole (1.3 MB) still counts until its client takes it', async () => {
    // Without the fixed send buffer Linux grows it to some 4 MB: each of these would be "sent" at
    // once, free its slot, and every one of them would be a 200.
    const held = await openUnread(nginx.port, `/api/v1/downloads/${big.id}/companies.csv`, 12, { from: '127.0.0.8', perBatch: 1, pauseMs: 50 });
    try {
      expect(await firstStatuses(held)).toEqual({ 200: DEFAULT_DOWNLOAD_LIMITS.perClient, 429: 12 - DEFAULT_DOWNLOAD_LIMITS.perClient });
    } finally {
      for (const s of held) s.destroy();
    }
  });

  it('a client that stops reading is reset after the stall time, and its slots are free again', async () => {
    const held = await openUnread(quick.port, big.path, DEFAULT_DOWNLOAD_LIMITS.perClient, { from: '127.0.0.7' });
    try {
      await new Promise((r) => setTimeout(r, 300));
      expect((await requestFrom('127.0.0.7', quick.port, `/api/v1/downloads/${big.id}/CITATION.cff`)).status).toBe(429);
      await new Promise((r) => setTimeout(r, 3000));
      expect((await requestFrom('127.0.0.7', quick.port, `/api/v1/downloads/${big.id}/CITATION.cff`)).status).toBe(200);
      // What the stalled ones read now is what the kernel kept before the reset: the 24 MB never come.
      const read = await Promise.all(
        held.map(
          (s) => new Promise<number>((resolve) => (s.destroyed ? resolve(s.bytesRead) : (s.once('close', () => resolve(s.bytesRead)), s.resume()))),
        ),
      );
      for (const n of read) expect(n).toBeLessThan(big.size / 2);
    } finally {
      for (const s of held) s.destroy();
    }
  });

  it('2,000 unread requests from one client: that client gets 6, another keeps p99 < 50 ms, the shim’s memory stays', async () => {
    const runs = await unreadScenarioRuns(nginx.port, big.path, big.id, shim.child.pid!);
    // The downloads never reach the shim.
    expectScenario(runs, 16);
  }, 120_000);
});

import {
  copyFileSync,
  mkdtempSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
  writeSync,
  closeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonLogger } from '../../server/kit/logger.js';
import { publishedSnapshotSource, type SnapshotSource } from '../../server/kit/snapshot-source.js';
import { currentSnapshotDir } from '../../src/snapshot/published.js';
import { expectEnvelope, raw } from '../helpers/raw-http.js';
import { getJson, startServer, type RunningServer } from '../helpers/server.js';
import { demoSnapshotsDir } from '../helpers/demo-snapshots-dir.js';
import { linkCopy } from '../helpers/link-copy.js';

/** Polls `check` every 100 ms until it holds; fails after `ms` (the source looks again once a second). */
async function until(what: string, check: () => Promise<boolean> | boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  // A poll that meets a reset (the server closing an idle kept-alive connection as the client reuses it) asks again.
  const holds = async () => {
    try {
      return await check();
    } catch (e) {
      if ((e as { cause?: { code?: string } }).cause?.code === 'ECONNRESET') return false;
      throw e;
    }
  };
  while (!(await holds())) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Overwrites the root page of `table` with 0xff bytes, leaving the schema and every other table as they were. */
function damageTable(dbPath: string, table: string): void {
  const db = new Database(dbPath, { readonly: true });
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const root = (db.prepare("SELECT rootpage FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) as { rootpage: number }).rootpage;
  db.close();
  const fd = openSync(dbPath, 'r+');
  writeSync(fd, Buffer.alloc(pageSize, 0xff), 0, pageSize, (root - 1) * pageSize);
  closeSync(fd);
}

/**
 * A snapshot that cannot be read answers 502 UPSTREAM_FAILURE with /readyz 503, whether
 * its database is damaged or a file its database lists is gone, and the shim recovers by itself,
 * without a restart, once the file is good again. A real server on loopback, the real clock.
 */
describe('a snapshot that cannot be read, and its recovery', () => {
  let root: string;
  let good: string;
  let source: SnapshotSource;
  let server: RunningServer;
  const lines: { message: string; [k: string]: unknown }[] = [];
  const status = async (path: string) => (await getJson(server.base + path)).status;
  const messages = (m: string) => lines.filter((l) => l.message === m).length;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'esg-damage-'));
    // Its tree shared (only read here), its database copied: the tests damage it in place.
    linkCopy(currentSnapshotDir(demoSnapshotsDir)!, join(root, 'a'), { copied: ['snapshot.sqlite'], shared: ['tree'] });
    symlinkSync('a', join(root, 'current'));
    good = join(root, 'good.sqlite');
    copyFileSync(join(root, 'a', 'snapshot.sqlite'), good);
    source = publishedSnapshotSource(root, { logger: jsonLogger((l) => lines.push(JSON.parse(l))) });
    server = await startServer(root, { snapshots: source });
  });
  afterAll(async () => {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('a read failing in another database (the history store, changes.sqlite) leaves the shim ready: its own database is checked once, and whole', () => {
    expect(source.unready()).toBeNull();
    source.readFailed(new Database.SqliteError('database disk image is malformed', 'SQLITE_CORRUPT'));
    source.readFailed(new Database.SqliteError('database disk image is malformed', 'SQLITE_CORRUPT'));
    expect(source.unready()).toBeNull();
    expect(messages('a database read failed, but the snapshot’s own database is whole')).toBe(1);
  });

  it('truncated in place: 502 UPSTREAM_FAILURE and /readyz 503 within a second; a copy renamed over it is served again by itself', async () => {
    const db = join(root, 'a', 'snapshot.sqlite');
    const computed = '/api/v1/company/D1101/canonical?fields=flags';
    const before = await getJson(server.base + computed);
    expect(before.status).toBe(200);
    expect(await status('/readyz')).toBe(200);

    truncateSync(db, 8192);
    await until('/readyz is 503', async () => (await status('/readyz')) === 503);
    expect((await getJson(`${server.base}/readyz`)).body.reason).toMatch(/damaged/);
    expectEnvelope(await raw(server.base, computed), 502, 'UPSTREAM_FAILURE');
    expectEnvelope(await raw(server.base, '/api/v1/company/D1101'), 502, 'UPSTREAM_FAILURE');
    expectEnvelope(await raw(server.base, '/api/v1/ranking?limit=3'), 502, 'UPSTREAM_FAILURE');

    // The way a backup comes back: a copy beside it, renamed over it (a new file; the old one stays open).
    copyFileSync(good, `${db}.restore`);
    renameSync(`${db}.restore`, db);
    await until('/readyz is 200 again', async () => (await status('/readyz')) === 200);
    expect((await getJson(server.base + computed)).text).toBe(before.text);
    expect(await status('/api/v1/company/D1101')).toBe(200);
    expect([messages('snapshot unavailable: answering 502 until it is readable again'), messages('snapshot readable again')]).toEqual([1, 1]);
  });

  it('damaged where only a query reads it: that query is 502, not 500, and from then on the snapshot is unavailable; restored in place, it is served again', async () => {
    // A second copy, its companies table damaged and its meta whole, so it opens as the current
    // snapshot; with a tree of its own (hard links), since a file of it is replaced below.
    linkCopy(currentSnapshotDir(demoSnapshotsDir)!, join(root, 'b'), { copied: ['snapshot.sqlite'] });
    damageTable(join(root, 'b', 'snapshot.sqlite'), 'companies');
    symlinkSync('b', join(root, 'next'));
    renameSync(join(root, 'next'), join(root, 'current'));
    await until('the shim follows the link', async () => (await status('/readyz')) === 200 && messages('snapshot switched') === 1);

    const damaged = messages('snapshot database damaged');
    const r = await raw(server.base, '/api/v1/company/D1102/canonical?fields=flags');
    expectEnvelope(r, 502, 'UPSTREAM_FAILURE');
    expect(messages('snapshot database damaged')).toBe(damaged + 1);
    const ready = await getJson(`${server.base}/readyz`);
    expect([ready.status, ready.body.ok]).toEqual([503, false]);
    expectEnvelope(await raw(server.base, '/api/v1/company/D1101'), 502, 'UPSTREAM_FAILURE');
    // Still damaged after a while: no retry, no recovery, until the file changes.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await status('/readyz')).toBe(503);

    copyFileSync(good, join(root, 'b', 'snapshot.sqlite'));
    await until('/readyz is 200 again', async () => (await status('/readyz')) === 200);
    expect(await status('/api/v1/company/D1102/canonical?fields=flags')).toBe(200);
    expect(messages('snapshot readable again')).toBe(2);
  });

  it('a company file gone while the snapshot lists the company: 502 for it, /readyz 503 naming it; back, served and ready again', async () => {
    // A company no test asked for yet, so no answer of it is in the shim's memory.
    const [ticker, other] = source.current().tickers().slice(-2) as [string, string];
    const file = join(root, 'b', 'tree', `api/v1/company/${ticker}.json`);
    const bytes = readFileSync(file);
    rmSync(file);
    const r = await raw(server.base, `/api/v1/company/${ticker}`);
    const body = expectEnvelope(r, 502, 'UPSTREAM_FAILURE');
    expect(body.error.message).toContain(`/company/${ticker}`);
    expect(body.dataset_snapshot_id).not.toBeNull();
    // Its other views, other companies, and a company the snapshot does not list are as they were.
    expect(await status(`/api/v1/company/${ticker}/canonical`)).toBe(200);
    expect(await status(`/api/v1/company/${other}`)).toBe(200);
    expectEnvelope(await raw(server.base, '/api/v1/company/ZZ999'), 404, 'NOT_FOUND');
    const ready = await getJson(`${server.base}/readyz`);
    expect(ready.status).toBe(503);
    expect(ready.body.reason).toContain(`api/v1/company/${ticker}.json`);

    writeFileSync(file, bytes);
    await until('/readyz is 200 again', async () => (await status('/readyz')) === 200);
    expect((await getJson(`${server.base}/api/v1/company/${ticker}`)).text).toBe(bytes.toString('utf8'));
    expect(messages('snapshot files back: ready again')).toBe(1);
  });
});

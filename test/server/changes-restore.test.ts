import { copyFileSync, mkdtempSync, renameSync, rmSync, symlinkSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishedSnapshotSource } from '../../server/kit/snapshot-source.js';
import { CHANGES_DB } from '../../src/snapshot/changes-store.js';
import { currentSnapshotDir } from '../../src/snapshot/published.js';
import { expectEnvelope, raw } from '../helpers/raw-http.js';
import { getJson, startServer, type RunningServer } from '../helpers/server.js';
import { demoSeriesSnapshotsDir } from '../helpers/demo-series-dir.js';
import { linkCopy } from '../helpers/link-copy.js';

/** Polls `check` every 100 ms until it holds; fails after `ms` (the shim looks at the file again once a second). */
async function until(what: string, check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A snapshot's changes.sqlite restored (a copy renamed over a damaged one, or another
 * version of it put in its place) is served again, as the snapshot's own database is, without a
 * restart. Before, the shim kept reading the file it had opened first, and filtered /changes stayed
 * 502. Tried as the probe tried it: a real server on loopback, the real clock, the file damaged in
 * place, then replaced.
 */
describe('a restored changes.sqlite', () => {
  let root: string;
  let db: string;
  let server: RunningServer;
  const filtered = '/api/v1/changes?min_abs_delta=0&limit=5';

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'esg-changes-restore-'));
    linkCopy(currentSnapshotDir(demoSeriesSnapshotsDir)!, join(root, 'a'), { copied: [CHANGES_DB], shared: ['tree'] });
    symlinkSync('a', join(root, 'current'));
    db = join(root, 'a', CHANGES_DB);
    server = await startServer(root, { snapshots: publishedSnapshotSource(root) });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('damaged in place: 502; a copy renamed over it: 200 with its content; another version put in its place: that version', async () => {
    const good = join(root, 'good.sqlite');
    copyFileSync(db, good);
    const before = await getJson(server.base + filtered);
    expect(before.status).toBe(200);
    const total = (before.body as { meta: { total: number } }).meta.total;
    expect(total).toBeGreaterThan(5);

    truncateSync(db, 8192);
    await until('filtered /changes is 502', async () => (await raw(server.base, filtered)).status === 502);
    expectEnvelope(await raw(server.base, filtered), 502, 'UPSTREAM_FAILURE');

    // The way a backup comes back: a copy beside it, renamed over it (a new file; the damaged one stays open).
    copyFileSync(good, `${db}.restore`);
    renameSync(`${db}.restore`, db);
    await until('filtered /changes is 200 again', async () => (await raw(server.base, filtered)).status === 200);
    expect((await getJson(server.base + filtered)).text).toBe(before.text);

    // Another version of the file (here, its first three changes only), put in place the same way.
    const other = join(root, 'other.sqlite');
    copyFileSync(good, other);
    const edit = new Database(other);
    edit.prepare('DELETE FROM changes WHERE ord >= 3').run();
    edit.prepare('DELETE FROM change_causes WHERE ord >= 3').run();
    edit.close();
    renameSync(other, db);
    await until('the other version is served', async () => {
      const r = await getJson(server.base + filtered);
      return r.status === 200 && (r.body as { meta: { total: number } }).meta.total === 3;
    });
  });
});

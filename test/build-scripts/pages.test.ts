import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writePages } from '../../build-scripts/pages/write-pages.js';
import { snapshotsResponseSchema } from '../../src/contract/snapshots.js';
import { currentSnapshotDir } from '../../src/snapshot/published.js';
import { SnapshotStore } from '../../src/snapshot/store.js';
import { demoSnapshotsDir } from '../helpers/demo-snapshots-dir.js';

/** The page writer on its own: deterministic whatever the threads, and a failing worker fails it. */
function hashes(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .map((f) => `${relative(dir, f)} ${createHash('sha256').update(readFileSync(f)).digest('hex')}`)
    .sort();
}

let store: SnapshotStore;
let snapshots: ReturnType<typeof snapshotsResponseSchema.parse>;
beforeAll(() => {
  store = SnapshotStore.open(currentSnapshotDir(demoSnapshotsDir)!);
  snapshots = snapshotsResponseSchema.parse(JSON.parse(readFileSync(join(store.dir, 'tree/api/v1/snapshots.json'), 'utf8')));
});
afterAll(() => store.close());

describe('the page writer', () => {
  it('writes the published pages byte for byte, on one thread or two', async () => {
    const one = mkdtempSync(join(tmpdir(), 'esg-pages-1-'));
    const two = mkdtempSync(join(tmpdir(), 'esg-pages-2-'));
    try {
      const a = await writePages(store, one, snapshots, { threads: 1 });
      const b = await writePages(store, two, snapshots, { threads: 2 });
      // Pages are everything outside api/, and each download folder's index page (written by the page writer).
      const published = hashes(join(store.dir, 'tree')).filter((l) => !l.startsWith('api/') || /^api\/v1\/downloads\/[^/ ]+\/index\.html /.test(l));
      expect(hashes(one)).toEqual(published);
      expect(hashes(two)).toEqual(published);
      expect(b).toEqual(a);
      expect(a.files).toBe(published.length);
    } finally {
      rmSync(one, { recursive: true, force: true });
      rmSync(two, { recursive: true, force: true });
    }
  }, 120_000);

  it('fails when a worker fails, naming the cause', async () => {
    // Two industries sharing a code would make their filter pages collide: the worker refuses.
    const dir = mkdtempSync(join(tmpdir(), 'esg-pages-broken-'));
    try {
      copyFileSync(join(store.dir, 'snapshot.sqlite'), join(dir, 'snapshot.sqlite'));
      const db = new Database(join(dir, 'snapshot.sqlite'));
      const [first, second] = store.industries();
      db.prepare('UPDATE companies SET industry_code = ? WHERE industry = ?').run(first!.code, second!.name);
      db.close();
      const broken = SnapshotStore.open(dir);
      try {
        await expect(writePages(broken, join(dir, 'tree'), snapshots, { threads: 2 })).rejects.toThrow(
          `industry code ${first!.code} has more than one name`,
        );
      } finally {
        broken.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeChangesStore } from '../../build-scripts/history/write-changes-store.js';
import type { IndexedChange } from '../../src/snapshot/changes-store.js';
import { CHANGES_DB, ChangesStore } from '../../src/snapshot/changes-store.js';
import { currentSnapshotDir } from '../../src/snapshot/published.js';
import { demoSeriesSnapshotsDir } from '../helpers/demo-series-dir.js';

/**
 * The build's writer of a snapshot's changes database (build-scripts/history/write-changes-store.ts),
 * on the demo series' real changes: what it writes reads back as given, the same changes give the
 * same file, it leaves no journal beside it (it makes no syncs of its own: the publish flushes the
 * file system), and a list out of the contract's order fails the write and leaves no rows.
 */
let root: string;
let demo: IndexedChange[];
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'esg-changes-store-'));
  const store = ChangesStore.open(currentSnapshotDir(demoSeriesSnapshotsDir)!);
  demo = [...store.entries()];
  store.close();
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const folder = (name: string) => {
  const dir = join(root, name);
  mkdirSync(dir);
  return dir;
};

describe('writeChangesStore', () => {
  it('writes the changes it is given, in order, and the same changes give the same file, alone in its folder', () => {
    expect(demo.length).toBeGreaterThan(10);
    const a = folder('a');
    const b = folder('b');
    writeChangesStore(a, '2026-09-01', demo);
    writeChangesStore(b, '2026-09-01', demo);
    const store = ChangesStore.open(a);
    try {
      expect([...store.entries()]).toEqual(demo);
    } finally {
      store.close();
    }
    expect(readFileSync(join(a, CHANGES_DB)).equals(readFileSync(join(b, CHANGES_DB)))).toBe(true);
    expect(readdirSync(a)).toEqual([CHANGES_DB]);
  });

  it('refuses changes out of the contract’s order, naming both tickers, and keeps none of them', () => {
    const dir = folder('out-of-order');
    const [first, second] = [demo[0]!, demo[1]!];
    expect(() => writeChangesStore(dir, null, [second, first, ...demo.slice(2)])).toThrow(
      `changes out of the contract's order: ${first.item.ticker} after ${second.item.ticker}`,
    );
    const db = new Database(join(dir, CHANGES_DB), { readonly: true });
    try {
      expect(db.prepare('SELECT count(*) AS n FROM changes').get()).toEqual({ n: 0 });
      expect(db.prepare('SELECT count(*) AS n FROM change_causes').get()).toEqual({ n: 0 });
      expect(db.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
    } finally {
      db.close();
    }
  });
});

import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateSnapshots } from '../../build-scripts/migrate/migrate.js';
import { checkSteps, MIGRATION_STEPS, stepsFrom, type MigrationStep } from '../../build-scripts/migrate/steps.js';
import { ChangesStore, type IndexedChange } from '../../src/snapshot/changes-store.js';
import { SnapshotFormatError } from '../../src/snapshot/format.js';
import { HistoryChunks, storeRecords } from '../../src/snapshot/history-store.js';
import { FORMAT_VERSION } from '../../src/snapshot/schema.js';
import { SnapshotStore } from '../../src/snapshot/store.js';
import { writeHandBuiltSnapshot } from '../helpers/hand-built-snapshot.js';

/**
 * `npm run migrate` upgrades snapshot folders of format 0 (before meta.format_version: no assurance
 * kind, ETF coverage, carbon-fee figure or carried-forward columns, perhaps no source_files; changes
 * in changes.json; whole histories in the folder) in place. Format-0 snapshots are made here by
 * hand from current ones, as those builds wrote them; after migrating, each opens as the current
 * format and answers what it answered before (what the compatibility readers it replaces gave).
 */
const OLD = '2026-10-01';
const CURRENT = '2026-11-01';
const DROPPED: [string, string][] = [
  ['assurances', 'kind'],
  ['assurances', 'standard'],
  ['assurances', 'verifications'],
  ['etfs', 'holdings_period'],
  ['etfs', 'holdings_min_weight'],
  ['etfs', 'listed_weight'],
  ['carbon_fees', 'basis_tco2e'],
  ['sources', 'carried_forward'],
];
const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const download = (id: string) => join(root, id, 'tree', 'downloads', id, 'snapshot.sqlite');

let work: string;
let root: string;
let expected: SnapshotStore;
const changes: IndexedChange[] = [
  { industry: 'Cement', item: { ticker: 'H0002', score_delta: -9, causes: [{ kind: 'penalty_new' }] } as never },
  { industry: 'Steel', item: { ticker: 'H0001', score_delta: 4, causes: [{ kind: 'timeliness' }] } as never },
];
const downloadSha = new Map<string, string>();

/** What a build before format versions wrote, from a current snapshot. */
function writeFormat0(id: string, withSourceFiles: boolean): void {
  const dir = writeHandBuiltSnapshot(join(root, id));
  const db = new Database(join(dir, 'snapshot.sqlite'));
  db.exec("UPDATE carbon_fees SET obligated = 1, basis_tco2e = 30000 WHERE ticker = 'H0002'");
  for (const [table, column] of DROPPED) db.exec(`ALTER TABLE ${table} DROP COLUMN ${column}`);
  if (!withSourceFiles) db.exec('DROP TABLE source_files');
  // Every fund then came from the MOPS form, which lists every holding.
  db.exec("UPDATE etfs SET source_id = 'SRC-MOPS-ETF-HOLDINGS'");
  db.exec("DELETE FROM meta WHERE key = 'format_version'");
  db.exec('VACUUM');
  db.close();
  // The download folder's copy is a hard link to the same file, as publishing makes it.
  mkdirSync(join(dir, 'tree', 'downloads', id), { recursive: true });
  linkSync(join(dir, 'snapshot.sqlite'), download(id));
  downloadSha.set(id, sha(download(id)));
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'migrate-'));
  root = join(work, 'snapshots');
  const expectedDir = writeHandBuiltSnapshot(join(work, 'expected'));
  const db = new Database(join(expectedDir, 'snapshot.sqlite'));
  db.exec("UPDATE carbon_fees SET obligated = 1, basis_tco2e = 30000 WHERE ticker = 'H0002'");
  db.close();
  expected = SnapshotStore.open(expectedDir);
  writeFormat0(OLD, false);
  writeFormat0(CURRENT, true);
  symlinkSync(CURRENT, join(root, 'current'));
  writeFileSync(join(root, CURRENT, 'changes.json'), JSON.stringify({ from_snapshot_id: OLD, changes }));
  // Whole histories, newest first, one line per company, as the builds before the store wrote them.
  const entry = (id: string, ticker: string) => ({ dataset_snapshot_id: id, data_asof: `${id}`, ticker, credibility_score: 50 });
  const lines = ['H0001', 'H0002'].map((t) => JSON.stringify({ ticker: t, data: [entry(CURRENT, t), entry(OLD, t)] }));
  writeFileSync(join(root, CURRENT, 'history.jsonl'), `${lines.join('\n')}\n`);
});
afterAll(() => {
  expected.close();
  rmSync(work, { recursive: true, force: true });
});

describe('npm run migrate', () => {
  it('format-0 snapshots are refused before, with the command to run', () => {
    expect(() => SnapshotStore.open(join(root, CURRENT))).toThrow(SnapshotFormatError);
    expect(() => SnapshotStore.open(join(root, CURRENT))).toThrow('npm run migrate');
  });

  it('upgrades every published folder to the current format, oldest first; a second run has nothing to do', async () => {
    expect(await migrateSnapshots(root)).toEqual({ upgraded: [OLD, CURRENT], current: [] });
    expect(await migrateSnapshots(root)).toEqual({ upgraded: [], current: [OLD, CURRENT] });
    for (const id of [OLD, CURRENT]) {
      const store = SnapshotStore.open(join(root, id));
      expect(store.db.prepare("SELECT value FROM meta WHERE key = 'format_version'").pluck().get()).toBe(String(FORMAT_VERSION));
      store.close();
    }
  });

  it('each migrated snapshot answers what it did: the facts, the columns it lacked as their old readings', () => {
    const store = SnapshotStore.open(join(root, CURRENT));
    try {
      const after = expected.factsBetween('', '~');
      const before = store.factsBetween('', '~');
      expect(before.map((f) => f.company)).toEqual(after.map((f) => f.company));
      expect(before.map((f) => [f.penalties, f.disclosure, f.flags])).toEqual(after.map((f) => [f.penalties, f.disclosure, f.flags]));
      expect(before.map((f) => f.carbonFee)).toEqual(after.map((f) => ({ ...f.carbonFee, basis_tco2e: null })));
      expect(before.map((f) => f.assurance)).toEqual(
        after.map((f) => f.assurance && { ...f.assurance, kind: 'cpa', standard: null, verifications: [] }),
      );
      expect(store.etfs().map((e) => [e.etf_code, e.holdings_period, e.holdings_min_weight, e.listed_weight, e.source_id])).toEqual([
        ['HE001', '2026Q3', 0, 0.6216, 'SRC-MOPS-ETF-HOLDINGS'],
        ['HE002', '2026Q2', 0, 1, 'SRC-MOPS-ETF-HOLDINGS'],
      ]);
      expect(store.sources()).toEqual(expected.sources().map((s) => ({ ...s, carried_forward: null })));
      expect(store.cbamProducts()).toEqual(expected.cbamProducts());
    } finally {
      store.close();
    }
    const old = SnapshotStore.open(join(root, OLD));
    expect(old.sources().every((s) => s.files.length === 0)).toBe(true);
    old.close();
  });

  it('leaves each published download as it was (a new file is renamed in; the hard link keeps the old bytes)', () => {
    for (const id of [OLD, CURRENT]) {
      expect(sha(download(id))).toBe(downloadSha.get(id));
      expect(statSync(download(id)).ino).not.toBe(statSync(join(root, id, 'snapshot.sqlite')).ino);
    }
  });

  it("moves the current snapshot's changes.json into changes.sqlite, the same items in the same order", () => {
    expect(existsSync(join(root, CURRENT, 'changes.json'))).toBe(false);
    const store = ChangesStore.open(join(root, CURRENT));
    try {
      expect(store.fromSnapshotId).toBe(OLD);
      expect([...store.entries()]).toEqual(changes);
      expect(store.page({ cause: 'timeliness' }, 0, 10)).toEqual({ total: 1, items: [changes[1]!.item] });
    } finally {
      store.close();
    }
  });

  it("carries the current snapshot's whole histories into the history store, one file per snapshot", () => {
    const records = storeRecords(root);
    expect(records.map((r) => [r.dataset_snapshot_id, r.seq])).toEqual([
      [OLD, 1],
      [CURRENT, 2],
    ]);
    const file = new HistoryChunks(records[0]!.path);
    try {
      expect(JSON.parse(file.rowOf('H0002')![1].toString('utf8'))).toMatchObject({ dataset_snapshot_id: OLD, ticker: 'H0002' });
    } finally {
      file.close();
    }
  });
});

describe('npm run migrate, format 1 → 2 (genuine disclosures: scope 3 verification, the boundary text, the publisher’s date)', () => {
  const FORMAT_2: [string, string][] = [
    ['carbon_disclosures', 'scope3_verified'],
    ['carbon_disclosures', 'boundary_text'],
    ['sources', 'publisher_date'],
  ];
  let root1: string;
  beforeAll(() => {
    root1 = join(work, 'format-1');
    const dir = writeHandBuiltSnapshot(join(root1, CURRENT));
    const db = new Database(join(dir, 'snapshot.sqlite'));
    for (const [table, column] of FORMAT_2) db.exec(`ALTER TABLE ${table} DROP COLUMN ${column}`);
    // Format 2 added the disclosure conduct (methodology 1.2): a format-1 snapshot has no such table.
    db.exec('DROP TABLE disclosure_conduct');
    db.exec("UPDATE meta SET value = '1' WHERE key = 'format_version'");
    db.close();
    symlinkSync(CURRENT, join(root1, 'current'));
  });

  it('is refused before, and reads after with the columns it lacked as those snapshots said them', async () => {
    expect(() => SnapshotStore.open(join(root1, CURRENT))).toThrow('is of format 1; this code reads format 2: run `npm run migrate`');
    expect(await migrateSnapshots(root1)).toEqual({ upgraded: [CURRENT], current: [] });
    const store = SnapshotStore.open(join(root1, CURRENT));
    try {
      const after = expected.factsBetween('', '~');
      const before = store.factsBetween('', '~');
      expect(before.map((f) => f.company)).toEqual(after.map((f) => f.company));
      expect(before.map((f) => f.disclosure)).toEqual(
        after.map((f) => f.disclosure && { ...f.disclosure, scope3_verified: false, boundary_text: null }),
      );
      expect(store.sources()).toEqual(expected.sources().map((s) => ({ ...s, publisher_date: null })));
      expect(after.some((f) => f.conduct.length > 0)).toBe(true);
      expect(before.every((f) => f.conduct.length === 0)).toBe(true);
    } finally {
      store.close();
    }
  });
});

describe('the migration steps', () => {
  it('are ordered and contiguous, each from one format to the next, ending at this code’s format', () => {
    expect(() => checkSteps()).not.toThrow();
    expect(MIGRATION_STEPS.map((s) => [s.from, s.to])).toEqual(Array.from({ length: FORMAT_VERSION }, (_, i) => [i, i + 1]));
    expect(new Set(MIGRATION_STEPS.map((s) => s.name)).size).toBe(MIGRATION_STEPS.length);
  });

  it('a list with a gap, a skip or an end short of this code’s format is refused (the check can fail)', () => {
    const step = (from: number, to: number): MigrationStep => ({ name: `format ${from} → ${to}`, from, to, columnsAdded: {}, tablesAdded: [] });
    expect(() => checkSteps([step(0, 1), step(2, 3)], 3)).toThrow('starts at 2, not at 1');
    expect(() => checkSteps([step(0, 2)], 2)).toThrow('not to the next format');
    expect(() => checkSteps([step(0, 1)], 2)).toThrow("not at this code's 2");
  });

  it('run from the file’s format to this code’s, and none for a current one', () => {
    expect(stepsFrom(0, 'x')).toEqual(MIGRATION_STEPS);
    expect(stepsFrom(FORMAT_VERSION - 1, 'x')).toEqual([MIGRATION_STEPS.at(-1)]);
    expect(stepsFrom(FORMAT_VERSION, 'x')).toEqual([]);
  });

  it('an unknown newer format fails, naming it', async () => {
    const root3 = join(work, 'format-newer');
    const dir = writeHandBuiltSnapshot(join(root3, CURRENT));
    const db = new Database(join(dir, 'snapshot.sqlite'));
    db.prepare("UPDATE meta SET value = ? WHERE key = 'format_version'").run(String(FORMAT_VERSION + 1));
    db.close();
    symlinkSync(CURRENT, join(root3, 'current'));
    await expect(migrateSnapshots(root3)).rejects.toThrow(
      `snapshot ${CURRENT} is of format ${FORMAT_VERSION + 1}, newer than this code's ${FORMAT_VERSION}: serve it with the code that wrote it`,
    );
    expect(() => stepsFrom(Number.NaN, 'snapshot y')).toThrow('snapshot y is of format NaN: this code migrates formats 0 to');
  });
});

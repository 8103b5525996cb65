import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SnapshotStore } from '../../../src/snapshot/store.js';
import { writeHandBuiltSnapshot } from '../../helpers/hand-built-snapshot.js';

/**
 * A build reads the previous snapshot's facts to explain what changed, so the store must open a
 * snapshot written before the assurance kind, the ETF coverage and the carbon-fee figure columns
 * existed. Such a database is made here by dropping those columns from a current one.
 */
let work: string;
let legacy: SnapshotStore;
let current: SnapshotStore;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'legacy-columns-'));
  const currentDir = writeHandBuiltSnapshot(join(work, 'current'));
  const legacyDir = writeHandBuiltSnapshot(join(work, 'legacy'));
  // One company owes the fee on a site's figure in both (the hand-built universe has no registry sites).
  for (const dir of [currentDir, legacyDir]) {
    const db = new Database(join(dir, 'snapshot.sqlite'));
    db.exec("UPDATE carbon_fees SET obligated = 1, basis_tco2e = 30000 WHERE ticker = 'H0002'");
    db.close();
  }
  const db = new Database(join(legacyDir, 'snapshot.sqlite'));
  for (const [table, column] of [['assurances', 'kind'], ['assurances', 'standard'], ['assurances', 'verifications'], ['etfs', 'holdings_period'], ['etfs', 'holdings_min_weight'], ['etfs', 'listed_weight'],
    ['carbon_fees', 'basis_tco2e']]) {
    db.exec(`ALTER TABLE ${table} DROP COLUMN ${column}`);
  }
  // Every fund then came from the MOPS form, which lists every holding.
  db.exec("UPDATE etfs SET source_id = 'SRC-MOPS-ETF-HOLDINGS'");
  db.close();
  legacy = SnapshotStore.open(legacyDir);
  current = SnapshotStore.open(currentDir);
});
afterAll(() => {
  legacy.close();
  current.close();
  rmSync(work, { recursive: true, force: true });
});

describe('a snapshot written before the assurance kind and ETF coverage columns', () => {
  it('opens, and its assurances read with their level and year (all the change explanation reads)', () => {
    const before = legacy.factsBetween('', '~');
    const after = current.factsBetween('', '~');
    expect(before.map((f) => f.company.ticker)).toEqual(after.map((f) => f.company.ticker));
    for (const [i, f] of before.entries()) {
      const a = after[i]!.assurance;
      expect(f.assurance && { level: f.assurance.level, year: f.assurance.year, source_id: f.assurance.source_id }).toEqual(a && { level: a.level, year: a.year, source_id: a.source_id });
      if (f.assurance) expect(f.assurance).toMatchObject({ kind: 'cpa', standard: null, verifications: [] });
    }
    expect(legacy.factsAmong(['H0002'])[0]!.assurance).toEqual(legacy.factsOf(legacy.company('H0002')!).assurance);
  });

  it('reads each carbon fee as it was, its basis figure as none', () => {
    const before = legacy.factsBetween('', '~').map((f) => f.carbonFee);
    const after = current.factsBetween('', '~').map((f) => f.carbonFee);
    expect(after.filter((fee) => fee.basis_tco2e !== null).map((fee) => fee.basis_tco2e)).toEqual([30_000]);
    expect(before).toEqual(after.map((fee) => ({ ...fee, basis_tco2e: null })));
    expect(legacy.factsOf(legacy.company('H0002')!).carbonFee).toEqual(before[legacy.tickers().indexOf('H0002')]);
  });

  it('gives each fund its period from the as-of date, cut-off 0 and the sum of its stored weights', () => {
    expect(legacy.etfs().map((e) => [e.etf_code, e.holdings_period, e.holdings_min_weight, e.listed_weight, e.source_id])).toEqual([
      ['HE001', '2026Q3', 0, 0.6216, 'SRC-MOPS-ETF-HOLDINGS'],
      ['HE002', '2026Q2', 0, 1, 'SRC-MOPS-ETF-HOLDINGS'],
    ]);
    expect(legacy.etf('HE001')!.etf).toEqual(legacy.etfs()[0]);
  });
});

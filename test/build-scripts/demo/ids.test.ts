import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniformNoFor } from '../../../build-scripts/demo/ids.js';
import { currentSnapshotDir } from '../../../src/snapshot/published.js';
import { SnapshotStore } from '../../../src/snapshot/store.js';
import { officiallyValid } from '../../helpers/ubn.js';
import { demoSnapshotsDir } from '../../helpers/demo-snapshots-dir.js';

describe('demo business ID numbers (統一編號) can never be real ones', () => {
  it('the reference check accepts known valid numbers and rejects their neighbours', () => {
    expect(officiallyValid('22099131')).toBe(true); // a real listed company's number
    expect(officiallyValid('66293771')).toBe(true); // valid only through the seventh-digit-7 rule
    expect(officiallyValid('22099132')).toBe(false);
    expect(officiallyValid('66293773')).toBe(false);
  });

  it('every number the generator can give, for the first 100,000 companies, fails the official check', () => {
    const seen = new Set<string>();
    for (let k = 0; k < 100_000; k++) {
      const ubn = uniformNoFor(20261101, k);
      if (officiallyValid(ubn)) throw new Error(`demo number ${ubn} (index ${k}) passes the official check`);
      seen.add(ubn);
    }
    expect(seen.size).toBe(100_000);
  });

  describe('in the published demo snapshot', () => {
    let store: SnapshotStore;
    beforeAll(() => {
      store = SnapshotStore.open(currentSnapshotDir(demoSnapshotsDir)!);
    });
    afterAll(() => store.close());

    it('every company and registry site number fails the official check', () => {
      const numbers = store.db.prepare('SELECT uniform_no FROM companies UNION SELECT uniform_no FROM registry_sites').pluck().all() as string[];
      expect(numbers.length).toBeGreaterThanOrEqual(1800);
      expect(numbers.filter(officiallyValid)).toEqual([]);
    });
  });
});

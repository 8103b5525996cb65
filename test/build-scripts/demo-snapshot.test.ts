import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARCHETYPES, expectedResult } from '../../build-scripts/demo/archetypes.js';
import { tickerFor } from '../../build-scripts/demo/ids.js';
import { DEMO_SERIES_START } from '../../build-scripts/demo/series.js';
import { FLAG_CATALOGUE } from '../../src/methodology/rules.js';
import { currentSnapshotDir, publishedSnapshotIds, snapshotDir } from '../../src/snapshot/published.js';
import { SnapshotStore } from '../../src/snapshot/store.js';
import { demoSnapshotsDir } from '../helpers/demo-snapshots-dir.js';
import { demoSeriesSnapshotsDir } from '../helpers/demo-series-dir.js';

/**
 * The default demo snapshot as published: the generator's archetypes (whose expected scores and
 * flags were worked out independently from contract section 7) come out of the adapters and the
 * scorer with exactly those results, and every flag and verdict occurs.
 */
let store: SnapshotStore;
beforeAll(() => {
  store = SnapshotStore.open(currentSnapshotDir(demoSnapshotsDir)!);
});
afterAll(() => store.close());

describe('default demo snapshot', () => {
  it('has about 1,800 companies, ≈55 % listed, and roughly 130 carbon-fee liable', () => {
    const all = [...store.companies()];
    expect(all).toHaveLength(1800);
    const listed = all.filter((c) => c.market_type === 'listed').length / all.length;
    expect(listed).toBeGreaterThan(0.5);
    expect(listed).toBeLessThan(0.6);
    const liable = all.filter((c) => c.carbon_fee_liable).length;
    expect(liable).toBeGreaterThan(100);
    expect(liable).toBeLessThan(170);
  });

  it('scores every archetype exactly as expected', () => {
    ARCHETYPES.forEach((a, i) => {
      const ticker = tickerFor(i, 1800);
      const c = store.company(ticker)!;
      const flags = store
        .factsOf(c)
        .flags.map((f) => f.flag_id)
        .sort();
      const expected = [...a.expect.flags].map((f) => (f.startsWith('GF-') ? f : `GF-${f}`)).sort();
      expect({ ticker, score: c.credibility_score, flags }).toEqual({ ticker, score: a.expect.score, flags: expected });
    });
  });

  it('raises every flag and reaches every verdict and consistency rule', () => {
    const flagCounts = store.db.prepare('SELECT flag_id, COUNT(*) AS n FROM flags GROUP BY flag_id').all() as { flag_id: string; n: number }[];
    expect(flagCounts.map((f) => f.flag_id).sort()).toEqual(FLAG_CATALOGUE.map((f) => f.id).sort());
    const verdicts = store.db.prepare('SELECT DISTINCT verdict FROM companies').pluck().all();
    expect(verdicts.sort()).toEqual(['credible', 'decent', 'poor', 'questionable']);
    const details = new Set([...store.companies()].map((c) => c.score_breakdown.find((p) => p.component === 'consistency')!.detail));
    expect(details.size).toBe(5);
  });
});

describe('the evolving demo’s first month (as of 31 August: E(D) = year(D) − 2)', () => {
  it('scores every archetype as expected before the reporting deadline, and raises every flag', () => {
    const dir = demoSeriesSnapshotsDir;
    const first = SnapshotStore.open(snapshotDir(dir, publishedSnapshotIds(dir)[0]!));
    try {
      expect(first.meta.data_asof).toBe(DEMO_SERIES_START);
      ARCHETYPES.forEach((a, i) => {
        const ticker = tickerFor(i, 1800);
        const c = first.company(ticker)!;
        const flags = first
          .factsOf(c)
          .flags.map((f) => f.flag_id)
          .sort();
        const expected = expectedResult(a, first.meta.data_asof);
        expect({ id: a.id, score: c.credibility_score, flags }).toEqual({ id: a.id, score: expected.score, flags: [...expected.flags].sort() });
      });
      const flagIds = first.db.prepare('SELECT DISTINCT flag_id FROM flags').pluck().all() as string[];
      expect(flagIds.sort()).toEqual(FLAG_CATALOGUE.map((f) => f.id).sort());
    } finally {
      first.close();
    }
  });
});

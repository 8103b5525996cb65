import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentSnapshotDir } from '../../../src/snapshot/published.js';
import { SnapshotStore } from '../../../src/snapshot/store.js';
import { demoSnapshotsDir } from '../../helpers/demo-snapshots-dir.js';

/** The store's bulk reads against its one-company reads, over the demo snapshot. */
let store: SnapshotStore;
let tickers: string[];
beforeAll(() => {
  store = SnapshotStore.open(currentSnapshotDir(demoSnapshotsDir)!);
  tickers = store.tickers();
});
afterAll(() => store.close());

describe('factsBetween', () => {
  it('gives, range by range, exactly what factsOf gives each company', () => {
    // Ranges of several sizes, starting on a ticker, between two tickers, and before the first.
    for (const size of [1, 7, 250]) {
      const seen: string[] = [];
      for (let i = 0; i < tickers.length; i += size) {
        const from = i === 0 ? '' : tickers[i]!;
        const to = i + size < tickers.length ? tickers[i + size]! : '~';
        for (const facts of store.factsBetween(from, to)) {
          expect(facts).toEqual(store.factsOf(facts.company));
          seen.push(facts.company.ticker);
        }
      }
      expect(seen).toEqual(tickers);
    }
  });

  it('covers companies with penalties, no disclosure and no assurance alike', () => {
    const all = store.factsBetween('', '~');
    expect(all.some((f) => f.penalties.length > 1)).toBe(true);
    expect(all.some((f) => f.disclosure === null)).toBe(true);
    expect(all.some((f) => f.assurance === null)).toBe(true);
    expect(all.some((f) => f.flags.length > 1)).toBe(true);
  });

  it('an empty range gives nothing', () => {
    expect(store.factsBetween(tickers[3]!, tickers[3]!)).toEqual([]);
    expect(store.factsBetween(`${tickers[3]!}0`, `${tickers[3]!}1`)).toEqual([]);
  });
});

describe('rankedCompanies', () => {
  it('is every company in the default order: score descending, then ticker', () => {
    const ranked = store.rankedCompanies();
    const expected = [...store.companies()]
      .sort((a, b) => b.credibility_score - a.credibility_score || (a.ticker < b.ticker ? -1 : 1))
      .map((c) => ({ ticker: c.ticker, company_name: c.company_name, credibility_score: c.credibility_score, verdict: c.verdict, rank: c.rank }));
    expect(ranked).toEqual(expected);
  });
});

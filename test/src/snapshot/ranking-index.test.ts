import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RankingIndex, type RankingFilter, type RankingSort } from '../../../src/snapshot/ranking-index.js';
import { currentSnapshotDir } from '../../../src/snapshot/published.js';
import { SnapshotStore, type CompanyRecord } from '../../../src/snapshot/store.js';
import { demoSnapshotsDir } from '../../helpers/demo-snapshots-dir.js';

/** The in-memory index against a brute-force reading of contract 4.2 over the demo snapshot. */
let store: SnapshotStore;
let index: RankingIndex;
let all: (CompanyRecord & { flags: string[] })[];

beforeAll(() => {
  store = SnapshotStore.open(currentSnapshotDir(demoSnapshotsDir)!);
  index = RankingIndex.fromStore(store);
  all = [...store.companies()].map((c) => ({ ...c, flags: store.factsOf(c).flags.map((f) => f.flag_id) }));
});
afterAll(() => store.close());

function bruteForce(f: RankingFilter, sort: RankingSort): string[] {
  const q = f.q?.toLowerCase();
  return all
    .filter((c) => f.industry === undefined || c.industry === f.industry)
    .filter((c) => f.marketType === undefined || c.market_type === f.marketType)
    .filter((c) => f.assuranceLevel === undefined || c.assurance_level === f.assuranceLevel)
    .filter((c) => f.gf === undefined || c.flags.includes(f.gf))
    .filter((c) => !q || [c.ticker, c.company_name, c.company_name_norm].some((s) => s.toLowerCase().includes(q)))
    .sort(
      (a, b) =>
        (sort === 'score_desc' ? b.credibility_score - a.credibility_score : a.credibility_score - b.credibility_score) ||
        (a.ticker < b.ticker ? -1 : 1),
    )
    .map((c) => c.ticker);
}

describe('RankingIndex', () => {
  it('matches a brute-force filter and order for random filters', () => {
    const industries = [...new Set(all.map((c) => c.industry))];
    const names = all.map((c) => c.company_name_norm);
    const substring = fc.tuple(fc.constantFrom(...names), fc.nat(), fc.integer({ min: 1, max: 4 })).map(([s, start, len]) => {
      const chars = [...s];
      const from = start % chars.length;
      return chars.slice(from, from + len).join('');
    });
    const filter = fc.record(
      {
        industry: fc.constantFrom(...industries, '不存在業'),
        marketType: fc.constantFrom('listed' as const, 'otc' as const),
        assuranceLevel: fc.constantFrom('none' as const, 'limited' as const, 'reasonable' as const),
        gf: fc.constantFrom('GF-F01', 'GF-P02', 'GF-A01', 'GF-P01', 'GF-D01', 'GF-C01', 'GF-V01', 'GF-D02', 'GF-ZZ9'),
        q: fc.oneof(substring, fc.constantFrom('d11', 'D1', '1', 'ZZZ', '股份有限', '示')),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(filter, fc.constantFrom('score_desc' as const, 'score_asc' as const), (f, sort) => {
        const expected = bruteForce(f, sort);
        expect(index.tickers(f, sort)).toEqual(expected);
        const page = index.page(f, sort, 7, 3);
        expect(page.total).toBe(expected.length);
        expect(page.rows.map((r) => r.ticker)).toEqual(expected.slice(3, 10));
      }),
      { numRuns: 300 },
    );
  });

  it('keeps global ranks and orders ties by ticker in both directions', () => {
    const desc = index.page({}, 'score_desc', 1800, 0).rows;
    expect(desc.map((r) => r.rank)).toEqual(desc.map((r) => store.company(r.ticker)!.rank));
    const asc = index.tickers({}, 'score_asc');
    expect(asc).toEqual(bruteForce({}, 'score_asc'));
    expect(index.page({ industry: '水泥工業' }, 'score_desc', 200, 0).rows.every((r) => r.rank === store.company(r.ticker)!.rank)).toBe(true);
  });
});

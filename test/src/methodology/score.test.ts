import { describe, expect, it } from 'vitest';
import type { DisclosureFacts, MethodologyInput, PenaltyFacts } from '../../../src/methodology/facts.js';
import { ASSURANCE, COMPLIANCE, CONSISTENCY, DISCLOSURE, verdictFor, VERDICT_BANDS } from '../../../src/methodology/rules.js';
import { scoreCompany } from '../../../src/methodology/score.js';

const D = '2026-10-31';

/** A company with nothing: no disclosure, no assurance, no penalties, not obligated, not CBAM. */
function input(over: Partial<MethodologyInput> = {}): MethodologyInput {
  return {
    asof: D,
    companySourceId: 'SRC-TWSE-COMPANY',
    cbamExposed: false,
    disclosure: null,
    assurance: null,
    carbonFee: { obligated: false, sourceId: 'SRC-MOENV-GHG_P_01' },
    penalties: [],
    conduct: [],
    registryTotal: null,
    ...over,
  };
}
function disc(over: Partial<DisclosureFacts> = {}): DisclosureFacts {
  return { year: 2025, scope1: 1_000, scope2: 2_000, scope3: 500, scope1Verified: true, scope2Verified: true, sourceId: 'SRC-TWSE-ESG-GHG', ...over };
}
function pen(date: string, fine = 0, serious = false): PenaltyFacts {
  return { date, fine, serious, sourceId: 'SRC-MOENV-EMS_P_46' };
}
const points = (i: MethodologyInput, component: string) => scoreCompany(i).score_breakdown.find((c) => c.component === component)!.points;

describe('rules constants are those of contract section 7', () => {
  it('has the published numbers', () => {
    expect(DISCLOSURE).toEqual({ max: 35, scope12: 20, scope3: 5, timelyRecent: 10, timelyTwoYears: 5 });
    expect(ASSURANCE).toEqual({ max: 25, reasonable: 25, limited: 15, none: 0 });
    expect(COMPLIANCE.max).toBe(30);
    expect(COMPLIANCE.windowMonths).toBe(36);
    expect(COMPLIANCE.perPenalty).toBe(4);
    expect(COMPLIANCE.serious).toBe(6);
    expect(CONSISTENCY).toEqual({ max: 10, full: 10, partial: 5, none: 0 });
  });
});

describe('disclosure (max 35)', () => {
  const p = (d: DisclosureFacts | null) => points(input({ disclosure: d }), 'disclosure');

  it('no disclosure → 0', () => expect(p(null)).toBe(0));
  it('scope 1, 2 and 3 for year E(D) → 35', () => expect(p(disc())).toBe(35));
  it('scope 1 and 2 both present → 20 of it; one missing → 0', () => {
    expect(p(disc({ scope3: null }))).toBe(20 + 10);
    expect(p(disc({ scope1: null, scope3: null }))).toBe(0 + 10);
    expect(p(disc({ scope2: null, scope3: null }))).toBe(0 + 10);
    expect(p(disc({ scope1: null, scope2: null, scope3: null }))).toBe(10);
  });
  it('a zero figure counts as disclosed', () => {
    expect(p(disc({ scope1: 0, scope2: 0, scope3: 0 }))).toBe(35);
  });
  it('scope 3 → 5 (even when scope 1 or 2 is missing)', () => {
    expect(p(disc({ scope1: null }))).toBe(5 + 10);
    expect(p(disc({ scope1: null, scope2: null }))).toBe(5 + 10);
  });
  it.each([
    [2027, 10],
    [2026, 10],
    [2025, 10],
    [2024, 5],
    [2023, 0],
    [2015, 0],
  ])('timeliness: reporting year %i with D = 2026-10-31 (E(D) = 2025) → %i', (year, timely) => {
    expect(p(disc({ year, scope1: null, scope2: null, scope3: null }))).toBe(timely);
    expect(p(disc({ year }))).toBe(25 + timely);
  });
  it('timeliness follows E(D), which moves on 1 September, not on 1 January', () => {
    const i = (asof: string) => input({ asof, disclosure: disc({ year: 2024, scope3: null }) });
    expect(points(i('2025-01-01'), 'disclosure')).toBe(30); // E = 2023
    expect(points(i('2026-08-31'), 'disclosure')).toBe(30); // E = 2024: still on time
    expect(points(i('2026-09-01'), 'disclosure')).toBe(25); // E = 2025: a year late
    expect(points(i('2026-12-31'), 'disclosure')).toBe(25);
    expect(points(i('2027-01-01'), 'disclosure')).toBe(25); // a new calendar year changes nothing
    expect(points(i('2027-08-31'), 'disclosure')).toBe(25);
    expect(points(i('2027-09-01'), 'disclosure')).toBe(20); // E = 2026: two years late
  });
  it.each([
    ['2026-08-31', 2024, 10],
    ['2026-08-31', 2025, 10],
    ['2026-08-31', 2023, 5],
    ['2026-08-31', 2022, 0],
    ['2026-09-01', 2025, 10],
    ['2026-09-01', 2024, 5],
    ['2026-09-01', 2023, 0],
    ['2027-01-15', 2025, 10],
    ['2027-01-15', 2024, 5],
  ])('timeliness as of %s: reporting year %i → %i', (asof, year, timely) => {
    expect(points(input({ asof, disclosure: disc({ year, scope1: null, scope2: null, scope3: null }) }), 'disclosure')).toBe(timely);
  });
  it('says the expected year in its detail', () => {
    const part = scoreCompany(input({ asof: '2026-08-31', disclosure: disc({ year: 2024 }) })).score_breakdown[0]!;
    expect(part.detail).toContain('reporting year 2024, 2024 expected (10)');
  });
});

describe('assurance (max 25)', () => {
  const p = (assurance: MethodologyInput['assurance'], disclosure: DisclosureFacts | null = disc()) =>
    points(input({ assurance, disclosure }), 'assurance');
  const a = (level: 'limited' | 'reasonable', year = 2025) => ({ level, year, sourceId: 'SRC-MOPS-ESGREPORT' });

  it('reasonable → 25, limited → 15, none → 0', () => {
    expect(p(a('reasonable'))).toBe(25);
    expect(p(a('limited'))).toBe(15);
    expect(p(null)).toBe(0);
    expect(p(null, null)).toBe(0);
  });
  it('halved, rounded down, when the assured year is older than the disclosure year', () => {
    expect(p(a('reasonable', 2024))).toBe(12);
    expect(p(a('limited', 2024))).toBe(7);
    expect(p(a('limited', 2020))).toBe(7);
  });
  it('not halved when the assured year equals or is newer than the disclosure year', () => {
    expect(p(a('reasonable', 2025))).toBe(25);
    expect(p(a('limited', 2025))).toBe(15);
    expect(p(a('reasonable', 2026))).toBe(25);
    expect(p(a('limited', 2026))).toBe(15);
  });
  it('not halved when there is no disclosure', () => {
    expect(p(a('reasonable', 2020), null)).toBe(25);
    expect(p(a('limited', 2020), null)).toBe(15);
  });
});

describe('compliance (max 30)', () => {
  const p = (penalties: PenaltyFacts[]) => points(input({ penalties }), 'compliance');
  const recent = '2026-05-01';

  it('no penalties → 30', () => expect(p([])).toBe(30));
  it.each([1, 2, 3, 5, 7])('%i small penalties → 30 − 4n', (n) => {
    expect(p(Array.from({ length: n }, () => pen(recent, 1_000)))).toBe(30 - 4 * n);
  });
  it('floors at 0 (8 penalties)', () => {
    expect(p(Array.from({ length: 8 }, () => pen(recent)))).toBe(0);
    expect(p(Array.from({ length: 20 }, () => pen(recent, 50_000_000, true)))).toBe(0);
  });
  it.each([
    [[999_999], 0],
    [[500_000, 499_999], 0],
    [[1_000_000], 4],
    [[400_000, 600_000], 4],
    [[9_999_999], 4],
    [[10_000_000], 8],
    [[5_000_000, 5_000_000], 8],
    [[99_999_999], 8],
    [[100_000_000], 12],
    [[60_000_000, 40_000_000], 12],
    [[2_000_000_000], 12],
  ])('fines %j in the window → tier −%i', (fines, tier) => {
    expect(p(fines.map((f) => pen(recent, f)))).toBe(30 - 4 * fines.length - tier);
  });
  it('a serious penalty costs 6 more, once', () => {
    expect(p([pen(recent, 0, true)])).toBe(30 - 4 - 6);
    expect(p([pen(recent, 0, true), pen(recent, 0, true)])).toBe(30 - 8 - 6);
    expect(p([pen(recent, 100_000_000, true)])).toBe(30 - 4 - 12 - 6);
  });
  it('penalties outside the 36-month window are ignored for count, fines and seriousness', () => {
    const old = pen('2023-10-31', 500_000_000, true); // exactly 36 months before D: out
    const future = pen('2026-11-01', 500_000_000, true); // after D: out
    expect(p([old])).toBe(30);
    expect(p([old, future])).toBe(30);
    expect(p([pen('2023-11-01', 0, false)])).toBe(26); // a day younger: in
    expect(p([pen(D, 0, false)])).toBe(26); // dated D: in
    // fines outside the window do not push the in-window sum over a tier
    expect(p([pen(recent, 600_000), pen('2020-01-01', 600_000)])).toBe(26);
    expect(p([pen(recent, 600_000), pen('2023-10-31', 600_000, true)])).toBe(26);
  });
});

describe('consistency (max 10): the first rule that matches', () => {
  const obligated = { obligated: true, sourceId: 'SRC-MOENV-GHG_P_01' };
  const p = (over: Partial<MethodologyInput>) => points(input(over), 'consistency');

  it('(1) CBAM-exposed with no scope 1 figure → 0, even when not obligated', () => {
    expect(p({ cbamExposed: true, disclosure: null })).toBe(0);
    expect(p({ cbamExposed: true, disclosure: disc({ scope1: null }) })).toBe(0);
    expect(p({ cbamExposed: true, disclosure: disc({ scope1: null }), carbonFee: obligated })).toBe(0);
  });
  it('(2) not carbon-fee obligated → 10', () => {
    expect(p({ cbamExposed: true, disclosure: disc({ scope2: null, scope1Verified: false }) })).toBe(10);
    expect(p({ disclosure: null })).toBe(10);
    expect(p({ disclosure: disc({ scope1: null }) })).toBe(10);
  });
  it('(3) obligated with no disclosure → 0', () => {
    expect(p({ carbonFee: obligated, disclosure: null })).toBe(0);
  });
  it('(4) obligated, scope 1 and 2 both present and both verified → 10', () => {
    expect(p({ carbonFee: obligated, disclosure: disc() })).toBe(10);
    expect(p({ carbonFee: obligated, cbamExposed: true, disclosure: disc({ scope3: null }) })).toBe(10);
  });
  it('(5) otherwise → 5', () => {
    expect(p({ carbonFee: obligated, disclosure: disc({ scope1Verified: false }) })).toBe(5);
    expect(p({ carbonFee: obligated, disclosure: disc({ scope2Verified: false }) })).toBe(5);
    expect(p({ carbonFee: obligated, disclosure: disc({ scope2: null }) })).toBe(5);
    expect(p({ carbonFee: obligated, disclosure: disc({ scope1: null }) })).toBe(5);
    expect(p({ carbonFee: obligated, disclosure: disc({ scope1: null, scope2: null, scope3: 10 }) })).toBe(5);
  });
});

describe('score and breakdown', () => {
  const cases: [string, MethodologyInput][] = [
    ['empty company', input()],
    ['perfect company', input({ disclosure: disc(), assurance: { level: 'reasonable', year: 2025, sourceId: 'SRC-MOPS-ESGREPORT' } })],
    [
      'mixed company',
      input({
        cbamExposed: true,
        carbonFee: { obligated: true, sourceId: 'SRC-MOENV-GHG_P_01' },
        disclosure: disc({ year: 2024, scope3: null, scope2Verified: false }),
        assurance: { level: 'limited', year: 2023, sourceId: 'SRC-MOPS-ESGREPORT' },
        penalties: [pen('2026-01-01', 2_000_000), pen('2025-01-01', 0, true), pen('2020-01-01', 1e9, true)],
      }),
    ],
  ];

  it.each(cases)('%s: four components in order with max 35/25/30/10, points summing to the score', (_, i) => {
    const s = scoreCompany(i);
    expect(s.score_breakdown.map((c) => [c.component, c.max_points])).toEqual([
      ['disclosure', 35],
      ['assurance', 25],
      ['compliance', 30],
      ['consistency', 10],
    ]);
    expect(s.credibility_score).toBe(s.score_breakdown.reduce((a, c) => a + c.points, 0));
    expect(s.verdict).toBe(verdictFor(s.credibility_score));
    for (const c of s.score_breakdown) {
      expect(Number.isInteger(c.points)).toBe(true);
      expect(c.points).toBeGreaterThanOrEqual(0);
      expect(c.points).toBeLessThanOrEqual(c.max_points);
      expect(c.detail.length).toBeGreaterThan(0);
      expect(Object.keys(c)).toEqual(['component', 'points', 'max_points', 'detail']);
    }
  });

  it('scores the three cases as the contract says', () => {
    expect(scoreCompany(cases[0]![1])).toMatchObject({ credibility_score: 0 + 0 + 30 + 10, verdict: 'questionable' });
    expect(scoreCompany(cases[1]![1])).toMatchObject({ credibility_score: 100, verdict: 'credible' });
    // disclosure 20 + 0 + 5; assurance 15 halved → 7; compliance 30 − 8 − 4 − 6 = 12; consistency (5)
    const mixed = scoreCompany(cases[2]![1]);
    expect(mixed.score_breakdown.map((c) => c.points)).toEqual([25, 7, 12, 5]);
    expect(mixed).toMatchObject({ credibility_score: 49, verdict: 'questionable' });
  });
});

describe('verdict thresholds', () => {
  it.each([
    [100, 'credible'],
    [80, 'credible'],
    [79, 'decent'],
    [60, 'decent'],
    [59, 'questionable'],
    [40, 'questionable'],
    [39, 'poor'],
    [0, 'poor'],
  ] as const)('%i → %s', (score, verdict) => {
    expect(verdictFor(score)).toBe(verdict);
  });

  it('the bands cover 0–100 without gaps', () => {
    expect(VERDICT_BANDS.map((v) => [v.min, v.max])).toEqual([
      [80, 100],
      [60, 79],
      [40, 59],
      [0, 39],
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import type { DisclosureFacts, MethodologyInput, PenaltyFacts } from '../../../src/methodology/facts.js';
import { flagsFor, sortFlags } from '../../../src/methodology/flags.js';
import { scoreCompany } from '../../../src/methodology/score.js';
import { FLAG_CATALOGUE, type FlagId } from '../../../src/methodology/rules.js';

const D = '2026-10-31';
const COMPANY = 'SRC-TWSE-COMPANY';
const FEE = 'SRC-FEE-FACT';
const DISC = 'SRC-TWSE-ESG-GHG';
const REG = 'SRC-MOENV-GHG_P_01#2025';

function input(over: Partial<MethodologyInput> = {}): MethodologyInput {
  return {
    asof: D,
    companySourceId: COMPANY,
    cbamExposed: false,
    disclosure: null,
    assurance: null,
    carbonFee: { obligated: false, sourceId: FEE },
    penalties: [],
    conduct: [],
    registryTotal: null,
    ...over,
  };
}
function disc(over: Partial<DisclosureFacts> = {}): DisclosureFacts {
  return { year: 2025, scope1: 1_000, scope2: 2_000, scope3: 500, scope1Verified: true, scope2Verified: true, sourceId: DISC, ...over };
}
/** Each penalty carries its own source id so the flag's source can be traced to one penalty. */
function pen(date: string, serious = false, id = `P-${date}`): PenaltyFacts {
  return { date, fine: 10_000, serious, sourceId: id };
}
const assured = { level: 'limited' as const, year: 2025, sourceId: 'SRC-MOPS-ESGREPORT' };
const obligated = { obligated: true, sourceId: FEE };

const ids = (i: MethodologyInput) => flagsFor(i).map((f) => f.id);
const get = (i: MethodologyInput, id: FlagId) => flagsFor(i).find((f) => f.id === id);
const has = (i: MethodologyInput, id: FlagId) => ids(i).includes(id);

describe('a company with nothing to flag', () => {
  it('raises no flag when assured, current, complete, clean', () => {
    expect(flagsFor(input({ disclosure: disc(), assurance: assured }))).toEqual([]);
  });
  it('raises no flag with no disclosure and nothing else', () => {
    expect(flagsFor(input())).toEqual([]);
  });
});

describe('GF-F01 (critical): obligated and no disclosure with year ≥ E(D)', () => {
  it('obligated with disclosure year E(D) or later → not raised', () => {
    expect(has(input({ carbonFee: obligated, disclosure: disc({ year: 2025 }), assurance: assured }), 'GF-F01')).toBe(false);
    expect(has(input({ carbonFee: obligated, disclosure: disc({ year: 2026 }), assurance: assured }), 'GF-F01')).toBe(false);
  });
  it('obligated with disclosure year E(D) − 1 → raised', () => {
    expect(has(input({ carbonFee: obligated, disclosure: disc({ year: 2024 }) }), 'GF-F01')).toBe(true);
  });
  it('E(D) moves on 1 September: a 2024 disclosure is enough up to 2026-08-31, not from 2026-09-01', () => {
    const i = (asof: string, year: number) => input({ asof, carbonFee: obligated, disclosure: disc({ year }), assurance: assured });
    expect(has(i('2026-08-31', 2024), 'GF-F01')).toBe(false);
    expect(has(i('2026-09-01', 2024), 'GF-F01')).toBe(true);
    expect(has(i('2026-08-31', 2023), 'GF-F01')).toBe(true);
    expect(has(i('2027-01-15', 2025), 'GF-F01')).toBe(false);
    expect(has(i('2027-01-15', 2024), 'GF-F01')).toBe(true);
  });
  it('obligated with no disclosure → raised, with the carbon-fee fact as source', () => {
    expect(get(input({ carbonFee: obligated }), 'GF-F01')).toEqual({
      id: 'GF-F01',
      label: FLAG_CATALOGUE.find((f) => f.id === 'GF-F01')!.label,
      severity: 'critical',
      source_id: FEE,
    });
  });
  it('not obligated → not raised, even with no or an old disclosure', () => {
    expect(has(input(), 'GF-F01')).toBe(false);
    expect(has(input({ disclosure: disc({ year: 2020 }) }), 'GF-F01')).toBe(false);
  });
});

describe('GF-P02 (critical): ≥ 3 penalties or a serious one in the last 36 months', () => {
  it('2 penalties, none serious → not raised', () => {
    expect(has(input({ penalties: [pen('2026-01-01'), pen('2025-01-01')] }), 'GF-P02')).toBe(false);
  });
  it('3 penalties → raised', () => {
    expect(has(input({ penalties: [pen('2026-01-01'), pen('2025-01-01'), pen('2024-01-01')] }), 'GF-P02')).toBe(true);
  });
  it('3 penalties but one exactly 36 months old → not raised', () => {
    expect(has(input({ penalties: [pen('2026-01-01'), pen('2025-01-01'), pen('2023-10-31')] }), 'GF-P02')).toBe(false);
    expect(has(input({ penalties: [pen('2026-01-01'), pen('2025-01-01'), pen('2023-11-01')] }), 'GF-P02')).toBe(true);
  });
  it('1 serious penalty → raised', () => {
    expect(has(input({ penalties: [pen('2024-01-01', true)] }), 'GF-P02')).toBe(true);
  });
  it('a serious penalty exactly 36 months old → not raised; a day younger → raised', () => {
    expect(has(input({ penalties: [pen('2023-10-31', true)] }), 'GF-P02')).toBe(false);
    expect(has(input({ penalties: [pen('2023-11-01', true)] }), 'GF-P02')).toBe(true);
  });
  it('a serious penalty dated after D → not raised', () => {
    expect(has(input({ penalties: [pen('2026-11-01', true)] }), 'GF-P02')).toBe(false);
  });
  it('source is the newest penalty of the last 36 months (not a newer one after D, not an older one)', () => {
    const penalties = [
      pen('2024-01-01', true, 'P-old'),
      pen('2026-11-15', true, 'P-after-D'),
      pen('2025-03-01', false, 'P-newest'),
      pen('2019-01-01', true, 'P-ancient'),
    ];
    expect(get(input({ penalties }), 'GF-P02')).toMatchObject({ severity: 'critical', source_id: 'P-newest' });
  });
});

describe('GF-A01 (warning): a disclosure with a figure and no assurance', () => {
  it('disclosure with a figure and no assurance → raised, source the disclosure', () => {
    expect(get(input({ disclosure: disc() }), 'GF-A01')).toMatchObject({ severity: 'warning', source_id: DISC });
    expect(has(input({ disclosure: disc({ scope1: null, scope2: null, scope3: 7 }) }), 'GF-A01')).toBe(true);
  });
  it('with assurance → not raised', () => {
    expect(has(input({ disclosure: disc(), assurance: assured }), 'GF-A01')).toBe(false);
    expect(has(input({ disclosure: disc(), assurance: { ...assured, year: 2020 } }), 'GF-A01')).toBe(false);
  });
  it('no disclosure → not raised', () => {
    expect(has(input(), 'GF-A01')).toBe(false);
  });
  it('a disclosure with no figure at all → not raised', () => {
    expect(has(input({ disclosure: disc({ scope1: null, scope2: null, scope3: null }) }), 'GF-A01')).toBe(false);
  });
});

describe('GF-P01 (warning): a penalty in the last 12 months', () => {
  it('a penalty exactly 12 months old → not raised', () => {
    expect(has(input({ penalties: [pen('2025-10-31')] }), 'GF-P01')).toBe(false);
  });
  it('a day younger → raised, source that penalty', () => {
    expect(get(input({ penalties: [pen('2025-11-01', false, 'P-young')] }), 'GF-P01')).toMatchObject({ severity: 'warning', source_id: 'P-young' });
  });
  it('dated D → raised; after D → not', () => {
    expect(has(input({ penalties: [pen(D)] }), 'GF-P01')).toBe(true);
    expect(has(input({ penalties: [pen('2026-11-01')] }), 'GF-P01')).toBe(false);
  });
  it('with several recent penalties the source is the newest of them (within D)', () => {
    const penalties = [
      pen('2026-02-01', false, 'P-a'),
      pen('2026-09-30', false, 'P-b'),
      pen('2027-01-01', false, 'P-future'),
      pen('2026-05-01', false, 'P-c'),
    ];
    expect(get(input({ penalties }), 'GF-P01')?.source_id).toBe('P-b');
  });
});

describe('GF-D01 (warning): disclosure year < E(D)', () => {
  it('year E(D) − 1 → raised, source the disclosure', () => {
    expect(get(input({ disclosure: disc({ year: 2024 }), assurance: assured }), 'GF-D01')).toMatchObject({ severity: 'warning', source_id: DISC });
  });
  it('year E(D) → not raised', () => {
    expect(has(input({ disclosure: disc({ year: 2025 }) }), 'GF-D01')).toBe(false);
  });
  it('E(D) moves on 1 September: a 2024 disclosure is on time up to 2026-08-31, out of date from 2026-09-01', () => {
    const i = (asof: string, year: number) => input({ asof, disclosure: disc({ year }), assurance: assured });
    expect(has(i('2026-08-31', 2024), 'GF-D01')).toBe(false);
    expect(has(i('2026-09-01', 2024), 'GF-D01')).toBe(true);
    expect(has(i('2026-08-31', 2023), 'GF-D01')).toBe(true);
    expect(has(i('2027-01-15', 2025), 'GF-D01')).toBe(false);
    expect(has(i('2027-01-15', 2024), 'GF-D01')).toBe(true);
  });
  it('no disclosure → not raised', () => {
    expect(has(input(), 'GF-D01')).toBe(false);
  });
});

describe('GF-C01 (warning): CBAM-exposed without a scope 1 figure', () => {
  it('CBAM-exposed with scope 1 null → raised, source the company', () => {
    expect(get(input({ cbamExposed: true, disclosure: disc({ scope1: null }) }), 'GF-C01')).toMatchObject({
      severity: 'warning',
      source_id: COMPANY,
    });
  });
  it('CBAM-exposed with no disclosure → raised', () => {
    expect(get(input({ cbamExposed: true }), 'GF-C01')?.source_id).toBe(COMPANY);
  });
  it('CBAM-exposed with scope 1 → not raised', () => {
    expect(has(input({ cbamExposed: true, disclosure: disc({ scope2: null, scope3: null }) }), 'GF-C01')).toBe(false);
  });
  it('not CBAM-exposed → not raised', () => {
    expect(has(input({ disclosure: disc({ scope1: null }) }), 'GF-C01')).toBe(false);
  });
});

describe('GF-V01 (warning): scope 1 + 2 differs from the registry by more than 10 %', () => {
  const v = (scope1: number | null, scope2: number | null, total: number | null) =>
    input({ disclosure: disc({ scope1, scope2 }), assurance: assured, registryTotal: total === null ? null : { total, sourceId: REG } });

  it('more than 10 % above → raised, source the registry fact', () => {
    expect(get(v(6_000, 5_001, 10_000), 'GF-V01')).toMatchObject({ severity: 'warning', source_id: REG });
  });
  it('more than 10 % below → raised', () => {
    expect(has(v(4_000, 4_999, 10_000), 'GF-V01')).toBe(true);
  });
  it('exactly 10 % above or below → not raised', () => {
    expect(has(v(6_000, 5_000, 10_000), 'GF-V01')).toBe(false);
    expect(has(v(4_000, 5_000, 10_000), 'GF-V01')).toBe(false);
    expect(has(v(100, 10, 100), 'GF-V01')).toBe(false);
  });
  it('equal → not raised', () => {
    expect(has(v(6_000, 4_000, 10_000), 'GF-V01')).toBe(false);
  });
  it('registry missing → not raised', () => {
    expect(has(v(60_000, 40_000, null), 'GF-V01')).toBe(false);
  });
  it('scope 2 (or scope 1) null → not raised', () => {
    expect(has(v(60_000, null, 10_000), 'GF-V01')).toBe(false);
    expect(has(v(null, 60_000, 10_000), 'GF-V01')).toBe(false);
  });
  it('no disclosure → not raised', () => {
    expect(has(input({ registryTotal: { total: 10_000, sourceId: REG } }), 'GF-V01')).toBe(false);
  });
});

describe('GF-D02 (info): a disclosure with scope 3 null', () => {
  it('scope 3 null → raised, source the disclosure', () => {
    expect(get(input({ disclosure: disc({ scope3: null }), assurance: assured }), 'GF-D02')).toMatchObject({ severity: 'info', source_id: DISC });
  });
  it('scope 3 present (even 0) → not raised', () => {
    expect(has(input({ disclosure: disc({ scope3: 500 }) }), 'GF-D02')).toBe(false);
    expect(has(input({ disclosure: disc({ scope3: 0 }) }), 'GF-D02')).toBe(false);
  });
  it('no disclosure → not raised', () => {
    expect(has(input(), 'GF-D02')).toBe(false);
  });
});

describe('order: critical, warning, info, then by id', () => {
  it('orders every flag a company raises', () => {
    const i = input({
      cbamExposed: true,
      carbonFee: obligated,
      disclosure: disc({ year: 2024, scope1: null, scope3: null }),
      penalties: [pen('2026-10-01'), pen('2026-03-01'), pen('2025-01-01')],
    });
    expect(ids(i)).toEqual(['GF-F01', 'GF-P02', 'GF-A01', 'GF-C01', 'GF-D01', 'GF-P01', 'GF-D02']);
  });
  it('orders GF-V01 among the warnings', () => {
    const i = input({
      carbonFee: obligated,
      disclosure: disc({ year: 2024, scope3: null }),
      registryTotal: { total: 1_000, sourceId: REG },
      penalties: [pen('2026-10-01', true)],
    });
    expect(ids(i)).toEqual(['GF-F01', 'GF-P02', 'GF-A01', 'GF-D01', 'GF-P01', 'GF-V01', 'GF-D02']);
    expect(flagsFor(i).map((f) => f.severity)).toEqual(['critical', 'critical', 'warning', 'warning', 'warning', 'warning', 'info']);
  });
  it('each flag carries the catalogue label and severity', () => {
    const i = input({
      cbamExposed: true,
      carbonFee: obligated,
      disclosure: disc({ year: 2024, scope1: null, scope3: null }),
      penalties: [pen('2026-10-01', true)],
    });
    for (const f of flagsFor(i)) {
      const c = FLAG_CATALOGUE.find((x) => x.id === f.id)!;
      expect({ label: f.label, severity: f.severity }).toEqual({ label: c.label, severity: c.severity });
    }
  });
  it('sortFlags sorts by severity then id without mutating its input', () => {
    const input = [
      { id: 'GF-D02', severity: 'info' as const },
      { id: 'GF-V01', severity: 'warning' as const },
      { id: 'GF-P02', severity: 'critical' as const },
      { id: 'GF-A01', severity: 'warning' as const },
      { id: 'GF-F01', severity: 'critical' as const },
    ];
    const copy = [...input];
    expect(sortFlags(input).map((f) => f.id)).toEqual(['GF-F01', 'GF-P02', 'GF-A01', 'GF-V01', 'GF-D02']);
    expect(input).toEqual(copy);
  });
  it('the catalogue has the 10 flags of section 7.2 (1.2) with their severities', () => {
    expect(FLAG_CATALOGUE.map((f) => [f.id, f.severity])).toEqual([
      ['GF-F01', 'critical'],
      ['GF-P02', 'critical'],
      ['GF-A01', 'warning'],
      ['GF-P01', 'warning'],
      ['GF-D01', 'warning'],
      ['GF-C01', 'warning'],
      ['GF-S01', 'warning'],
      ['GF-V01', 'warning'],
      ['GF-D02', 'info'],
      ['GF-S02', 'info'],
    ]);
  });
});

describe('1.2, GF-S01 (warning) and GF-S02 (info): disclosure conduct in the last 24 months', () => {
  const row = (kind: 'breach' | 'sanction', date: string, sourceId = `SRC-${kind}-${date}`) => ({ kind, date, sourceId });
  it('a breach 23 months before D raises GF-S01; 25 months before, not', () => {
    expect(get(input({ conduct: [row('breach', '2024-11-30')] }), 'GF-S01')).toMatchObject({
      severity: 'warning',
      source_id: 'SRC-breach-2024-11-30',
    });
    expect(has(input({ conduct: [row('breach', '2024-09-30')] }), 'GF-S01')).toBe(false);
  });
  it('exactly 24 months old → not raised; a day younger → raised; after D → not', () => {
    expect(has(input({ conduct: [row('breach', '2024-10-31')] }), 'GF-S01')).toBe(false);
    expect(has(input({ conduct: [row('breach', '2024-11-01')] }), 'GF-S01')).toBe(true);
    expect(has(input({ conduct: [row('breach', '2026-11-01')] }), 'GF-S01')).toBe(false);
  });
  it('an FSC sanction raises GF-S02 (info), never GF-S01; a breach never GF-S02', () => {
    const sanction = input({ conduct: [row('sanction', '2026-01-05')] });
    expect(get(sanction, 'GF-S02')).toMatchObject({ severity: 'info', source_id: 'SRC-sanction-2026-01-05' });
    expect(has(sanction, 'GF-S01')).toBe(false);
    expect(has(input({ conduct: [row('breach', '2026-01-05')] }), 'GF-S02')).toBe(false);
  });
  it('the source is the newest row of its kind within the window', () => {
    const conduct = [row('breach', '2025-03-01', 'old'), row('breach', '2026-06-01', 'newest'), row('breach', '2026-12-01', 'after-D')];
    expect(get(input({ conduct }), 'GF-S01')!.source_id).toBe('newest');
  });
  it('no component’s points change: the score is the same with and without conduct', () => {
    const base = input({ disclosure: disc(), assurance: assured });
    const withConduct = { ...base, conduct: [row('breach', '2026-06-01'), row('sanction', '2026-06-01')] };
    expect(scoreCompany(withConduct)).toEqual(scoreCompany(base));
  });
});

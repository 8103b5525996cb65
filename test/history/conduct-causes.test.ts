import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ConductRow } from '../../build-scripts/sources/kit/facts.js';
import { explainChange, explainInFull, factsKey, readsConduct, type Side } from '../../build-scripts/history/explain.js';
import { inputOf } from '../../src/methodology/input-of.js';
import type { Cause, ChangeItem } from '../../src/contract/changes.js';
import { CAUSE_KINDS } from '../../src/contract/vocabulary.js';
import { flagsFor } from '../../src/methodology/flags.js';
import { METHODOLOGY_VERSION } from '../../src/methodology/rules.js';
import { scoreCompany } from '../../src/methodology/score.js';
import type { ConductRecord } from '../../src/snapshot/rows.js';
import { SnapshotStore, type CompanyFacts } from '../../src/snapshot/store.js';
import { ASOF, handBuiltSources, writeHandBuiltSnapshot } from '../helpers/hand-built-snapshot.js';
import { en } from '../../src/site/i18n/en.js';
import { zhTW } from '../../src/site/i18n/zh-TW.js';

/**
 * Contract 7.2 and 10: the first 1.2 snapshot explains GF-S01 and GF-S02 with `methodology_changed`
 * causes (the conduct rows are new in it because their sources are, not because anything happened);
 * from then on a new conduct row is a `conduct_new` cause. Hand-built facts, scored as a build would.
 */
const BREACHES = 'SRC-TWSE-DISCLOSURE-BREACHES';
const SANCTIONS = 'SRC-TWSE-SANCTIONS';

const row = (record_id: string, kind: 'breach' | 'sanction', date: string, source_id = kind === 'breach' ? BREACHES : SANCTIONS): ConductRecord => ({
  record_id,
  kind,
  date,
  summary: `${kind} ${record_id}`,
  rule: kind === 'breach' ? '重大訊息查證暨公開處理程序' : null,
  fine: kind === 'breach' ? 30000 : null,
  decision: null,
  source_id,
  source_url: `https://example.test/${record_id}`,
});

/** A company with a 2025 disclosure and no penalty, its conduct as given, scored and flagged on `asof` under the current methodology. */
function facts(asof: string, conduct: ConductRecord[], version = METHODOLOGY_VERSION): CompanyFacts {
  const base = {
    company: {
      ticker: '1727',
      company_name: '中華化',
      source_id: 'SRC-TWSE-COMPANIES',
      cbam_exposed: false,
      rank: 1,
    },
    penalties: [],
    conduct: [...conduct].sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0)),
    disclosure: {
      year: 2025,
      scope1: 100,
      scope2: 200,
      scope3: null,
      scope1_verified: true,
      scope2_verified: true,
      scope3_verified: false,
      boundary: 'consolidated',
      source_id: 'SRC-TWSE-ESG-GHG',
      registry: null,
    },
    carbonFee: { obligated: false, basis: '', registry_year: 2024, source_id: 'SRC-MOENV-REGISTRY', deep_link: '', basis_tco2e: null },
    assurance: null,
    flags: [],
  } as unknown as CompanyFacts;
  // A snapshot built under 1.1 never read the conduct: its score and flags are 1.1's (no GF-S01/GF-S02).
  const input = inputOf(base, asof);
  const read = readsConduct(version) ? input : { ...input, conduct: [] };
  const score = scoreCompany(read);
  return {
    ...base,
    company: { ...base.company, ...score },
    flags: flagsFor(read).map((f) => ({ flag_id: f.id, severity: f.severity, label: f.label, source_id: f.source_id })),
  } as CompanyFacts;
}

function explain(before: CompanyFacts, after: CompanyFacts, from: Side, to: Side): ChangeItem | null {
  const item = explainChange('1727', before, after, from, to);
  expect(item).toEqual(explainInFull('1727', before, after, from, to));
  return item;
}
const kinds = (causes: Cause[]) => causes.map((c) => [c.kind, c.points, c.source_id]);

describe('disclosure conduct in the changes (methodology 1.2)', () => {
  it('the build is 1.2, and conduct_new is a cause kind with its labels', () => {
    expect(METHODOLOGY_VERSION).toBe('1.2');
    expect(CAUSE_KINDS).toContain('conduct_new');
    expect(en.cause.conduct_new).toMatch(/\S/);
    expect(zhTW.cause.conduct_new).toMatch(/\S/);
    expect([readsConduct('1.0'), readsConduct('1.1'), readsConduct('1.2'), readsConduct('1.10'), readsConduct('2.0')]).toEqual([
      false,
      false,
      true,
      true,
      true,
    ]);
  });

  it('1.1 → 1.2: a recent breach raises GF-S01, explained by methodology_changed, never by conduct_new', () => {
    const from: Side = { asof: '2025-10-31', methodologyVersion: '1.1' };
    const to: Side = { asof: '2025-11-30', methodologyVersion: '1.2' };
    // The 1.1 snapshot had no conduct (no such sources then); the 1.2 one reads a breach of 13 November 2025 and an old sanction.
    const before = facts(from.asof, [], '1.1');
    const after = facts(to.asof, [row('B-1', 'breach', '2025-11-13'), row('S-1', 'sanction', '2023-01-10')]);
    expect(after.flags.map((f) => f.flag_id)).toContain('GF-S01');
    expect(after.flags.map((f) => f.flag_id)).not.toContain('GF-S02');
    expect(before.flags.map((f) => f.flag_id)).not.toContain('GF-S01');
    const item = explain(before, after, from, to)!;
    expect(item).toMatchObject({ change: 'changed', score_delta: 0 });
    expect(kinds(item.causes)).toEqual([
      ['methodology_changed', null, null],
      ['flag_raised', null, BREACHES],
    ]);
    expect(item.causes[0]!.detail).toBe('methodology 1.1 → 1.2: disclosure conduct now read (GF-S01, GF-S02)');
    expect(item.causes[1]!.detail).toMatch(/^GF-S01 raised: /);
  });

  it('1.1 → 1.2: conduct rows that raise no flag leave the company unlisted if nothing else moved', () => {
    const from: Side = { asof: '2025-11-30', methodologyVersion: '1.1' };
    const to: Side = { asof: '2025-11-30', methodologyVersion: '1.2' };
    const before = facts(from.asof, [], '1.1');
    const after = facts(to.asof, [row('B-0', 'breach', '2020-05-01')]);
    expect(after.flags).toEqual(before.flags);
    expect(explain(before, after, from, to)).toBeNull();
  });

  it('1.2 → 1.2: a new breach row is a conduct_new cause carrying its source id', () => {
    const from: Side = { asof: '2025-10-31', methodologyVersion: '1.2' };
    const to: Side = { asof: '2025-11-30', methodologyVersion: '1.2' };
    const old = row('S-1', 'sanction', '2023-01-10');
    const before = facts(from.asof, [old]);
    const after = facts(to.asof, [old, row('B-1', 'breach', '2025-11-13')]);
    expect(factsKey(after)).not.toBe(factsKey(before));
    const item = explain(before, after, from, to)!;
    expect(kinds(item.causes)).toEqual([
      ['conduct_new', null, BREACHES],
      ['flag_raised', null, BREACHES],
    ]);
    expect(item.causes[0]!.detail).toBe('new disclosure breach B-1 of 2025-11-13 (NT$30000)');
    // A second breach while GF-S01 stands already: still listed, by its conduct_new cause alone.
    const later: Side = { asof: '2025-12-31', methodologyVersion: '1.2' };
    const again = facts(later.asof, [...after.conduct, row('B-2', 'breach', '2025-12-02')]);
    expect(kinds(explain(after, again, to, later)!.causes)).toEqual([['conduct_new', null, BREACHES]]);
    // The same row from the other exchange's source is a row of its own (record id within its source).
    const tpex = facts(later.asof, [...after.conduct, row('B-1', 'breach', '2025-11-13', 'SRC-TPEX-DISCLOSURE-BREACHES')]);
    expect(kinds(explain(after, tpex, to, later)!.causes)).toEqual([['conduct_new', null, 'SRC-TPEX-DISCLOSURE-BREACHES']]);
    // Nothing new: unlisted, and the facts key is the same.
    const same = facts(later.asof, after.conduct);
    expect(factsKey(same)).toBe(factsKey(after));
    expect(explain(after, same, to, later)).toBeNull();
  });

  it('1.2 → 1.2: a breach leaving the 24-month window clears GF-S01, the flag_cleared cause naming the row', () => {
    const from: Side = { asof: '2025-10-31', methodologyVersion: '1.2' };
    const to: Side = { asof: '2025-11-30', methodologyVersion: '1.2' };
    const breach = row('B-9', 'breach', '2023-11-15');
    const before = facts(from.asof, [breach]);
    const after = facts(to.asof, [breach]);
    expect(before.flags.map((f) => f.flag_id)).toContain('GF-S01');
    expect(after.flags.map((f) => f.flag_id)).not.toContain('GF-S01');
    const item = explain(before, after, from, to)!;
    expect(kinds(item.causes)).toEqual([['flag_cleared', null, BREACHES]]);
    expect(item.causes[0]!.detail).toMatch(/^GF-S01 cleared: .*\(disclosure breach B-9 of 2023-11-15 \(NT\$30000\) left the 24-month window\)$/);
  });
});

describe('conduct_new between two stored 1.2 snapshots (the hand-built universe)', () => {
  const root = mkdtempSync(join(tmpdir(), 'esg-conduct-causes-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('a breach row written in the later snapshot only is read back and explained as conduct_new, GF-S01 raised', () => {
    const breach: ConductRow = {
      ticker: 'H0002',
      kind: 'breach',
      date: '2026-09-15',
      summary: '重大訊息發布延遲',
      rule: '對有價證券上市公司重大訊息之查證暨公開處理程序第2條',
      fine: 30000,
      decision: null,
      recordId: 't187ap23_L:H0002:2026-09-15:abc',
      sourceUrl: 'https://openapi.twse.com.tw/v1/opendata/t187ap23_L',
      sourceId: BREACHES,
    };
    const earlier = SnapshotStore.open(writeHandBuiltSnapshot(join(root, 'a')));
    const later = SnapshotStore.open(
      writeHandBuiltSnapshot(join(root, 'b'), { ...handBuiltSources(), conduct: new Map([...handBuiltSources().conduct, ['H0002', [breach]]]) }),
    );
    try {
      const side: Side = { asof: ASOF, methodologyVersion: later.meta.methodology_version };
      expect(side.methodologyVersion).toBe('1.2');
      const before = earlier.facts('H0002')!;
      const after = later.facts('H0002')!;
      expect(after.conduct.map((c) => c.record_id)).toEqual([breach.recordId]);
      expect(factsKey(after)).not.toBe(factsKey(before));
      const item = explainChange('H0002', before, after, side, side)!;
      expect(item).toEqual(explainInFull('H0002', before, after, side, side));
      expect(kinds(item.causes)).toEqual([
        ['conduct_new', null, BREACHES],
        ['flag_raised', null, BREACHES],
      ]);
      expect(item.causes[0]!.detail).toBe(`new disclosure breach ${breach.recordId} of 2026-09-15 (NT$30000)`);
      // Every other company is unmoved.
      for (const f of later.factsBetween('', '~'))
        if (f.company.ticker !== 'H0002')
          expect(explainChange(f.company.ticker, earlier.facts(f.company.ticker)!, f, side, side), f.company.ticker).toBeNull();
    } finally {
      earlier.close();
      later.close();
    }
  });
});

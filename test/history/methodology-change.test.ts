import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pairsInOrder } from '../../build-scripts/history/company-pass.js';
import { explainChange, explainInFull, type Side } from '../../build-scripts/history/explain.js';
import { inputOf } from '../../src/methodology/input-of.js';
import type { Cause, ChangeItem } from '../../src/contract/changes.js';
import { flagsFor, sortFlags } from '../../src/methodology/flags.js';
import { FLAG_CATALOGUE, METHODOLOGY_VERSION, verdictFor } from '../../src/methodology/rules.js';
import { scoreCompany } from '../../src/methodology/score.js';
import { publishedSnapshotIds } from '../../src/snapshot/published.js';
import { SnapshotStore, type CompanyFacts } from '../../src/snapshot/store.js';
import { demoSeriesSnapshotsDir } from '../helpers/demo-series-dir.js';

/**
 * Contract 7: "the first 1.1 snapshot explains each company's move with `methodology_changed`
 * causes". The demo's months are built under 1.1, so the earlier side is made what methodology 1.0
 * gave for the same facts: 1.0 differs from 1.1 only in E(D), which was year(D) − 1 all year round
 * (timeliness, GF-F01 and GF-D01).
 */
function asScoredBy10(f: CompanyFacts, asof: string): CompanyFacts {
  const input = inputOf(f, asof);
  const e = Number(asof.slice(0, 4)) - 1;
  const d = input.disclosure;
  const disclosure = d
    ? (d.scope1 !== null && d.scope2 !== null ? 20 : 0) + (d.scope3 !== null ? 5 : 0) + (d.year >= e ? 10 : d.year === e - 1 ? 5 : 0)
    : 0;
  const breakdown = scoreCompany(input).score_breakdown.map((c) =>
    c.component === 'disclosure' ? { ...c, points: disclosure, detail: `1.0: ${disclosure}` } : c,
  );
  const score = breakdown.reduce((s, c) => s + c.points, 0);
  const flag = (id: string, sourceId: string) => {
    const c = FLAG_CATALOGUE.find((x) => x.id === id)!;
    return { id: c.id, label: c.label, severity: c.severity, source_id: sourceId };
  };
  const flags = flagsFor(input).filter((x) => x.id !== 'GF-F01' && x.id !== 'GF-D01');
  if (input.carbonFee.obligated && !(d && d.year >= e)) flags.push(flag('GF-F01', input.carbonFee.sourceId));
  if (d && d.year < e) flags.push(flag('GF-D01', d.sourceId));
  return {
    ...f,
    company: { ...f.company, credibility_score: score, verdict: verdictFor(score), score_breakdown: breakdown },
    flags: sortFlags(flags).map((x) => ({ flag_id: x.id, severity: x.severity, label: x.label, source_id: x.source_id })),
  };
}

const pointsOf = (causes: Cause[]) => causes.reduce((s, c) => s + (c.points ?? 0), 0);

let first: SnapshotStore;
let second: SnapshotStore;
beforeAll(() => {
  const dir = demoSeriesSnapshotsDir;
  [first, second] = publishedSnapshotIds(dir).map((id) => SnapshotStore.open(join(dir, id))) as [SnapshotStore, SnapshotStore];
});
afterAll(() => {
  first?.close();
  second?.close();
});

/** Every company's explanation from `before` (scored by 1.0) to `after` (as built, 1.1), each checked against the full explanation. */
function explainAll(before: CompanyFacts[], after: CompanyFacts[], from: Side, to: Side): Map<string, ChangeItem> {
  const items = new Map<string, ChangeItem>();
  for (const { ticker, before: b, after: a } of pairsInOrder(before, after)) {
    const item = explainChange(ticker, b, a, from, to);
    expect(item, ticker).toEqual(explainInFull(ticker, b, a, from, to));
    if (item) items.set(ticker, item);
  }
  return items;
}

describe('a snapshot built under 1.1 after one built under 1.0', () => {
  // 1.2 scores as 1.1 does (it adds GF-S01 and GF-S02 only), so the demo's 1.2 facts stand for 1.1's here.
  it('the demo is built under 1.2', () => {
    expect(METHODOLOGY_VERSION).toBe('1.2');
    expect(first.meta.methodology_version).toBe('1.2');
    expect(second.meta.methodology_version).toBe('1.2');
  });

  it('the same facts on the same date, rescored: every move is methodology_changed (and flags), on the disclosure component', () => {
    const asof = first.meta.data_asof; // 31 August: E(D) is year(D) − 2 under 1.1, year(D) − 1 under 1.0
    const after = first.factsBetween('', '~');
    const before = after.map((f) => asScoredBy10(f, asof));
    const items = explainAll(before, after, { asof, methodologyVersion: '1.0' }, { asof, methodologyVersion: '1.1' });
    // The companies still on last-but-one year's disclosures (and older) gain 5 timeliness points.
    expect(items.size).toBeGreaterThan(100);
    for (const [ticker, item] of items) {
      expect(item.score_delta, ticker).toBe(item.after!.credibility_score - item.before!.credibility_score);
      expect(pointsOf(item.causes), ticker).toBe(item.score_delta);
      for (const c of item.causes) {
        expect(['methodology_changed', 'flag_raised', 'flag_cleared'], `${ticker} ${c.kind}`).toContain(c.kind);
        if (c.kind === 'methodology_changed')
          expect({ component: c.component, points: c.points, source_id: c.source_id }).toEqual({
            component: 'disclosure',
            points: 5,
            source_id: null,
          });
        if (c.kind === 'methodology_changed') expect(c.detail).toContain('methodology 1.0 → 1.1');
      }
    }
    // D1102 (obligated, all verified) discloses for E(D) = 2024: late under 1.0 (GF-F01, GF-D01, 95), on time under 1.1 (100).
    const d1102 = items.get('D1102')!;
    expect(d1102).toMatchObject({ before: { credibility_score: 95 }, after: { credibility_score: 100 }, score_delta: 5 });
    expect(d1102.causes.map((c) => [c.kind, c.points, c.detail.slice(0, 6)])).toEqual([
      ['methodology_changed', 5, 'method'],
      ['flag_cleared', null, 'GF-F01'],
      ['flag_cleared', null, 'GF-D01'],
    ]);
    // A company on time under both (a disclosure for 2025) is not listed.
    const current = after.find((f) => f.disclosure?.year === 2025 && f.flags.length === 0)!;
    expect(items.has(current.company.ticker)).toBe(false);
  });

  it('the demo’s second month after a first built under 1.0: the methodology step first, the causes summing to each delta exactly', () => {
    const from: Side = { asof: first.meta.data_asof, methodologyVersion: '1.0' };
    const to: Side = { asof: second.meta.data_asof, methodologyVersion: '1.1' };
    const earlier = first.factsBetween('', '~');
    const before = earlier.map((f) => asScoredBy10(f, from.asof));
    const items = explainAll(before, second.factsBetween('', '~'), from, to);
    expect(items.size).toBeGreaterThan(10);
    const byTicker = new Map(
      earlier.map((f, i) => [f.company.ticker, { as11: f.company.credibility_score, as10: before[i]!.company.credibility_score }]),
    );
    let methodologyMoves = 0;
    for (const [ticker, item] of items) {
      expect(pointsOf(item.causes), ticker).toBe(item.score_delta);
      expect(item.score_delta, ticker).toBe((item.after?.credibility_score ?? 0) - (item.before?.credibility_score ?? 0));
      if (item.change !== 'changed') continue;
      // The first step rescores the earlier facts under 1.1 on the earlier date: its causes come first.
      const lead = item.causes.filter((c) => c.kind === 'methodology_changed' && c.detail.startsWith('methodology 1.0 → 1.1'));
      expect(item.causes.slice(0, lead.length), ticker).toEqual(lead);
      const { as10, as11 } = byTicker.get(ticker)!;
      expect(pointsOf(lead), ticker).toBe(as11 - as10);
      if (as11 !== as10) {
        methodologyMoves++;
        expect(
          lead.every((c) => c.component === 'disclosure' && c.source_id === null),
          ticker,
        ).toBe(true);
      }
    }
    expect(methodologyMoves).toBeGreaterThan(0);
    // D1101 discloses for 2024: 1.0 had it a year late on 31 August already, 1.1 from 1 September, so
    // its score and flags are as they were: the methodology's +5 and the deadline's −5 cancel, unlisted.
    expect(items.has('D1101')).toBe(false);
  });
});

/** The same facts as a 1.1 build left them: no disclosure conduct read, so neither GF-S01 nor GF-S02. */
function asBuiltBy11(f: CompanyFacts): CompanyFacts {
  return { ...f, conduct: [], flags: f.flags.filter((x) => x.flag_id !== 'GF-S01' && x.flag_id !== 'GF-S02') };
}

describe('the first snapshot built under 1.2 after one built under 1.1', () => {
  it('the demo’s second month after a first built under 1.1: conduct flags are the methodology’s, never conduct_new', () => {
    const from: Side = { asof: first.meta.data_asof, methodologyVersion: '1.1' };
    const to: Side = { asof: second.meta.data_asof, methodologyVersion: '1.2' };
    const items = explainAll(first.factsBetween('', '~').map(asBuiltBy11), second.factsBetween('', '~'), from, to);
    expect(items.size).toBeGreaterThan(10);
    for (const [ticker, item] of items) {
      expect(pointsOf(item.causes), ticker).toBe(item.score_delta);
      expect(
        item.causes.some((c) => c.kind === 'conduct_new'),
        ticker,
      ).toBe(false);
      if (item.change !== 'changed') continue;
      // The methodology step comes first and moves no points (1.2 changes no component).
      expect(item.causes[0], ticker).toEqual({
        kind: 'methodology_changed',
        component: null,
        points: null,
        source_id: null,
        detail: 'methodology 1.1 → 1.2: disclosure conduct now read (GF-S01, GF-S02)',
      });
      // Every GF-S01/GF-S02 of the 1.2 snapshot is raised, and its source is the conduct row's.
      for (const id of ['GF-S01', 'GF-S02'])
        if (item.after!.flags.includes(id))
          expect(
            item.causes.some((c) => c.kind === 'flag_raised' && c.detail.startsWith(`${id} raised`)),
            `${ticker} ${id}`,
          ).toBe(true);
    }
  });
});

import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeEtfs } from '../../../build-scripts/snapshot/etf-stats.js';
import { checkInvariants } from '../../../build-scripts/snapshot/invariants.js';
import { assuranceSchema, fullCanonicalViewSchema } from '../../../src/contract/canonical.js';
import { etfResponseSchema } from '../../../src/contract/etf.js';
import { licenceSchema, registryResponseSchema } from '../../../src/contract/registry.js';
import { SnapshotStore } from '../../../src/snapshot/store.js';
import { canonicalView } from '../../../src/views/canonical.js';
import { etfListView, etfView } from '../../../src/views/etf.js';
import { registryView } from '../../../src/views/registry.js';
import { sourceNamesOf } from '../../../src/views/source-names.js';
import { handBuiltSources, REPORT_LINKS, writeHandBuiltSnapshot } from '../../helpers/hand-built-snapshot.js';

/**
 * Contract 3.2 (assurance kind, standard, verifications, the report as deep link) and 4.3 (the ETF
 * holdings' source, period, cut-off and listed weight), carried from hand-built adapter output
 * through compute, the database and the store to the views.
 */
let work: string;
let store: SnapshotStore;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'assurance-etf-'));
  store = SnapshotStore.open(writeHandBuiltSnapshot(join(work, 'snapshot')));
});
afterAll(() => {
  store.close();
  rmSync(work, { recursive: true, force: true });
});

const canonicalOf = (ticker: string) => {
  const view = canonicalView(store.meta, store.facts(ticker)!, sourceNamesOf(store.sources()));
  return fullCanonicalViewSchema.parse(view);
};

describe('the assurance of the canonical view', () => {
  it('a CPA assurance shows its kind, standard and the verifier beside it, and links the report', () => {
    expect(canonicalOf('H0001').assurance).toEqual({
      provider: '示範聯合會計師事務所',
      level: 'reasonable',
      kind: 'cpa',
      standard: '確信準則3000號',
      verifications: [{ provider: 'BSI Taiwan', standard: 'AA1000AS v3' }],
      year: 2025,
      source_id: 'SRC-MOPS-ESGREPORT',
      source_name: store.sources().find((s) => s.source_id === 'SRC-MOPS-ESGREPORT')!.name,
      deep_link: REPORT_LINKS.H0001,
    });
  });

  it('a third-party verification alone is kind third_party, with its standard null when unstated and no verifications', () => {
    const a = canonicalOf('H0002').assurance!;
    expect(a).toMatchObject({
      provider: 'SGS Taiwan',
      level: 'limited',
      kind: 'third_party',
      standard: null,
      verifications: [],
      year: 2024,
      deep_link: REPORT_LINKS.H0002,
    });
    expect(canonicalOf('H0003').assurance).toMatchObject({ kind: 'cpa', verifications: [], deep_link: REPORT_LINKS.H0003 });
    expect(canonicalOf('H0004').assurance).toBeNull();
  });

  it('is scored by its level alone, whatever its kind', () => {
    const points = (t: string) => store.company(t)!.score_breakdown.find((b) => b.component === 'assurance')!.points;
    expect(store.company('H0002')!.assurance_level).toBe('limited');
    expect(store.company('H0001')!.assurance_level).toBe('reasonable');
    expect(points('H0002')).toBe(points('H0003')); // third-party limited = CPA limited
    expect(points('H0001')).toBeGreaterThan(points('H0003'));
    expect(points('H0004')).toBe(0);
  });

  it('the schema lists verifications beside a CPA assurance only', () => {
    const a = canonicalOf('H0002').assurance!;
    expect(assuranceSchema.safeParse(a).success).toBe(true);
    expect(assuranceSchema.safeParse({ ...a, verifications: [{ provider: 'X', standard: null }] }).success).toBe(false);
    expect(assuranceSchema.safeParse({ ...a, kind: 'cpa', verifications: [{ provider: 'X', standard: null }] }).success).toBe(true);
    expect(assuranceSchema.safeParse({ ...a, kind: 'auditor' }).success).toBe(false);
  });
});

describe('the ETF result', () => {
  const etfOf = (code: string) => {
    const found = store.etf(code)!;
    return etfResponseSchema.parse(etfView(store.meta, found.etf, found.holdings, (t) => store.company(t)));
  };

  it('names the holdings’ source, quarter, cut-off and the weight the listed holdings cover (4 decimals)', () => {
    const e = etfOf('HE001');
    expect(e).toMatchObject({
      etf_code: 'HE001',
      etf_name: '示範ESG永續',
      holdings_source_id: 'SRC-SITCA-ETF-HOLDINGS',
      holdings_period: '2026Q3',
      holdings_asof: '2026-09-30',
      holdings_min_weight: 0.01,
      listed_weight: 0.6216, // 0.3282 + 0.1 + 0.07 + 0.12341
      total: 4,
      covered: 3,
    });
    expect(e.holdings.map((h) => [h.ticker, h.weight, h.company?.ticker ?? null])).toEqual([
      ['H0001', 0.3282, 'H0001'],
      ['H0002', 0.1, 'H0002'],
      ['H0004', 0.07, 'H0004'],
      ['2330', 0.12341, null],
    ]);
  });

  it('keeps the statistics of contract 4.3: weights renormalised over the covered holdings', () => {
    const e = etfOf('HE001');
    const covered = e.holdings.filter((h) => h.company !== null);
    const weight = covered.reduce((s, h) => s + h.weight, 0);
    const round1 = (n: number) => Math.round(n * 10) / 10;
    expect(e.avg_score).toBe(round1(covered.reduce((s, h) => s + h.company!.credibility_score * h.weight, 0) / weight));
    expect(e.min_score).toBe(Math.min(...covered.map((h) => h.company!.credibility_score)));
    // H0001 and H0002 are assured, H0004 is not.
    expect(e.assurance_coverage_pct).toBe(round1((100 * (0.3282 + 0.1)) / weight));
  });

  it('a fund listing every holding has cut-off 0; with none covered its statistics are null', () => {
    expect(etfOf('HE002')).toMatchObject({
      holdings_source_id: 'SRC-MOPS-ETF-HOLDINGS',
      holdings_period: '2026Q2',
      holdings_asof: '2026-06-30',
      holdings_min_weight: 0,
      listed_weight: 1,
      total: 2,
      covered: 0,
      avg_score: null,
      min_score: null,
      assurance_coverage_pct: null,
    });
    expect(etfListView(store.meta, store.etfs()).data).toEqual([
      { etf_code: 'HE001', etf_name: '示範ESG永續', total: 4 },
      { etf_code: 'HE002', etf_name: '示範海外', total: 2 },
    ]);
  });

  it('computeEtfs takes the funds as published, in code order', () => {
    const funds = handBuiltSources().etfs;
    const reversed = new Map([...funds.entries()].reverse());
    const records = computeEtfs(reversed, () => undefined);
    expect(records.map((r) => [r.code, r.sourceId, r.period, r.holdingsAsof, r.minWeight, r.listedWeight, r.covered, r.avgScore])).toEqual([
      ['HE001', 'SRC-SITCA-ETF-HOLDINGS', '2026Q3', '2026-09-30', 0.01, 0.6216, 0, null],
      ['HE002', 'SRC-MOPS-ETF-HOLDINGS', '2026Q2', '2026-06-30', 0, 1, 0, null],
    ]);
  });
});

describe('the snapshot holding them', () => {
  it('passes the invariants, which catch a wrong listed weight, period or third-party verifications', () => {
    expect(checkInvariants(store.db)).toEqual([]);
    const dir = writeHandBuiltSnapshot(join(work, 'broken'));
    const db = new Database(join(dir, 'snapshot.sqlite'));
    try {
      db.prepare("UPDATE etfs SET listed_weight = 0.9 WHERE etf_code = 'HE001'").run();
      db.prepare("UPDATE etfs SET holdings_period = '2026Q4' WHERE etf_code = 'HE002'").run();
      db.prepare('UPDATE assurances SET verifications = \'[{"provider":"X","standard":null}]\' WHERE ticker = \'H0002\'').run();
      const problems = checkInvariants(db);
      expect(problems).toHaveLength(3);
      expect(problems.join('\n')).toMatch(/HE001.*listed weight 0\.9/);
      expect(problems.join('\n')).toMatch(/HE002: period 2026Q4 as of 2026-06-30/);
      expect(problems.join('\n')).toMatch(/assurances of H0002/);
    } finally {
      db.close();
    }
  });

  it('counts the ETF holdings’ records against their own source', () => {
    const count = (id: string) => store.sources().find((s) => s.source_id === id)?.record_count;
    expect(count('SRC-SITCA-ETF-HOLDINGS')).toBe(4);
    expect(count('SRC-MOPS-ETF-HOLDINGS')).toBe(2);
    expect(count('SRC-MOPS-ESGREPORT')).toBe(3);
  });
});

describe('a registry entry without an open-data licence', () => {
  it('says so with id "none", and the schema holds it to saying so', () => {
    const registry = registryResponseSchema.parse(registryView(store.meta, store.sources()));
    const sitca = registry.data.find((s) => s.source_id === 'SRC-SITCA-ETF-HOLDINGS')!;
    expect(sitca.licence.id).toBe('none');
    expect(sitca.licence.name).toMatch(/no open-data licence/);
    expect(sitca.licence.url).toMatch(/^https:\/\//);
    expect(registry.data.filter((s) => s.licence.id === 'none').map((s) => s.source_id)).toEqual(['SRC-SITCA-ETF-HOLDINGS']);
    expect(licenceSchema.safeParse({ id: 'none', name: 'SITCA terms of use', url: 'https://www.sitca.org.tw/' }).success).toBe(false);
    expect(licenceSchema.safeParse({ id: 'OGDL-Taiwan-1.0', name: 'Open Government Data License', url: 'https://data.gov.tw/license' }).success).toBe(
      true,
    );
  });
});

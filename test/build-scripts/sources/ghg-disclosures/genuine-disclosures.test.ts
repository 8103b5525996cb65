import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RejectLog } from '../../../../build-scripts/adapters/read-layout.js';
import { disclosesAny } from '../../../../build-scripts/sources/ghg-disclosures/ghg-disclosure.js';
import { SourceTally } from '../../../../build-scripts/sources/kit/tally.js';
import { readTwseGhg } from '../../../../build-scripts/sources/ghg-disclosures/twse-esg-ghg.js';
import { collect } from '../../adapters/fixture-dir.js';

/**
 * shared/spec/sources.md, "Genuine answers, part two": TWSE's GHG disclosures (t187ap46_L_1, 1,043
 * companies, report year 113, served 2025-11-23), read through the project's reader. The genuine file
 * is a caller's wrapper; `response.body` is the publisher's answer, placed as an operator places it.
 * Every expectation is computed here from the file by this test's own reading.
 */

const GENUINE = join(import.meta.dirname, '../../../fixtures/genuine');
const wrapper = JSON.parse(readFileSync(join(GENUINE, 'SRC-TWSE-ESG-GHG/GET__opendata_t187ap46_L_1.json'), 'utf8')) as {
  response: { body: Record<string, string>[] };
};
const records = wrapper.response.body;

const dir = mkdtempSync(join(tmpdir(), 'genuine-ghg-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, 't187ap46_L_1.json'), JSON.stringify(records, null, 2));

const S1 = '範疇一排放量(噸CO2e)';
const S2 = '範疇二排放量(噸CO2e)';
const S3 = '範疇三排放量(噸CO2e)';
/** The test's own reading of a figure: `N/A` is null, else the decimal as served. */
const figure = (v: string) => (v === 'N/A' ? null : Number(v));
/** The test's own reading of contract 3.2's boundary rule, on the served text trimmed. */
function boundaryOf(served: string): [string | null, string | null] {
  const t = served.trim();
  if (t === 'N/A') return [null, null];
  if (t.includes('已完成合併財務報表之母子公司')) return ['consolidated', t];
  return [t === '已完成母公司' ? 'parent' : 'other', t];
}

async function read() {
  const rejects = new RejectLog();
  const tally = new SourceTally();
  const rows = await collect(readTwseGhg(dir, rejects, tally));
  return { rows, rejects, tally };
}

describe('TWSE t187ap46_L_1 (1,043 companies, report year 113, 2025-11-23)', () => {
  it('a missing figure is N/A, never the empty string; the counts sources.md states', () => {
    expect(records).toHaveLength(1043);
    const na = (key: string) => records.filter((r) => r[key] === 'N/A').length;
    expect([na(S1), na(S2), na(S3), na('溫室氣體排放密集度(噸CO2e/單位)')]).toEqual([92, 70, 360, 141]);
    expect(records.filter((r) => [S1, S2, S3].every((k) => r[k] === 'N/A'))).toHaveLength(68);
    expect(records.some((r) => Object.values(r).includes(''))).toBe(false);
    expect(records.filter((r) => r[S1] === '0.0000')).toHaveLength(14);
  });

  it('every row is read, none rejected: N/A is a null figure, 0.0000 a real zero', async () => {
    const { rows, rejects } = await read();
    expect(rejects.format()).toBe('');
    expect(rows).toHaveLength(records.length);
    const byTicker = new Map(rows.map((r) => [r.ticker, r]));
    for (const r of records) {
      const d = byTicker.get(r['公司代號']!.trim())!;
      expect([d.scope1, d.scope2, d.scope3], r['公司代號']).toEqual([figure(r[S1]!), figure(r[S2]!), figure(r[S3]!)]);
      expect(d.year).toBe(Number(r['報告年度']) + 1911);
      expect(d.reportDate).toBe('2025-11-23');
    }
    expect(rows.filter((d) => d.scope1 === 0)).toHaveLength(records.filter((r) => r[S1] === '0.0000').length);
  });

  it('取得驗證 gives each scope’s verification flag; beside an N/A figure it is 否', async () => {
    const { rows } = await read();
    const byTicker = new Map(rows.map((r) => [r.ticker, r]));
    for (const scope of ['一', '二', '三']) {
      const key = `範疇${scope}排放量(噸CO2e)`;
      expect(records.filter((r) => r[key] === 'N/A').every((r) => r[`範疇${scope}取得驗證`] === '否')).toBe(true);
    }
    for (const r of records) {
      const d = byTicker.get(r['公司代號']!.trim())!;
      expect([d.scope1Verified, d.scope2Verified, d.scope3Verified]).toEqual(
        ['一', '二', '三'].map((s) => r[`範疇${s}取得驗證`] === '是' && r[`範疇${s}排放量(噸CO2e)`] !== 'N/A'),
      );
    }
    expect(rows.filter((d) => d.scope3Verified).length).toBeGreaterThan(0);
  });

  it('資料邊界 is free text: classified by the contract’s rule, its text kept as served (inner line breaks too, ends trimmed)', async () => {
    const { rows } = await read();
    const byTicker = new Map(rows.map((r) => [r.ticker, r]));
    const classes = new Map<string | null, number>();
    for (const r of records) {
      const d = byTicker.get(r['公司代號']!.trim())!;
      const [boundary, text] = boundaryOf(r['範疇一資料邊界']!);
      expect([d.boundary, d.boundaryText], r['公司代號']).toEqual([boundary, text]);
      classes.set(boundary, (classes.get(boundary) ?? 0) + 1);
    }
    // sources.md: 421 parent, 322 consolidated, 15 both joined (consolidated), N/A, and free text.
    expect(classes.get('parent')).toBe(421);
    // (and a few plant lists that name the consolidated group among other text)
    const exactly = (t: string) => records.filter((r) => r['範疇一資料邊界'] === t).length;
    expect([exactly('已完成合併財務報表之母子公司'), exactly('已完成母公司,已完成合併財務報表之母子公司')]).toEqual([322, 15]);
    expect(classes.get('consolidated')).toBeGreaterThanOrEqual(322 + 15);
    expect(classes.get('other')).toBeGreaterThan(100);
    expect(rows.some((d) => d.boundary === 'other' && d.boundaryText!.includes('\n'))).toBe(true);
    // A boundary can be N/A while its figure is present (2 rows, of scopes 2 and 3): the figure is read all the same.
    const naBoundary = ['一', '二', '三'].flatMap((s) =>
      records.filter((r) => r[`範疇${s}資料邊界`] === 'N/A' && r[`範疇${s}排放量(噸CO2e)`] !== 'N/A').map((r) => `${r['公司代號']}/${s}`),
    );
    expect(naBoundary).toHaveLength(2);
    for (const at of naBoundary) expect(byTicker.get(at.split('/')[0]!)).toBeDefined();
  });

  it('68 rows disclose nothing (all three N/A); 1201 味全 discloses scope 1 and 2 beside an N/A scope 3', async () => {
    const { rows } = await read();
    expect(rows.filter((d) => !disclosesAny(d))).toHaveLength(68);
    const r1201 = records.find((r) => r['公司代號'] === '1201')!;
    const d1201 = rows.find((d) => d.ticker === '1201')!;
    expect([d1201.scope1, d1201.scope2, d1201.scope3]).toEqual([Number(r1201[S1]), Number(r1201[S2]), null]);
    expect(disclosesAny(d1201)).toBe(true);
  });

  it('its 出表日期 is the source’s publisher_date', async () => {
    const { tally } = await read();
    expect(tally.of('SRC-TWSE-ESG-GHG').publisherDate).toBe('2025-11-23');
  });
});

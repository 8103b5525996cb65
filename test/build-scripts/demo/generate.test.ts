import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cbamProductsLayout,
  esgReportLayout,
  etfHoldingsLayout,
  type FileLayout,
  penaltyLayout,
  registryLayout,
  tpexCompanyLayout,
  tpexGhgLayout,
  twseCompanyLayout,
  twseGhgLayout,
} from '../../../build-scripts/adapters/layouts.js';
import { generateDemo } from '../../../build-scripts/demo/generate.js';
import { ubnChecksumValid } from '../../../build-scripts/demo/ids.js';
import { headerOf, recordsAt, rowsOf } from './csv-parse.js';

const LAYOUTS: readonly FileLayout[] = [
  twseCompanyLayout, tpexCompanyLayout, penaltyLayout, twseGhgLayout, tpexGhgLayout,
  registryLayout, esgReportLayout, etfHoldingsLayout, cbamProductsLayout,
];
/** Files written with API keys (second label); all others use the first (Chinese) label. */
const KEY_STYLE = new Set<string>([tpexCompanyLayout.file, penaltyLayout.file, registryLayout.file]);

const expectedHeader = (l: FileLayout) =>
  Object.values(l.columns).map((c) => (KEY_STYLE.has(l.file) ? (c.labels[1] ?? c.labels[0]) : c.labels[0]));

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'demo-gen-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const readAll = (dir: string) => Object.fromEntries(readdirSync(dir).sort().map((f) => [f, readFileSync(join(dir, f))]));

describe('generateDemo determinism', () => {
  it('writes byte-identical files for the same options, different ones for another seed', async () => {
    const a = tempDir();
    const b = tempDir();
    const c = tempDir();
    await generateDemo({ outDir: a, companies: 300, seed: 7 });
    await generateDemo({ outDir: b, companies: 300, seed: 7 });
    await generateDemo({ outDir: c, companies: 300, seed: 8 });
    const fa = readAll(a);
    const fb = readAll(b);
    const fc = readAll(c);
    expect(Object.keys(fa)).toEqual(Object.keys(fb));
    for (const [name, bytes] of Object.entries(fa)) expect(bytes.equals(fb[name] as Buffer), name).toBe(true);
    for (const l of [twseCompanyLayout, penaltyLayout, registryLayout, twseGhgLayout, esgReportLayout, etfHoldingsLayout]) {
      expect((fa[l.file] as Buffer).equals(fc[l.file] as Buffer), l.file).toBe(false);
    }
  });
});

describe('generateDemo with the default options', () => {
  let dir = '';
  let result: Awaited<ReturnType<typeof generateDemo>>;
  const text = (file: string) => readFileSync(join(dir, file), 'utf8');

  beforeAll(async () => {
    dir = tempDir();
    result = await generateDemo({ outDir: dir });
  });

  it('writes every layout file plus manifest.json', () => {
    expect(result.asof).toBe('2026-10-31');
    expect(result.files).toEqual([...LAYOUTS.map((l) => l.file), 'manifest.json']);
    expect(readdirSync(dir).sort()).toEqual([...result.files].sort());
    const manifest = JSON.parse(text('manifest.json'));
    expect(manifest).toEqual({
      kind: 'demo',
      seed: 20261101,
      companies: 1800,
      asof: '2026-10-31',
      retrieved_at: expect.any(Object),
    });
    const sourceIds = [...new Set(LAYOUTS.map((l) => l.sourceId))].sort();
    expect(Object.keys(manifest.retrieved_at).sort()).toEqual(sourceIds);
    for (const t of Object.values(manifest.retrieved_at)) expect(t).toMatch(/^2026-10-31T\d{2}:\d{2}:\d{2}Z$/);
  });

  it('writes each file in its publisher\'s form with the header its layout implies and a full row everywhere', () => {
    for (const l of LAYOUTS) {
      const bytes = readFileSync(join(dir, l.file));
      const header = headerOf(join(dir, l.file));
      // Keys as written: the one TPEx key with the trailing space real OpenAPI keys sometimes have.
      const spaced = l === tpexGhgLayout ? expectedHeader(l).map((h) => (h === '範疇一排放量(噸CO2e)' ? `${h} ` : h)) : expectedHeader(l);
      expect(header, l.file).toEqual(spaced);
      const rows = rowsOf(join(dir, l.file));
      for (const r of rows) expect(Object.keys(r).length, l.file).toBe(header.length);
      expect(rows.length, l.file).toBe(result.counts[l.file]);
      expect(rows.length, `${l.file} has data`).toBeGreaterThan(0);
      const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
      expect(bom, `${l.file} BOM`).toBe(l === esgReportLayout);
      expect(bytes.includes(0x0d), `${l.file} has no CR`).toBe(false);
    }
    // The TWSE/TPEx/MOENV files are JSON (MOENV's registry wrapped in {records}); every value a string.
    for (const l of [twseCompanyLayout, tpexCompanyLayout, penaltyLayout, twseGhgLayout, tpexGhgLayout, registryLayout]) {
      const parsed = JSON.parse(readFileSync(join(dir, l.file), 'utf8')) as unknown;
      const list = (l === registryLayout ? (parsed as { records: unknown[] }).records : parsed) as Record<string, unknown>[];
      expect(Array.isArray(list), l.file).toBe(true);
      for (const r of list) for (const v of Object.values(r)) expect(typeof v, l.file).toBe('string');
    }
    // The ETF holdings are Big5: not valid UTF-8, and decodable as Big5 with Chinese names intact.
    const etf = readFileSync(join(dir, etfHoldingsLayout.file));
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(etf)).toThrow();
    expect(new TextDecoder('big5').decode(etf).split('\n')[0]).toBe(expectedHeader(etfHoldingsLayout).join(','));
    expect(readFileSync(join(dir, cbamProductsLayout.file), 'utf8').startsWith('公司代號,')).toBe(true);
  });

  it('uses only fictional codes, unique tickers and 統一編號 that fail the check rule', () => {
    const companies = [
      ...recordsAt(join(dir, twseCompanyLayout.file), twseCompanyLayout.columns),
      ...recordsAt(join(dir, tpexCompanyLayout.file), tpexCompanyLayout.columns),
    ];
    expect(companies).toHaveLength(1800);
    const listed = recordsAt(join(dir, twseCompanyLayout.file), twseCompanyLayout.columns).length;
    expect(listed / 1800).toBeGreaterThan(0.5);
    expect(listed / 1800).toBeLessThan(0.6);
    for (const c of companies) {
      expect(c.ticker).toMatch(/^D[0-9]{4}$/);
      expect(c.uniformNo).toMatch(/^[0-9]{8}$/);
      expect(ubnChecksumValid(c.uniformNo as string)).toBe(false);
      expect(c.shortName).toMatch(/^(示範|虛構)/);
      expect(c.legalName).toBe(`${c.shortName}股份有限公司`);
      expect(c.industryCode).toMatch(/^[0-9]{2}$/);
    }
    expect(new Set(companies.map((c) => c.ticker)).size).toBe(1800);
    expect(new Set(companies.map((c) => c.uniformNo)).size).toBe(1800);
    expect(new Set(companies.map((c) => c.shortName)).size).toBe(1800);
    const tickers = new Set(companies.map((c) => c.ticker));
    for (const l of [twseGhgLayout, tpexGhgLayout, esgReportLayout, cbamProductsLayout]) {
      for (const r of recordsAt(join(dir, l.file), l.columns)) expect(tickers.has(r.ticker as string), l.file).toBe(true);
    }
  });

  it('writes ~10 ETFs whose weights sum to exactly 100.00, with holdings outside the universe', () => {
    const rows = recordsAt(join(dir, etfHoldingsLayout.file), etfHoldingsLayout.columns);
    const byFund = new Map<string, Record<string, string>[]>();
    for (const r of rows) byFund.set(r.fundCode as string, [...(byFund.get(r.fundCode as string) ?? []), r]);
    expect(byFund.size).toBeGreaterThanOrEqual(8);
    let topOver30 = 0;
    for (const [code, holdings] of byFund) {
      expect(code).toMatch(/^DE[0-9]{4}$/);
      expect(holdings.length).toBeGreaterThanOrEqual(30);
      expect(holdings.length).toBeLessThanOrEqual(102);
      let hundredths = 0;
      for (const h of holdings) {
        expect(h.weightPct).toMatch(/^[0-9]+\.[0-9]{2}$/);
        hundredths += Math.round(Number(h.weightPct) * 100);
      }
      expect(hundredths, code).toBe(10_000);
      if (holdings.some((h) => Number(h.weightPct) > 30)) topOver30++;
      expect(new Set(holdings.map((h) => `${h.year}Q${h.quarter}`))).toEqual(new Set(['115Q3']));
    }
    expect(topOver30).toBeGreaterThanOrEqual(1);
    const codes = rows.map((r) => r.securityCode as string);
    expect(codes).toContain('CASH');
    expect(codes.some((c) => /^X/.test(c))).toBe(true);
    for (const c of codes) expect(c).toMatch(/^(D[0-9]+|CASH|X[A-Z]{2}[0-9]{3})$/);
  });

  it('mixes ROC slash, ROC compact and ISO dates in the penalty file, with unique document numbers', () => {
    const rows = recordsAt(join(dir, penaltyLayout.file), penaltyLayout.columns);
    for (const col of ['penaltyDate', 'transgressDate'] as const) {
      const values = rows.map((r) => r[col] as string);
      expect(values.some((v) => /^1\d{2}\/\d{2}\/\d{2}$/.test(v)), `${col} ROC slash`).toBe(true);
      expect(values.some((v) => /^1\d{6}$/.test(v)), `${col} ROC compact`).toBe(true);
      expect(values.some((v) => /^\d{4}-\d{2}-\d{2}$/.test(v)), `${col} ISO`).toBe(true);
    }
    expect(new Set(rows.map((r) => r.documentNo)).size).toBe(rows.length);
    expect(rows.some((r) => (r.penaltyMoney as string).includes(','))).toBe(true);
    for (const r of rows) {
      expect(r.penaltyMoney).toMatch(/^[0-9]{1,3}(,[0-9]{3})*$|^[0-9]+$/);
      expect(['是', '否']).toContain(r.serious);
    }
    const companyNos = new Set([
      ...recordsAt(join(dir, twseCompanyLayout.file), twseCompanyLayout.columns).map((c) => c.uniformNo),
      ...recordsAt(join(dir, tpexCompanyLayout.file), tpexCompanyLayout.columns).map((c) => c.uniformNo),
    ]);
    expect(rows.some((r) => !companyNos.has(r.uniformNo))).toBe(true);
    expect(rows.some((r) => r.agencyName === '環境部')).toBe(true);
  });

  it('writes disclosure and registry values in the documented formats', () => {
    for (const l of [twseGhgLayout, tpexGhgLayout]) {
      for (const r of recordsAt(join(dir, l.file), l.columns)) {
        expect(r.reportDate).toBe('1151031');
        expect(r.reportYear).toMatch(/^11[1-5]$/);
        for (const k of ['scope1', 'scope2', 'scope3', 'intensity'] as const) expect(r[k]).toMatch(/^$|^[0-9]+(\.[0-9]{1,4})?$/);
        for (const k of ['scope1Verified', 'scope2Verified', 'scope3Verified'] as const) expect(['是', '否', '']).toContain(r[k]);
        expect(r.scope1 !== '' || r.scope2 !== '').toBe(true);
      }
    }
    const reg = recordsAt(join(dir, registryLayout.file), registryLayout.columns);
    expect(new Set(reg.map((r) => r.year))).toEqual(new Set(['113', '114']));
    for (const r of reg) expect(r.industryCode).toMatch(/^(0[89]|[12][0-9]|3[0-5])[0-9]{2}$/);
  });
});

describe('generateDemo size', () => {
  it('writes a 200-company universe quickly', async () => {
    const dir = tempDir();
    const t0 = performance.now();
    const r = await generateDemo({ outDir: dir, companies: 200, seed: 1, asof: '2025-06-30' });
    expect(performance.now() - t0).toBeLessThan(5_000);
    expect(r.counts[twseCompanyLayout.file]! + r.counts[tpexCompanyLayout.file]!).toBe(200);
    const etf = recordsAt(join(dir, etfHoldingsLayout.file), etfHoldingsLayout.columns);
    expect(new Set(etf.map((h) => `${h.year}Q${h.quarter}`))).toEqual(new Set(['114Q2']));
  });

  it('uses 6-digit tickers above 8,000 companies', async () => {
    const dir = tempDir();
    await generateDemo({ outDir: dir, companies: 8001 });
    const rows = recordsAt(join(dir, twseCompanyLayout.file), twseCompanyLayout.columns);
    for (const r of rows) expect(r.ticker).toMatch(/^D[0-9]{6}$/);
  });

  it('rejects bad options', async () => {
    await expect(generateDemo({ outDir: tempDir(), asof: '2026-02-30' })).rejects.toThrow(/asof/);
    await expect(generateDemo({ outDir: tempDir(), companies: 0 })).rejects.toThrow(/companies/);
  });
});

import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileLayout } from '../../../build-scripts/adapters/layouts.js';
import { cbamProductsLayout } from '../../../build-scripts/sources/cbam-products/cbam-products.js';
import { RejectLog } from '../../../build-scripts/adapters/read-layout.js';
import { generateDemo } from '../../../build-scripts/demo/generate.js';
import { parseIsoDay } from '../../../build-scripts/demo-model/dates.js';
import { ubnChecksumValid } from '../../../build-scripts/demo/ids.js';
import { buildUniverse } from '../../../build-scripts/demo/universe.js';
import type { ReportFiling } from '../../../build-scripts/sources/kit/facts.js';
import { filesOf } from '../../../build-scripts/sources/kit/files.js';
import { SOURCE_MODULES, SOURCES } from '../../../build-scripts/sources/index.js';
import { registryLayout } from '../../../build-scripts/sources/moenv/moenv-ghg-registry.js';
import { penaltyLayout } from '../../../build-scripts/sources/moenv/moenv-penalties.js';
import { MOENV_PAGE, moenvPageFiles } from '../../../build-scripts/sources/moenv/moenv-v2.js';
import { mopsEsgReportModule, readReportFilings, reportYears } from '../../../build-scripts/sources/esg-reports/mops-esg-report.js';
import { SITCA_CLASSES, SITCA_FORM_FILE, sitcaAnswerFile } from '../../../build-scripts/sources/etfs/sitca-etf-holdings.js';
import type { SourceModule } from '../../../build-scripts/sources/kit/source.js';
import { SourceTally } from '../../../build-scripts/sources/kit/tally.js';
import { tpexCompanyLayout } from '../../../build-scripts/sources/company-lists/tpex-company.js';
import { tpexGhgLayout } from '../../../build-scripts/sources/ghg-disclosures/tpex-esg-ghg.js';
import { twseCompanyLayout } from '../../../build-scripts/sources/company-lists/twse-company.js';
import { twseEtfListModule } from '../../../build-scripts/sources/etfs/twse-etf-list.js';
import { twseGhgLayout } from '../../../build-scripts/sources/ghg-disclosures/twse-esg-ghg.js';
import { headerOf, recordsAt, rowsOf } from './csv-parse.js';

/** The tabular publisher files (one layout each; MOENV's in pages). The GenPlus and SITCA answers are checked on their own below. */
const LAYOUTS: readonly FileLayout[] = [
  twseCompanyLayout,
  tpexCompanyLayout,
  penaltyLayout,
  twseGhgLayout,
  tpexGhgLayout,
  registryLayout,
  cbamProductsLayout,
];
/** MOENV open data is written with its API keys (second label); every other file with its first label (Chinese, or TPEx's English keys). */
const KEY_STYLE = new Set<FileLayout>([penaltyLayout, registryLayout]);
/** The MOENV datasets the demo writes in pages, as a fetch keeps them. */
const PAGED = new Map<FileLayout, string>([
  [penaltyLayout, 'EMS_P_46'],
  [registryLayout, 'GHG_P_01'],
]);

const expectedHeader = (l: FileLayout) => Object.values(l.columns).map((c) => (KEY_STYLE.has(l) ? (c.labels[1] ?? c.labels[0]) : c.labels[0]));

/** The files of one layout among those written: its pages in order, or its one file. */
function filesFor(files: readonly string[], l: FileLayout): string[] {
  const dataset = PAGED.get(l);
  if (dataset === undefined) return files.includes(l.file) ? [l.file] : [];
  const re = moenvPageFiles(dataset);
  return files.filter((f) => re.test(f)).sort();
}

/** MOENV pages as a fetch keeps them: numbered from 0001 without a gap, every page full but the last, which is short. */
function expectPages(r: { files: string[]; counts: Record<string, number> }): void {
  for (const [l, dataset] of PAGED) {
    const pages = filesFor(r.files, l);
    expect(pages.length, dataset).toBeGreaterThan(0);
    expect(pages).toEqual(pages.map((_, i) => `${dataset}.${String(i + 1).padStart(4, '0')}.json`));
    pages.forEach((p, i) => {
      if (i < pages.length - 1) expect(r.counts[p], p).toBe(MOENV_PAGE);
      else expect(r.counts[p], p).toBeLessThan(MOENV_PAGE);
    });
  }
}

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'demo-gen-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const readAll = (dir: string) =>
  Object.fromEntries(
    readdirSync(dir)
      .sort()
      .map((f) => [f, readFileSync(join(dir, f))]),
  );
/** A source's bytes in a folder: its files (as the build finds them) joined in order. */
const sourceBytes = (dir: string, m: SourceModule) =>
  Buffer.concat(filesOf(dir, m).flatMap((f) => [Buffer.from(`${f}\n`), readFileSync(join(dir, f))]));

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
    expect(Object.keys(fa)).toEqual(Object.keys(fb));
    for (const [name, bytes] of Object.entries(fa)) expect(bytes.equals(fb[name] as Buffer), name).toBe(true);
    for (const m of SOURCE_MODULES) {
      // The fund list names the demo's funds and dates them by their order, not by the seed.
      if (m.plan === null || m === twseEtfListModule) continue;
      expect(sourceBytes(a, m).equals(sourceBytes(c, m)), m.info.source_id).toBe(false);
    }
    expect(readFileSync(join(a, cbamProductsLayout.file)).equals(readFileSync(join(c, cbamProductsLayout.file)))).toBe(false);
  });
});

describe('generateDemo with the default options', () => {
  let dir = '';
  let result: Awaited<ReturnType<typeof generateDemo>>;
  const text = (file: string) => readFileSync(join(dir, file), 'utf8');
  const recordsOf = (l: FileLayout) => filesFor(result.files, l).flatMap((f) => recordsAt(join(dir, f), l.columns));
  const genplusFiles = () => result.files.filter((f) => mopsEsgReportModule.files.answers.test(f));
  const genplusData = (file: string) => (JSON.parse(text(file)) as { data: Record<string, string | null>[] }).data;

  beforeAll(async () => {
    dir = tempDir();
    result = await generateDemo({ outDir: dir });
  });

  it('reports every file it writes, manifest.json last, and writes nothing else', () => {
    expect(result.asof).toBe('2026-10-31');
    expect(result.files.at(-1)).toBe('manifest.json');
    expect(new Set(result.files).size).toBe(result.files.length);
    expect([...result.files].sort()).toEqual(readdirSync(dir).sort());
    expect(Object.keys(result.counts)).toEqual(result.files.slice(0, -1));
  });

  it("writes each source in the form a fetch keeps it: every file one source's answer, no hand-placed form", () => {
    for (const f of result.files) {
      if (f === 'manifest.json' || f === cbamProductsLayout.file) continue;
      const owners = SOURCE_MODULES.filter((m) => m.files.answers.test(f)).map((m) => m.info.source_id);
      expect(owners, f).toHaveLength(1);
    }
    for (const m of SOURCE_MODULES) {
      for (const placed of m.files.placed) expect(result.files, `${m.info.source_id} placed form`).not.toContain(placed);
      // Every fetched source has its answers; the hand-placed-only source (MOPS ETF holdings) has none.
      expect(filesOf(dir, m).length > 0, m.info.source_id).toBe(m.plan !== null);
    }
    expect(result.files).not.toContain('esg_report.csv');
    expect(result.files).not.toContain('etf_holdings.csv');
  });

  it('writes MOENV datasets in pages of 1,000 numbered from 0001, the last one short', () => {
    expectPages(result);
  });

  it('writes a GenPlus answer for every report year and market a fetch asks for, and the SITCA answers of the newest quarter', () => {
    expect(genplusFiles()).toEqual(reportYears(result.asof).flatMap((y) => [`esggenplus-${y}-sii.json`, `esggenplus-${y}-otc.json`]));
    expect(
      filesOf(
        dir,
        SOURCE_MODULES.find((m) => m.info.source_id === 'SRC-SITCA-ETF-HOLDINGS')!,
      ),
    ).toEqual([SITCA_FORM_FILE, ...SITCA_CLASSES.map((c) => sitcaAnswerFile('202609', c))].sort());
    expect(filesOf(dir, twseEtfListModule)).toEqual(['t187ap47_L.json']);
  });

  it('writes manifest.json with a retrieval time for every source', () => {
    const manifest = JSON.parse(text('manifest.json'));
    expect(manifest).toEqual({
      kind: 'demo',
      seed: 20261101,
      companies: 1800,
      asof: '2026-10-31',
      retrieved_at: expect.any(Object),
    });
    expect(Object.keys(manifest.retrieved_at).sort()).toEqual(SOURCES.map((s) => s.source_id).sort());
    for (const t of Object.values(manifest.retrieved_at)) expect(t).toMatch(/^2026-10-31T\d{2}:\d{2}:\d{2}Z$/);
  });

  it("writes each tabular file in its publisher's form with the header its layout implies and a full row everywhere", () => {
    for (const l of LAYOUTS) {
      for (const file of filesFor(result.files, l)) {
        const bytes = readFileSync(join(dir, file));
        const header = headerOf(join(dir, file));
        // Keys as written: the one TPEx key with the trailing space real OpenAPI keys sometimes have.
        const spaced = l === tpexGhgLayout ? expectedHeader(l).map((h) => (h === '範疇一排放量(噸CO2e)' ? `${h} ` : h)) : expectedHeader(l);
        if (result.counts[file]! > 0) expect(header, file).toEqual(spaced);
        const rows = rowsOf(join(dir, file));
        for (const r of rows) expect(Object.keys(r).length, file).toBe(spaced.length);
        expect(rows.length, file).toBe(result.counts[file]);
        expect(bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf, `${file} has no BOM`).toBe(false);
        expect(bytes.includes(0x0d), `${file} has no CR`).toBe(false);
      }
      expect(recordsOf(l).length, `${l.file} has data`).toBeGreaterThan(0);
    }
    // TPEx profiles carry the English keys exactly as served, the full stop of `UnifiedBusinessNo.` included.
    expect(headerOf(join(dir, tpexCompanyLayout.file))).toEqual(
      expect.arrayContaining(['SecuritiesCompanyCode', 'UnifiedBusinessNo.', 'Paidin.Capital.NTDollars']),
    );
    // The TWSE/TPEx/MOENV files are JSON (MOENV's registry pages wrapped in {records}); every value a string.
    for (const l of LAYOUTS.filter((x) => x !== cbamProductsLayout)) {
      for (const file of filesFor(result.files, l)) {
        const parsed = JSON.parse(text(file)) as unknown;
        const list = (l === registryLayout ? (parsed as { records: unknown[] }).records : parsed) as Record<string, unknown>[];
        expect(Array.isArray(list), file).toBe(true);
        for (const r of list) for (const v of Object.values(r)) expect(typeof v, file).toBe('string');
      }
    }
    expect(text(cbamProductsLayout.file).startsWith('公司代號,')).toBe(true);
  });

  it('writes GenPlus answers in their envelope, the new keys from 2023 and the old MOPS keys before, read by the real adapter without a reject', async () => {
    for (const f of genplusFiles()) {
      const answer = JSON.parse(text(f)) as { code: unknown; success: unknown; data: Record<string, unknown>[]; message: unknown };
      expect(Object.keys(answer).sort(), f).toEqual(['code', 'data', 'message', 'success']);
      expect(answer.success, f).toBe(true);
      expect(answer.data.length, f).toBe(result.counts[f]);
      const year = Number(/^esggenplus-(\d{4})-/.exec(f)![1]);
      for (const r of answer.data) {
        expect(Object.keys(r), f).toEqual(
          expect.arrayContaining(
            year <= 2022
              ? ['companY_ID', 'surE_A', 'acC_S', 'acC_A', 'filE_NAME', 'useR_DATE1']
              : [
                  'code',
                  'partnerOrganization',
                  'stdCompliance',
                  'accOptionType',
                  'valiProvider',
                  'thirdStd',
                  'twFirstReportDownloadId',
                  'twEditReportDownloadId',
                  'twCommencementDate',
                ],
          ),
        );
        for (const v of Object.values(r)) expect(v === null || typeof v === 'string', f).toBe(true);
      }
    }
    const rejects = new RejectLog();
    const tally = new SourceTally();
    const filings: ReportFiling[] = [];
    for await (const r of readReportFilings(dir, rejects, tally)) filings.push(r);
    expect(rejects.format()).toBe('');
    expect(tally.of(mopsEsgReportModule.info.source_id).duplicates).toBe(0);
    expect(filings.length).toBe(genplusFiles().reduce((s, f) => s + result.counts[f]!, 0));
    // Every form of assurance and both kinds of link occur.
    const kinds = new Set(filings.map((r) => r.assurance?.kind ?? 'none'));
    expect(kinds).toEqual(new Set(['cpa', 'third_party', 'none']));
    expect(new Set(filings.map((r) => r.assurance?.level).filter(Boolean))).toEqual(new Set(['limited', 'reasonable']));
    expect(filings.some((r) => r.link.includes('/FileStream?id='))).toBe(true);
    expect(filings.some((r) => r.link.includes('/inquiry/report?market='))).toBe(true);
    expect(filings.some((r) => r.link.includes('mopsov.twse.com.tw/server-java/FileDownLoad'))).toBe(true);
  });

  it('uses only fictional codes, unique tickers and 統一編號 that fail the check rule', () => {
    const listedRows = recordsOf(twseCompanyLayout);
    const companies = [...listedRows, ...recordsOf(tpexCompanyLayout)];
    expect(companies).toHaveLength(1800);
    expect(listedRows.length / 1800).toBeGreaterThan(0.5);
    expect(listedRows.length / 1800).toBeLessThan(0.6);
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
    for (const l of [twseGhgLayout, tpexGhgLayout, cbamProductsLayout]) {
      for (const r of recordsOf(l)) expect(tickers.has(r.ticker as string), l.file).toBe(true);
    }
    for (const f of genplusFiles()) {
      for (const r of genplusData(f)) expect(tickers.has((r.code ?? r.companY_ID) as string), f).toBe(true);
    }
  });

  it('mixes ROC slash, ROC compact and ISO dates in the penalty pages, with unique document numbers', () => {
    const rows = recordsOf(penaltyLayout);
    for (const col of ['penaltyDate', 'transgressDate'] as const) {
      const values = rows.map((r) => r[col] as string);
      expect(
        values.some((v) => /^1\d{2}\/\d{2}\/\d{2}$/.test(v)),
        `${col} ROC slash`,
      ).toBe(true);
      expect(
        values.some((v) => /^1\d{6}$/.test(v)),
        `${col} ROC compact`,
      ).toBe(true);
      expect(
        values.some((v) => /^\d{4}-\d{2}-\d{2}$/.test(v)),
        `${col} ISO`,
      ).toBe(true);
    }
    expect(new Set(rows.map((r) => r.documentNo)).size).toBe(rows.length);
    expect(rows.some((r) => (r.penaltyMoney as string).includes(','))).toBe(true);
    for (const r of rows) {
      expect(r.penaltyMoney).toMatch(/^[0-9]{1,3}(,[0-9]{3})*$|^[0-9]+$/);
      expect(['是', '否']).toContain(r.serious);
    }
    const companyNos = new Set([...recordsOf(twseCompanyLayout), ...recordsOf(tpexCompanyLayout)].map((c) => c.uniformNo));
    expect(rows.some((r) => !companyNos.has(r.uniformNo))).toBe(true);
    expect(rows.some((r) => r.agencyName === '環境部')).toBe(true);
  });

  it('writes disclosure and registry values in the documented formats', () => {
    for (const l of [twseGhgLayout, tpexGhgLayout]) {
      for (const r of recordsOf(l)) {
        expect(r.reportDate).toBe('1151031');
        expect(r.reportYear).toMatch(/^11[1-5]$/);
        // As the exchanges serve them: four decimals, a missing figure N/A (never empty), 取得驗證 否 beside it.
        for (const k of ['scope1', 'scope2', 'scope3', 'intensity'] as const) expect(r[k]).toMatch(/^N\/A$|^[0-9]+\.[0-9]{4}$/);
        for (const k of ['scope1Verified', 'scope2Verified', 'scope3Verified'] as const) expect(['是', '否']).toContain(r[k]);
        for (const s of [1, 2, 3] as const)
          if (r[`scope${s}`] === 'N/A') expect([r[`scope${s}Verified`], r[`scope${s}Boundary`]]).toEqual(['否', 'N/A']);
        for (const k of ['scope1Boundary', 'scope2Boundary', 'scope3Boundary'] as const)
          expect(['已完成母公司', '已完成合併財務報表之母子公司', '本公司為個別公司', 'N/A']).toContain(r[k]);
        expect(r.scope1 !== 'N/A' || r.scope2 !== 'N/A').toBe(true);
      }
    }
    const reg = recordsOf(registryLayout);
    expect(new Set(reg.map((r) => r.year))).toEqual(new Set(['113', '114']));
    for (const r of reg) expect(r.industryCode).toMatch(/^(0[89]|[12][0-9]|3[0-5])[0-9]{2}$/);
  });
});

describe("the demo universe's ETFs (written as SITCA answers: sources/etfs/demo-files.ts, read back in sources/etfs/etf-funds.test.ts)", () => {
  it('has ~10 ETFs whose weights sum to exactly 100.00 %, with holdings outside the universe', () => {
    const u = buildUniverse({ seed: 20261101, companies: 1800, asof: parseIsoDay('2026-10-31') });
    expect(u.etfs.length).toBeGreaterThanOrEqual(8);
    let topOver30 = 0;
    for (const e of u.etfs) {
      expect(e.code).toMatch(/^DE[0-9]{4}$/);
      expect(e.holdings.length).toBeGreaterThanOrEqual(30);
      expect(e.holdings.length).toBeLessThanOrEqual(102);
      for (const h of e.holdings) expect(Number.isInteger(h.weight) && h.weight > 0, `${e.code} ${h.code}`).toBe(true);
      expect(
        e.holdings.reduce((s, h) => s + h.weight, 0),
        e.code,
      ).toBe(10_000);
      if (e.holdings.some((h) => h.weight > 3000)) topOver30++;
      expect(`${e.year}Q${e.quarter}`).toBe('2026Q3');
    }
    expect(topOver30).toBeGreaterThanOrEqual(1);
    const codes = u.etfs.flatMap((e) => e.holdings.map((h) => h.code));
    expect(codes).toContain('CASH');
    expect(codes.some((c) => /^X/.test(c))).toBe(true);
    for (const c of codes) expect(c).toMatch(/^(D[0-9]+|CASH|X[A-Z]{2}[0-9]{3})$/);
  });
});

describe('generateDemo size', () => {
  it('writes a 200-company universe quickly', async () => {
    const dir = tempDir();
    const t0 = performance.now();
    const r = await generateDemo({ outDir: dir, companies: 200, seed: 1, asof: '2025-06-30' });
    expect(performance.now() - t0).toBeLessThan(5_000);
    expect(r.counts[twseCompanyLayout.file]! + r.counts[tpexCompanyLayout.file]!).toBe(200);
    // The newest quarter of asof 2025-06-30 is 2025Q2; report years up to 2024.
    for (const c of SITCA_CLASSES) expect(r.files).toContain(sitcaAnswerFile('202506', c));
    expect(r.files.filter((f) => mopsEsgReportModule.files.answers.test(f))).toHaveLength(reportYears('2025-06-30').length * 2);
    expect(r.files).toContain('esggenplus-2024-otc.json');
    expect(r.files).not.toContain('esggenplus-2025-sii.json');
  });

  it('uses 6-digit tickers above 8,000 companies, and MOENV data runs over several pages', async () => {
    const dir = tempDir();
    const r = await generateDemo({ outDir: dir, companies: 8001 });
    const rows = recordsAt(join(dir, twseCompanyLayout.file), twseCompanyLayout.columns);
    for (const row of rows) expect(row.ticker).toMatch(/^D[0-9]{6}$/);
    expectPages(r);
    const penaltyPages = filesFor(r.files, penaltyLayout);
    expect(penaltyPages.length).toBeGreaterThan(1);
    expect(filesFor(r.files, registryLayout).length).toBeGreaterThan(1);
    // No decision is served twice across pages (the reader would count it, not score it twice).
    const docs = penaltyPages.flatMap((f) => recordsAt(join(dir, f), penaltyLayout.columns).map((x) => x.documentNo));
    expect(new Set(docs).size).toBe(docs.length);
  });

  it('rejects bad options', async () => {
    await expect(generateDemo({ outDir: tempDir(), asof: '2026-02-30' })).rejects.toThrow(/asof/);
    await expect(generateDemo({ outDir: tempDir(), companies: 0 })).rejects.toThrow(/companies/);
  });
});

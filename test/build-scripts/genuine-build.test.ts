import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeHTMLStrict } from 'entities';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAndPublish, type BuildResult } from '../../build-scripts/build.js';
import { fetchSources } from '../../build-scripts/fetch/fetch-sources.js';
import { silentProgress } from '../../build-scripts/snapshot/progress.js';
import { fileForPageUrl } from '../../src/site/i18n/paths.js';
import { parseCsv } from '../helpers/csv-parse.js';
import { sectionTextOf } from '../site/html.js';
import { publisherHandlers, replayEnv } from './fetch/publishers.js';
import { startReplay, type Replay } from './fetch/replay-server.js';

/**
 * A production build from the publishers' genuine answers (test/fixtures/genuine, byte for byte as
 * served: provenance in its PROVENANCE.md), with the loopback replay's answers for the four sources
 * no genuine answer exists for. Built as a production build runs: no --max-rejects. Every expected
 * figure below is computed here from the same files, by code of this test, never copied from the
 * build's output.
 */

const GENUINE = join(import.meta.dirname, '../fixtures/genuine');
/** The genuine answers under the names a fetch gives them (the MOENV pages as the CSV form an operator places). */
const PLACED: Record<string, string> = {
  'SRC-TWSE-COMPANY/t187ap03_L.json': 't187ap03_L.json',
  'SRC-TPEX-COMPANY/mopsfin_t187ap03_O.json': 'mopsfin_t187ap03_O.json',
  'SRC-MOENV-EMS_P_46/ems_p_46.csv': 'EMS_P_46.csv',
  'SRC-MOENV-GHG_P_01/ghg_p_01.csv': 'GHG_P_01.csv',
};
/** Genuine answers saved inside a caller's wrapper: `response.body` is the publisher's answer, placed under the fetch's name. */
const WRAPPED: Record<string, string> = {
  'SRC-TWSE-ESG-GHG/GET__opendata_t187ap46_L_1.json': 't187ap46_L_1.json',
  'SRC-TWSE-ETF-LIST/GET__opendata_t187ap47_L.json': 't187ap47_L.json',
  'SRC-FSC-SANCTIONS/GET__opendata_t187ap23_L.json': 't187ap23_L.json',
  'SRC-FSC-SANCTIONS/GET__opendata_t187ap22_L.json': 't187ap22_L.json',
};
/** The sources the replay answers for. */
const REPLAYED = ['SRC-TPEX-ESG-GHG', 'SRC-MOPS-ESGREPORT', 'SRC-SITCA-ETF-HOLDINGS', 'SRC-TPEX-DISCLOSURE-BREACHES', 'SRC-TPEX-SANCTIONS'];
/**
 * The replay's answers are tiny (two or three companies), so the sources' absolute minima are scaled to
 * them, as the replay's own tests do; the genuine penalty page alone would need 0.01 (1,000 of 100,000).
 */
const SCALE = 0.001;

const root = mkdtempSync(join(tmpdir(), 'genuine-build-'));
let replay: Replay;
let built: BuildResult;
afterAll(async () => {
  await replay?.close();
  rmSync(root, { recursive: true, force: true });
});

beforeAll(async () => {
  replay = await startReplay(publisherHandlers());
  const sources = join(root, 'sources');
  mkdirSync(sources);
  for (const [from, to] of Object.entries(PLACED)) copyFileSync(join(GENUINE, from), join(sources, to));
  for (const [from, to] of Object.entries(WRAPPED)) writeFileSync(join(sources, to), JSON.stringify(body(from), null, 2));
  await fetchSources({
    outDir: sources,
    only: REPLAYED,
    env: replayEnv(replay.base),
    log: () => undefined,
    http: { retryBaseMs: 1, retryMaxMs: 20, minIntervalMs: 0, timeoutMs: 5_000, attempts: 2 },
    now: () => new Date('2026-08-01T00:00:00Z'),
    asof: '2026-07-31',
  });
  built = await buildAndPublish({
    sourcesDir: sources,
    snapshotsDir: join(root, 'snapshots'),
    kind: 'production',
    now: new Date('2026-08-02T00:00:00Z'),
    assertScale: SCALE,
    progress: silentProgress,
  });
}, 600_000);

// --- What the genuine files say, read by this test alone -------------------------------------------

const json = (rel: string) => JSON.parse(readFileSync(join(GENUINE, rel), 'utf8')) as Record<string, string>[];
/** An ROC compact date (`1141123`) as ISO. */
const roc = (v: string) => `${Number(v.slice(0, 3)) + 1911}-${v.slice(3, 5)}-${v.slice(5, 7)}`;
/** The publisher's answer inside a caller's wrapper. */
const body = (rel: string) =>
  (JSON.parse(readFileSync(join(GENUINE, rel), 'utf8')) as { response: { body: Record<string, string>[] } }).response.body;
function csv(rel: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(readFileSync(join(GENUINE, rel), 'utf8').replace(/^\ufeff/, '')).filter((r) => r.length > 1);
  return rows.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i]!])));
}
const twse = json('SRC-TWSE-COMPANY/t187ap03_L.json');
const tpex = json('SRC-TPEX-COMPANY/mopsfin_t187ap03_O.json');
/** Ticker → business ID, as both exchanges serve them (codes and IDs carry no padding to trim). */
const companies = new Map<string, string>([
  ...twse.map((c) => [c['公司代號']!.trim(), c['營利事業統一編號']!.trim()] as const),
  ...tpex.map((c) => [c.SecuritiesCompanyCode!.trim(), c['UnifiedBusinessNo.']!.trim()] as const),
]);
const tickerOf = new Map([...companies].map(([t, id]) => [id, t]));
const penalties = csv('SRC-MOENV-EMS_P_46/ems_p_46.csv');
const disclosures = body('SRC-TWSE-ESG-GHG/GET__opendata_t187ap46_L_1.json');
const sites = csv('SRC-MOENV-GHG_P_01/ghg_p_01.csv');

const treeFile = (path: string) => join(built.dir, 'tree/api/v1', `${path}.json`);
const canonical = (ticker: string) => JSON.parse(readFileSync(treeFile(`company/${ticker}/canonical`), 'utf8'));
const summary = (ticker: string) => JSON.parse(readFileSync(treeFile(`company/${ticker}`), 'utf8'));

function* filesUnder(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* filesUnder(path);
    else yield path;
  }
}

describe('a production build from the genuine answers', () => {
  it('builds without a reject, and the summary counts what reality serves', () => {
    expect(built.summary.rejects.format()).toBe('');
    const tally = built.summary.tally;
    // 392 registry rows served their business ID with seven digits.
    expect(tally.of('SRC-MOENV-GHG_P_01').padded).toBe(sites.filter((s) => /^\d{7}$/.test(s.companyno!)).length);
    // Penalties with no business ID (vehicles, people) are read, counted, and link to no company.
    const penaltyCounts = tally.of('SRC-MOENV-EMS_P_46');
    expect(penaltyCounts.records).toBe(penalties.length);
    expect(penaltyCounts.records - penaltyCounts.linked).toBe(penalties.filter((p) => !tickerOf.has(p.ban!)).length);
    expect(penaltyCounts.duplicates).toBe(0);
  });

  it('publishes every company, the depositary receipts (產業別 91) included', () => {
    expect(built.summary.companies).toBe(companies.size);
    const missing = [...companies.keys()].filter((t) => !existsSync(treeFile(`company/${t}`)));
    expect(missing).toEqual([]);
    const receipts = twse.filter((c) => c['產業別'] === '91').map((c) => c['公司代號']!.trim());
    expect(receipts.length).toBeGreaterThan(0);
    for (const t of receipts) expect(summary(t).company.industry, t).toBe('存託憑證');
  });

  it('keeps every penalty of a listed business ID, per company (one 裁處書字號 names decisions of several counties)', () => {
    const expected = new Map<string, number>();
    const seen = new Set<string>();
    for (const p of penalties) {
      const ticker = tickerOf.get(p.ban!);
      const whole = JSON.stringify(p);
      if (ticker === undefined || seen.has(whole)) continue;
      seen.add(whole);
      expected.set(ticker, (expected.get(ticker) ?? 0) + 1);
    }
    expect(expected.get('1563')).toBe(1);
    const published = new Map(
      [...companies.keys()].map((t) => [t, canonical(t).penalties.length as number]).filter(([, n]) => (n as number) > 0) as [string, number][],
    );
    expect(published).toEqual(expected);
  });

  it('the carbon-fee liable set is the rule applied to site totals (tot), and TSMC’s basis names its largest 2022 site total', () => {
    const latest = Math.max(...sites.map((s) => Number(s.app_year)));
    const liable = new Set<string>();
    let tsmcLargest = 0;
    for (const s of sites) {
      if (Number(s.app_year) !== latest) continue;
      const ticker = tickerOf.get(s.companyno!.padStart(8, '0'));
      if (ticker === undefined) continue;
      const code = s.ccksicco1!.replace(/^[A-Z]/, '');
      const division = Number(code.slice(0, 2));
      const total = Number(s.tot);
      const manufacturer = division >= 8 && division <= 34;
      if (code.startsWith('35') || (manufacturer && total >= 25_000)) liable.add(ticker);
      if (ticker === '2330' && manufacturer) tsmcLargest = Math.max(tsmcLargest, total);
    }
    const published = new Set([...companies.keys()].filter((t) => canonical(t).carbon_fee.obligated));
    expect([...published].sort()).toEqual([...liable].sort());
    expect(published.has('1470')).toBe(liable.has('1470'));
    expect(published.has('8069')).toBe(liable.has('8069'));
    const figure = Math.round(tsmcLargest).toLocaleString('en-US');
    expect(canonical('2330').carbon_fee.basis).toBe(
      `a manufacturing site emitted ${figure} t CO2e (direct and energy-indirect) in ${latest + 1911}, at or above 25,000`,
    );
    // The same figure as a number, which the Chinese page writes its own sentence from.
    expect(canonical('2330').carbon_fee.basis_tco2e).toBe(Math.round(tsmcLargest));
  });

  it('leaves no HTML character reference anywhere in the tree, and no value ending in a space or U+3000', () => {
    const tree = join(built.dir, 'tree');
    const api = join(tree, 'api/v1');
    const withReference: string[] = [];
    const shownLiterally: string[] = [];
    const padded: string[] = [];
    const visit = (value: unknown, at: string) => {
      if (typeof value === 'string') {
        // A text ending in padding (a declared terminator such as a CSV dialect's "\n" is all space, not padded text).
        if (/[^\s\u3000][\s\u3000]+$/.test(value)) padded.push(`${at}: ${JSON.stringify(value)}`);
      } else if (value !== null && typeof value === 'object') {
        for (const [k, v] of Object.entries(value)) visit(v, `${at}.${k}`);
      }
    };
    let files = 0;
    for (const path of filesUnder(tree)) {
      if (/\.(gz|zip|sqlite|png|woff2?|js)$/.test(path)) continue;
      files++;
      const text = readFileSync(path, 'utf8');
      const at = path.slice(tree.length);
      if (path.endsWith('.html')) {
        // A page escapes markup as HTML must (`&#39;`); a reference served by a publisher and not decoded would read `&amp;#…;`.
        if (/&amp;#\d|&amp;#x/i.test(text)) shownLiterally.push(at);
      } else if (path.startsWith(api) && text.includes('&#')) {
        withReference.push(at);
      }
      if (path.endsWith('.json')) visit(JSON.parse(text), at);
    }
    expect(files).toBeGreaterThan(companies.size);
    expect(withReference).toEqual([]);
    expect(shownLiterally).toEqual([]);
    expect(padded.slice(0, 10)).toEqual([]);
    // The genuine files do carry both (69 + 57 references, 251 values padded with U+3000): this test is not empty.
    expect([...twse, ...tpex].some((c) => Object.values(c).some((v) => v.includes('&#')))).toBe(true);
    expect(tpex.some((c) => Object.values(c).some((v) => v.endsWith('\u3000')))).toBe(true);
  });
});

describe('the companies’ own GHG disclosures (t187ap46_L_1, 1,043 companies, report year 113)', () => {
  const SCOPES = ['一', '二', '三'] as const;
  const figure = (r: Record<string, string>, s: string) => (r[`範疇${s}排放量(噸CO2e)`] === 'N/A' ? null : Number(r[`範疇${s}排放量(噸CO2e)`]));
  const listed = () => disclosures.filter((r) => companies.has(r['公司代號']!.trim()));

  it('every published company’s three figures are the file’s, N/A null; a row of three N/A publishes no disclosure', () => {
    expect(listed().length).toBeGreaterThan(900);
    let nothing = 0;
    for (const r of listed()) {
      const ticker = r['公司代號']!.trim();
      const d = canonical(ticker).carbon_disclosure;
      const figures = SCOPES.map((s) => figure(r, s));
      if (figures.every((f) => f === null)) {
        expect(d, ticker).toBeNull();
        nothing++;
        continue;
      }
      expect([d.scope1, d.scope2, d.scope3], ticker).toEqual(figures);
      expect(d.source_id).toBe('SRC-TWSE-ESG-GHG');
    }
    expect(nothing).toBeGreaterThan(0);
    // Counted in the summary as read, never rejected.
    expect(built.summary.tally.of('SRC-TWSE-ESG-GHG').records).toBe(disclosures.length);
  });

  it('year, each scope’s verification flag, the boundary class and its text', () => {
    for (const r of listed()) {
      const d = canonical(r['公司代號']!.trim()).carbon_disclosure;
      if (d === null) continue;
      expect(d.year).toBe(Number(r['報告年度']) + 1911);
      expect([d.scope1_verified, d.scope2_verified, d.scope3_verified]).toEqual(
        SCOPES.map((s) => r[`範疇${s}取得驗證`] === '是' && figure(r, s) !== null),
      );
      const text = r['範疇一資料邊界']!.trim();
      const boundary =
        text === 'N/A' ? null : text.includes('已完成合併財務報表之母子公司') ? 'consolidated' : text === '已完成母公司' ? 'parent' : 'other';
      expect([d.boundary, d.boundary_text], r['公司代號']).toEqual([boundary, boundary === null ? null : text]);
    }
  });

  it('1201 味全 (scope 3 N/A) is published with its disclosure, and its disclosure points follow methodology 7.1', () => {
    const r = disclosures.find((x) => x['公司代號'] === '1201')!;
    const d = canonical('1201').carbon_disclosure;
    expect([d.scope1, d.scope2, d.scope3]).toEqual([Number(r['範疇一排放量(噸CO2e)']), Number(r['範疇二排放量(噸CO2e)']), null]);
    const company = summary('1201').company;
    // E(D): reports for the year before are due by 31 August.
    const asof = summary('1201').data_asof as string;
    const year = Number(asof.slice(0, 4));
    const expectedYear = asof.slice(5) >= '09-01' ? year - 1 : year - 2;
    const timeliness = d.year >= expectedYear ? 10 : d.year === expectedYear - 1 ? 5 : 0;
    const points = 20 + 0 + timeliness;
    const disclosure = company.score_breakdown.find((c: { component: string }) => c.component === 'disclosure');
    expect(disclosure.points).toBe(points);
    expect(points).toBe(30);
    // With its disclosure it is no longer "questionable": the measure, at least 60, decent.
    expect(company.credibility_score).toBeGreaterThanOrEqual(60);
    expect(['decent', 'credible']).toContain(company.verdict);
  });

  it('the registry states the publisher’s own date of each answer (出表日期, Date)', () => {
    const registry = JSON.parse(readFileSync(treeFile('sources/registry'), 'utf8')) as {
      data: { source_id: string; publisher_date: string | null }[];
    };
    const date = (id: string) => registry.data.find((s) => s.source_id === id)!.publisher_date;
    expect(date('SRC-TWSE-ESG-GHG')).toBe(roc(disclosures[0]!['出表日期']!));
    expect(date('SRC-TWSE-COMPANY')).toBe(
      roc(
        twse
          .map((c) => c['出表日期']!)
          .sort()
          .at(-1)!,
      ),
    );
    expect(date('SRC-TPEX-COMPANY')).toBe(
      roc(
        tpex
          .map((c) => c.Date!)
          .sort()
          .at(-1)!,
      ),
    );
    // MOENV's answers carry no date of their own.
    expect(date('SRC-MOENV-EMS_P_46')).toBeNull();
  });

  it('the pages, in both languages, show a boundary in the company’s own words and each source’s own date', () => {
    const page = (url: string) => readFileSync(join(built.dir, 'tree', fileForPageUrl(url)), 'utf8');
    // 1227 佳格's boundary is a plant list over three lines: shown as served, not as a class.
    const r = disclosures.find((x) => x['公司代號'] === '1227')!;
    const lines = r['範疇一資料邊界']!.trim().split('\n');
    expect(lines.length).toBeGreaterThan(1);
    for (const url of ['/company/1227/', '/zh-TW/company/1227/']) {
      const text = sectionTextOf(page(url), 'carbon-h')!;
      for (const line of lines) expect(text, url).toContain(line.trim());
    }
    const stamped = roc(disclosures[0]!['出表日期']!);
    expect(page('/sources/')).toContain(`class="publisher-date">${stamped}`);
    expect(page('/zh-TW/sources/')).toContain('發布者標示日期');
  });
});

describe('the TWSE fund list as served in November 2025 (t187ap47_L, the older 24-key schema, 209 funds)', () => {
  const funds = body('SRC-TWSE-ETF-LIST/GET__opendata_t187ap47_L.json');
  /** The ESG rule of sources.md, by this test's own reading: domestic-constituent type, a keyword in the name or index, after unescaping and NFKC. */
  const KEYWORDS = ['ESG', '永續', '公司治理', '低碳', '氣候', '淨零', '碳', '綠能', '環境'];
  const norm = (v: string | undefined) =>
    decodeHTMLStrict(v ?? '')
      .normalize('NFKC')
      .toUpperCase();
  const esg = funds
    .filter((f) => f['基金類型']!.trim().startsWith('國內成分證券'))
    .filter((f) => KEYWORDS.some((k) => norm(f['基金名稱']).includes(k) || norm(f['標的指數|追蹤指數名稱']).includes(k)))
    .map((f) => f['基金代號']!.trim())
    .sort();

  it('is read whole, with no reject; the ESG rule picks the funds the test picks from the file', () => {
    expect(funds).toHaveLength(209);
    expect(esg).toEqual(['00692', '00850', '00878', '00891', '00896', '00923', '00930', '00932', '00936', '00961']);
    expect(built.summary.tally.of('SRC-TWSE-ETF-LIST').records).toBe(funds.length);
    const published = (JSON.parse(readFileSync(treeFile('etf'), 'utf8')) as { data: { etf_code: string }[] }).data.map((e) => e.etf_code);
    // SITCA's replayed answer holds 00850 among non-ESG funds: what is published is an ESG fund of the list, each of them.
    expect(published.length).toBeGreaterThan(0);
    for (const code of published) expect(esg).toContain(code);
    expect(published).toContain('00850');
  });

  it('its own date, a year before it was served, is in the registry and on the sources page', () => {
    const registry = JSON.parse(readFileSync(treeFile('sources/registry'), 'utf8')) as {
      data: { source_id: string; publisher_date: string | null }[];
    };
    const stamped = roc(
      funds
        .map((f) => f['出表日期']!)
        .sort()
        .at(-1)!,
    );
    expect(stamped).toBe('2024-12-30');
    expect(registry.data.find((s) => s.source_id === 'SRC-TWSE-ETF-LIST')!.publisher_date).toBe(stamped);
    const page = readFileSync(join(built.dir, 'tree', fileForPageUrl('/sources/')), 'utf8');
    const entry = page.slice(page.indexOf('id="SRC-TWSE-ETF-LIST"'));
    expect(entry).toMatch(new RegExp(`class="publisher-date">${stamped} — \\d+ days before it was retrieved`));
  });
});

describe('disclosure conduct (t187ap23_L, 79 breaches; t187ap22_L, 65 FSC sanctions; 2025-11-22)', () => {
  const breaches = body('SRC-FSC-SANCTIONS/GET__opendata_t187ap23_L.json');
  const sanctions = body('SRC-FSC-SANCTIONS/GET__opendata_t187ap22_L.json');

  it('every row of a listed company is in its disclosure_conduct, with kind, date and fine computed from the files', () => {
    const expected = new Map<string, string[]>();
    const add = (code: string, entry: string) => expected.set(code, [...(expected.get(code) ?? []), entry].sort());
    for (const r of breaches)
      if (companies.has(r['股票代號']!.trim())) add(r['股票代號']!.trim(), `breach ${roc(r['發函日期']!)} ${Number(r['裁罰金額(萬)']) * 10_000}`);
    for (const r of sanctions) if (companies.has(r['股票代號']!.trim())) add(r['股票代號']!.trim(), `sanction ${roc(r['發函日期']!)} null`);
    expect([...expected.values()].flat()).toHaveLength(breaches.length + sanctions.length);
    for (const [ticker, rows] of expected) {
      const conduct = canonical(ticker).disclosure_conduct as { kind: string; date: string; fine: number | null; source_id: string }[];
      expect(conduct.map((c) => `${c.kind} ${c.date} ${c.fine}`).sort(), ticker).toEqual(rows);
      // Newest first.
      expect(conduct.map((c) => c.date)).toEqual([...conduct.map((c) => c.date)].sort().reverse());
    }
    // 2236 has six rows in t187ap23_L: six in its section.
    expect(breaches.filter((r) => r['股票代號'] === '2236')).toHaveLength(6);
    expect(canonical('2236').disclosure_conduct.filter((c: { kind: string }) => c.kind === 'breach')).toHaveLength(6);
    expect(built.summary.tally.of('SRC-TWSE-DISCLOSURE-BREACHES').records).toBe(breaches.length);
    expect(built.summary.tally.of('SRC-TWSE-SANCTIONS').records).toBe(sanctions.length);
  });

  it('GF-S01 for a breach within 24 months of the snapshot, GF-S02 for a sanction, each naming its source', () => {
    const asof = summary('1727').data_asof as string;
    const within = (iso: string) => {
      const [y, m, d] = asof.split('-').map(Number) as [number, number, number];
      const from = new Date(Date.UTC(y - 2, m - 1, Math.min(d, new Date(Date.UTC(y - 2, m, 0)).getUTCDate()))).toISOString().slice(0, 10);
      return iso > from && iso <= asof;
    };
    const breachTickers = new Set(breaches.filter((r) => within(roc(r['發函日期']!))).map((r) => r['股票代號']!.trim()));
    const sanctionTickers = new Set(sanctions.filter((r) => within(roc(r['發函日期']!))).map((r) => r['股票代號']!.trim()));
    expect(breachTickers.size).toBeGreaterThan(0);
    // TWSE's listed companies (the OTC ones' conduct comes from the replay's TPEx answers).
    for (const t of twse.map((c) => c['公司代號']!.trim())) {
      const flags = canonical(t).flags as { id: string; source_id: string }[];
      expect(
        flags.some((f) => f.id === 'GF-S01'),
        t,
      ).toBe(breachTickers.has(t));
      expect(
        flags.some((f) => f.id === 'GF-S02'),
        t,
      ).toBe(sanctionTickers.has(t));
    }
    expect(canonical('1727').flags.find((f: { id: string }) => f.id === 'GF-S01').source_id).toBe('SRC-TWSE-DISCLOSURE-BREACHES');
  });
});

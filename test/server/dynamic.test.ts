import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CSV_COLUMNS } from '../../src/views/ranking-csv.js';
import { batchResponseSchema } from '../../src/contract/batch.js';
import { errorBodySchema } from '../../src/contract/common.js';
import { currentSnapshotDir } from '../../src/snapshot/published.js';
import { SnapshotStore, type CompanyRecord } from '../../src/snapshot/store.js';
import { fileForUrlPath } from '../../src/site/static-paths.js';
import { getJson, startServer, type RunningServer } from '../helpers/server.js';
import { parseCsv } from '../helpers/csv-parse.js';

/**
 * The shim's computed endpoints (contract 4.1, 4.2, 4.4–4.6), over real HTTP against a published
 * 1,800-company demo snapshot. Ground truth comes from the snapshot store, opened read-only, and
 * from the static tree the same build rendered.
 */
const API = '/api/v1';
const SECTIONS = ['penalties', 'carbon_disclosure', 'carbon_fee', 'assurance', 'flags'] as const;
const ALWAYS = ['ok', 'generated_at', 'methodology_version', 'dataset_snapshot_id', 'data_asof', 'disclaimer', 'ticker', 'company_name_norm', 'as_of'];
const ENVELOPE = ['ok', 'generated_at', 'methodology_version', 'dataset_snapshot_id', 'data_asof'] as const;
const META_KEYS = ['total', 'page', 'per_page', 'page_count', 'has_prev', 'has_next', 'methodology_version'];

let server: RunningServer;
let store: SnapshotStore;
let treeDir: string;
let companies: CompanyRecord[];
let flagsOf: Map<string, Set<string>>;
let globalRank: Map<string, number>;

beforeAll(async () => {
  const snapshotsDir = inject('demoSnapshotsDir');
  server = await startServer(snapshotsDir);
  store = SnapshotStore.open(currentSnapshotDir(snapshotsDir)!);
  treeDir = join(store.dir, 'tree');
  companies = [...store.companies()];
  flagsOf = new Map(companies.map((c) => [c.ticker, new Set<string>()]));
  for (const { ticker, flag_id } of store.db.prepare('SELECT ticker, flag_id FROM flags').all() as { ticker: string; flag_id: string }[]) {
    flagsOf.get(ticker)!.add(flag_id);
  }
  // Competition ranking over the whole universe (contract 3.1), computed independently of the store.
  const scores = companies.map((c) => c.credibility_score);
  globalRank = new Map(companies.map((c) => [c.ticker, 1 + scores.filter((s) => s > c.credibility_score).length]));
});
afterAll(async () => {
  store?.close();
  await server?.close();
});

// ---------------------------------------------------------------------------------------------
// Helpers

type Res = Awaited<ReturnType<typeof getJson>>;

const api = (path: string, init?: RequestInit): Promise<Res> => getJson(server.base + API + path, init);

function qs(params: Record<string, string | number>): string {
  return new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
}

function staticText(path: string): string {
  return readFileSync(join(treeDir, fileForUrlPath(API + path)), 'utf8');
}

/** The error envelope of contract 2, with the headers of contract 1. Returns the message. */
function expectError(res: Res, status: number, code: string, ...mentions: string[]): string {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(res.headers.get('cache-control')).toBe('no-store');
  const parsed = errorBodySchema.safeParse(res.body);
  expect(parsed.success, res.text).toBe(true);
  expect(res.body.error.code).toBe(code);
  expect(res.body.error.request_id).toBe(res.headers.get('x-request-id'));
  expect(res.body).toMatchObject({ methodology_version: store.meta.methodology_version, dataset_snapshot_id: store.meta.dataset_snapshot_id, data_asof: store.meta.data_asof });
  for (const m of mentions) expect(res.body.error.message, `message should mention ${m}`).toContain(m);
  return res.body.error.message as string;
}

function expectBadParam(res: Res, param: string): void {
  const message = expectError(res, 400, 'BAD_REQUEST');
  expect(message, `400 message should name the parameter "${param}"`).toMatch(new RegExp(`\\b${param}\\b`));
}

function expectSuccessEnvelope(res: Res): void {
  expect(res.status, res.text).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(res.body).toMatchObject({
    ok: true,
    generated_at: store.meta.published_at,
    methodology_version: store.meta.methodology_version,
    dataset_snapshot_id: store.meta.dataset_snapshot_id,
    data_asof: store.meta.data_asof,
  });
}

interface Filter {
  industry?: string;
  assurance_level?: string;
  market_type?: string;
  gf?: string;
  q?: string;
}
type Sort = 'score_desc' | 'score_asc';

const byTicker = (a: CompanyRecord, b: CompanyRecord) => (a.ticker < b.ticker ? -1 : a.ticker > b.ticker ? 1 : 0);

/** The matching companies in contract order, computed in JS from the store's full list. */
function expected(f: Filter, sort: Sort = 'score_desc'): CompanyRecord[] {
  const q = f.q?.toLowerCase();
  return companies
    .filter((c) => f.industry === undefined || c.industry === f.industry)
    .filter((c) => f.assurance_level === undefined || c.assurance_level === f.assurance_level)
    .filter((c) => f.market_type === undefined || c.market_type === f.market_type)
    .filter((c) => f.gf === undefined || flagsOf.get(c.ticker)!.has(f.gf.toUpperCase()))
    .filter((c) => q === undefined || [c.ticker, c.company_name, c.company_name_norm].some((s) => s.toLowerCase().includes(q)))
    .sort((a, b) => (sort === 'score_desc' ? b.credibility_score - a.credibility_score : a.credibility_score - b.credibility_score) || byTicker(a, b));
}

function expectRankingMeta(meta: any, total: number, page: number, perPage: number): void {
  const pageCount = total === 0 ? 0 : Math.ceil(total / perPage);
  expect(Object.keys(meta).sort()).toEqual([...META_KEYS].sort());
  expect(meta).toEqual({
    total,
    page,
    per_page: perPage,
    page_count: pageCount,
    has_prev: page > 1,
    has_next: page < pageCount,
    methodology_version: store.meta.methodology_version,
  });
}

/** Pages through a ranking query with limit=200, checking every page's meta; returns all entries. */
async function fetchAll(params: Record<string, string>, expectedTotal: number): Promise<any[]> {
  const entries: any[] = [];
  for (let page = 1; ; page++) {
    const res = await api(`/ranking?${qs({ ...params, limit: 200, page })}`);
    expectSuccessEnvelope(res);
    expectRankingMeta(res.body.meta, expectedTotal, page, 200);
    entries.push(...res.body.data);
    if (page >= res.body.meta.page_count) break;
  }
  return entries;
}

/** Asserts the query returns exactly `expected(filter, sort)`, with global ranks. */
async function expectExactly(params: Record<string, string>, filter: Filter, sort: Sort = 'score_desc'): Promise<CompanyRecord[]> {
  const want = expected(filter, sort);
  const got = await fetchAll(params, want.length);
  expect(got.map((e) => e.ticker)).toEqual(want.map((c) => c.ticker));
  for (const e of got) {
    expect(Object.keys(e).sort()).toEqual(['company_name', 'credibility_score', 'rank', 'ticker', 'verdict']);
    expect(e.rank).toBe(store.company(e.ticker)!.rank);
    expect(e.rank).toBe(globalRank.get(e.ticker));
  }
  // Spot-check ranks against GET /company/{t}: filters never renumber them.
  for (const e of [got[0], got[got.length - 1], got[Math.floor(got.length / 2)]].filter(Boolean)) {
    const res = await api(`/company/${e.ticker}`);
    expect(res.body.company.rank).toBe(e.rank);
    expect(res.body.company.credibility_score).toBe(e.credibility_score);
  }
  return want;
}


// ---------------------------------------------------------------------------------------------

describe('GET /company/{ticker}/canonical?fields=', () => {
  const sample = () => {
    const withPenalties = store.db.prepare('SELECT ticker FROM penalties GROUP BY ticker ORDER BY COUNT(*) DESC LIMIT 1').pluck().get() as string;
    const bare = store.db
      .prepare('SELECT ticker FROM companies WHERE ticker NOT IN (SELECT ticker FROM carbon_disclosures) AND ticker NOT IN (SELECT ticker FROM assurances) ORDER BY ticker LIMIT 1')
      .pluck()
      .get() as string;
    return [companies[0]!.ticker, withPenalties, bare];
  };

  it('returns only the named section, plus the fields that are always there', async () => {
    for (const t of sample()) {
      const full = JSON.parse(staticText(`/company/${t}/canonical`));
      for (const section of SECTIONS) {
        const res = await api(`/company/${t}/canonical?fields=${section}`);
        expectSuccessEnvelope(res);
        expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
        expect(res.headers.get('etag')).toMatch(/^"[^"]+"$/);
        expect(Object.keys(res.body).sort(), `${t} ${section}`).toEqual([...ALWAYS, section].sort());
        const want = Object.fromEntries([...ALWAYS, section].map((k) => [k, full[k]]));
        expect(res.body).toEqual(want);
      }
    }
  });

  it('takes carbon as an alias of carbon_disclosure', async () => {
    const t = sample()[1]!;
    const alias = await api(`/company/${t}/canonical?fields=carbon`);
    const name = await api(`/company/${t}/canonical?fields=carbon_disclosure`);
    expectSuccessEnvelope(alias);
    expect(alias.text).toBe(name.text);
    expect(Object.keys(alias.body)).toContain('carbon_disclosure');
    expect(Object.keys(alias.body)).not.toContain('carbon');
  });

  it('is case-insensitive, ignores whitespace and duplicates', async () => {
    const t = 'D1101';
    const want = (await api(`/company/${t}/canonical?fields=flags,carbon_disclosure`)).text;
    for (const fields of [' Flags , CARBON ', 'FLAGS,carbon', 'flags,flags,carbon,carbon_disclosure,Carbon', ' carbon_DISCLOSURE,\tflags ', 'flags,,carbon']) {
      const res = await api(`/company/${t}/canonical?${qs({ fields })}`);
      expectSuccessEnvelope(res);
      expect(res.text, JSON.stringify(fields)).toBe(want);
    }
    // Lower-case ticker in the path is the same resource.
    expect((await api(`/company/d1101/canonical?fields=${encodeURIComponent(' Flags , CARBON ')}`)).text).toBe(want);
  });

  it('naming all five sections gives the static canonical file, byte for byte', async () => {
    for (const t of sample()) {
      const file = staticText(`/company/${t}/canonical`);
      for (const fields of ['penalties,carbon,carbon_fee,assurance,flags', 'flags,assurance,carbon_fee,carbon_disclosure,penalties', 'PENALTIES, Carbon ,carbon_fee,assurance,flags,flags']) {
        const res = await api(`/company/${t}/canonical?${qs({ fields })}`);
        expect(res.status).toBe(200);
        expect(res.text, `${t} ${fields}`).toBe(file);
      }
    }
  });

  it('400 for an unknown section name, listing the accepted names', async () => {
    for (const fields of ['scores', 'flags,nope', 'carbon-disclosure', 'penalty']) {
      const res = await api(`/company/D1101/canonical?${qs({ fields })}`);
      expectBadParam(res, 'fields');
      for (const name of ['penalties', 'carbon', 'carbon_disclosure', 'carbon_fee', 'assurance', 'flags']) expect(res.body.error.message).toContain(name);
    }
  });

  it('400 for an empty list', async () => {
    for (const q of ['fields=', 'fields=,,', 'fields=%20', 'fields=%20,%20,']) {
      const res = await api(`/company/D1101/canonical?${q}`);
      expectBadParam(res, 'fields');
      expect(res.body.error.message).toContain('carbon_fee');
    }
  });

  it('400 for an unknown or repeated parameter, naming it', async () => {
    expectBadParam(await api('/company/D1101/canonical?fields=flags&section=penalties'), 'section');
    expectBadParam(await api('/company/D1101/canonical?include=flags'), 'include');
    expectBadParam(await api('/company/D1101/canonical?fields=flags&fields=penalties'), 'fields');
    expectBadParam(await api('/company/D1101/canonical?fields=flags&fields=flags'), 'fields');
  });

  it('404 naming an unknown ticker upper-cased; 400 for a malformed one', async () => {
    expectError(await api('/company/d9999/canonical?fields=flags'), 404, 'NOT_FOUND', 'D9999');
    expectError(await api('/company/zz12/canonical.json?fields=penalties'), 404, 'NOT_FOUND', 'ZZ12');
    for (const bad of ['D-1101', 'D1101D1101D11', '%E7%A4%BA']) {
      const res = await api(`/company/${bad}/canonical?fields=flags`);
      expectError(res, 400, 'BAD_REQUEST');
      expect(res.body.error.message).toMatch(/1 to 12 letters or digits/);
    }
  });
});

describe('GET /ranking?…', () => {
  it('defaults: limit 50, page 1, score_desc, compact, json — the static ranking body', async () => {
    const res = await api('/ranking?sort=score_desc');
    expectSuccessEnvelope(res);
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    expectRankingMeta(res.body.meta, companies.length, 1, 50);
    expect(res.body.data.map((e: any) => e.ticker)).toEqual(expected({}).slice(0, 50).map((c) => c.ticker));
    for (const e of res.body.data) expect(Object.keys(e).sort()).toEqual(['company_name', 'credibility_score', 'rank', 'ticker', 'verdict']);
    const file = staticText('/ranking');
    expect(res.text).toBe(file);
    for (const q of ['limit=50', 'page=1', 'mode=compact', 'format=json', 'limit=50&page=1&sort=score_desc&mode=compact&format=json']) {
      expect((await api(`/ranking?${q}`)).text, q).toBe(file);
    }
  });

  it('limit: 1 and 200 are accepted', async () => {
    for (const limit of [1, 200]) {
      const res = await api(`/ranking?limit=${limit}`);
      expectSuccessEnvelope(res);
      expect(res.body.data).toHaveLength(limit);
      expectRankingMeta(res.body.meta, companies.length, 1, limit);
      expect(res.body.data.map((e: any) => e.ticker)).toEqual(expected({}).slice(0, limit).map((c) => c.ticker));
    }
  });

  it('limit: 0, 201, -1, 1.5, abc, empty, 1e2, 0x10, ５ are 400 naming limit', async () => {
    for (const v of ['0', '201', '-1', '1.5', 'abc', '', '1e2', '0x10', '５', '+5x', '9999999999']) {
      expectBadParam(await api(`/ranking?${qs({ limit: v })}`), 'limit');
    }
  });

  it('limit: a value with surrounding spaces is trimmed (strings are trimmed, contract 1.2)', async () => {
    for (const raw of ['%205', '5%20', '+5+']) {
      const res = await api(`/ranking?limit=${raw}`);
      expectSuccessEnvelope(res);
      expect(res.body.meta.per_page).toBe(5);
      expect(res.body.data).toHaveLength(5);
    }
  });

  it('page: 0 and non-digits are 400; past the end is 200 with empty data', async () => {
    for (const v of ['0', '-1', '1.0', 'two', '']) expectBadParam(await api(`/ranking?${qs({ page: v })}`), 'page');
    const res = await api('/ranking?page=10&limit=200');
    expectSuccessEnvelope(res);
    expect(res.body.data).toEqual([]);
    expectRankingMeta(res.body.meta, companies.length, 10, 200);
    expect(res.body.meta.has_prev).toBe(true);
    expect(res.body.meta.has_next).toBe(false);
    const far = await api('/ranking?page=99999');
    expectSuccessEnvelope(far);
    expect(far.body.data).toEqual([]);
    expectRankingMeta(far.body.meta, companies.length, 99999, 50);
    // The last page holds the remainder.
    const last = Math.ceil(companies.length / 200);
    const lastRes = await api(`/ranking?page=${last}&limit=200`);
    expect(lastRes.body.data).toHaveLength(companies.length - (last - 1) * 200);
    expect(lastRes.body.meta.has_next).toBe(false);
  });

  it('sort: score_desc and score_asc order by score then ticker ascending; anything else is 400', async () => {
    await expectExactly({ sort: 'score_desc' }, {}, 'score_desc');
    const asc = await expectExactly({ sort: 'score_asc' }, {}, 'score_asc');
    // Sanity of the ground truth: ties are broken by ascending ticker in both orders.
    for (let i = 1; i < asc.length; i++) {
      const [a, b] = [asc[i - 1]!, asc[i]!];
      expect(a.credibility_score < b.credibility_score || (a.credibility_score === b.credibility_score && a.ticker < b.ticker)).toBe(true);
    }
    for (const v of ['score', 'asc', 'rank', '', 'score_desc,score_asc']) expectBadParam(await api(`/ranking?${qs({ sort: v })}`), 'sort');
  });

  it('industry: exact match; an industry not in the snapshot is 200 empty; empty is 400', async () => {
    const industries = [...new Set(companies.map((c) => c.industry))].sort();
    expect(industries.length).toBeGreaterThan(5);
    for (const industry of ['半導體業', '水泥工業', industries[0]!, industries[industries.length - 1]!]) {
      const want = await expectExactly({ industry }, { industry });
      expect(want.length, industry).toBeGreaterThan(0);
    }
    // Exact, not substring: 電子 is part of several names but is not itself an industry.
    for (const industry of ['電子', '半導體', '半導體業X', 'Semiconductors']) {
      const res = await api(`/ranking?${qs({ industry })}`);
      expectSuccessEnvelope(res);
      expect(res.body.data).toEqual([]);
      expectRankingMeta(res.body.meta, 0, 1, 50);
    }
    // Whitespace around the value is trimmed.
    const trimmed = await api(`/ranking?${qs({ industry: ' 水泥工業 ' })}`);
    expect(trimmed.body.meta.total).toBe(expected({ industry: '水泥工業' }).length);
    expectBadParam(await api('/ranking?industry='), 'industry');
    expectBadParam(await api('/ranking?industry=%20%20'), 'industry');
  });

  it('assurance_level: none, limited, reasonable; anything else is 400', async () => {
    for (const level of ['none', 'limited', 'reasonable']) {
      const want = await expectExactly({ assurance_level: level }, { assurance_level: level });
      expect(want.length).toBeGreaterThan(0);
    }
    for (const v of ['full', 'NONE', '', 'limited,reasonable']) expectBadParam(await api(`/ranking?${qs({ assurance_level: v })}`), 'assurance_level');
  });

  it('market_type: listed, otc; anything else is 400', async () => {
    for (const market_type of ['listed', 'otc']) {
      const want = await expectExactly({ market_type }, { market_type });
      expect(want.length).toBeGreaterThan(0);
    }
    for (const v of ['twse', 'tpex', 'LISTED', '']) expectBadParam(await api(`/ranking?${qs({ market_type: v })}`), 'market_type');
  });

  it('gf: each flag id gives exactly the companies carrying it', async () => {
    for (const gf of ['GF-F01', 'GF-P02', 'GF-A01', 'GF-P01', 'GF-D01', 'GF-C01', 'GF-V01', 'GF-D02']) {
      const want = await expectExactly({ gf }, { gf });
      expect(want.length, gf).toBeGreaterThan(0);
    }
  });

  it('gf: an unknown but well-formed flag id is 200 empty; GF- alone and other shapes are 400', async () => {
    for (const gf of ['GF-ZZ9', 'GF-X', 'GF-P011']) {
      const res = await api(`/ranking?${qs({ gf })}`);
      expectSuccessEnvelope(res);
      expect(res.body.data).toEqual([]);
      expectRankingMeta(res.body.meta, 0, 1, 50);
    }
    for (const v of ['GF-', 'XX-1', 'GF', 'GF_P01', 'GF-P-01', 'GF-P01,GF-A01', '', 'GF-P01 OR 1=1']) expectBadParam(await api(`/ranking?${qs({ gf: v })}`), 'gf');
  });

  it('gf: is case-insensitive (gf-p01, Gf-P01, GF-p01 are GF-P01)', async () => {
    for (const gf of ['GF-p01', 'gf-p01', 'Gf-P01', 'gF-p01']) {
      await expectExactly({ gf }, { gf: 'GF-P01' });
    }
  });

  it('q: ticker substrings of up to 3 characters, case-insensitive', async () => {
    for (const q of ['d1', 'D2', 'd11', 'D29', '9', '00']) {
      const want = await expectExactly({ q }, { q });
      expect(want.length, q).toBeGreaterThan(0);
    }
    // Trimmed like every string.
    const res = await api(`/ranking?${qs({ q: ' d29 ' })}`);
    expect(res.body.meta.total).toBe(expected({ q: 'd29' }).length);
    // Matches nothing: 200 empty.
    const none = await api(`/ranking?${qs({ q: 'zq' })}`);
    expectSuccessEnvelope(none);
    expectRankingMeta(none.body.meta, 0, 1, 50);
  });

  it('q: Chinese name substrings of 1, 2 and 3 characters from real company names', async () => {
    const names = [companies[0]!, companies[900]!, companies[companies.length - 1]!].map((c) => c.company_name);
    for (const name of names) {
      for (const q of [name.slice(2, 3), name.slice(2, 4), name.slice(-2), name.slice(2, 5), name.slice(-3)]) {
        const want = await expectExactly({ q }, { q });
        expect(want.length, q).toBeGreaterThan(0);
      }
    }
  });

  it('q: substrings found only in company_name_norm (有限, 份有限)', async () => {
    for (const q of ['有限', '份有限', '公司']) {
      const want = await expectExactly({ q }, { q });
      expect(want.some((c) => !c.company_name.includes(q)), q).toBe(true);
    }
  });

  it('q: substrings of 4 or more characters (d110, 股份有限, a whole company name)', async () => {
    const c = companies[42]!;
    for (const q of ['d110', 'D1101', '股份有限', '股份有限公司', c.company_name, c.company_name_norm, c.company_name.slice(1, 5)]) {
      const res = await api(`/ranking?${qs({ q, limit: 200 })}`);
      expect(res.status, `q=${q}: ${res.text.slice(0, 200)}`).toBe(200);
      await expectExactly({ q }, { q });
    }
  });

  it('q: 101 characters is 400 naming q', async () => {
    expectBadParam(await api(`/ranking?${qs({ q: 'a'.repeat(101) })}`), 'q');
    expectBadParam(await api(`/ranking?${qs({ q: '示'.repeat(101) })}`), 'q');
  });

  it('q: 100 characters is accepted', async () => {
    for (const q of ['a'.repeat(100), '示'.repeat(100)]) {
      const res = await api(`/ranking?${qs({ q })}`);
      expect(res.status, res.text.slice(0, 200)).toBe(200);
      expectRankingMeta(res.body.meta, 0, 1, 50);
    }
  });

  it('mode: compact entries have exactly the five fields; full entries are the company summary', async () => {
    const compact = await api('/ranking?mode=compact&limit=10&industry=%E6%B0%B4%E6%B3%A5%E5%B7%A5%E6%A5%AD');
    expectSuccessEnvelope(compact);
    for (const e of compact.body.data) expect(Object.keys(e).sort()).toEqual(['company_name', 'credibility_score', 'rank', 'ticker', 'verdict']);
    const cases: Record<string, string>[] = [{ mode: 'full', limit: '25' }, { mode: 'full', limit: '10', sort: 'score_asc', gf: 'GF-P02' }];
    for (const params of cases) {
      const full = await api(`/ranking?${qs(params)}`);
      expectSuccessEnvelope(full);
      expect(full.body.data.length).toBeGreaterThan(0);
      for (const e of full.body.data) {
        const company = await api(`/company/${e.ticker}`);
        expect(e).toEqual(company.body.company);
      }
      // Same order and meta as compact.
      const same = await api(`/ranking?${qs({ ...params, mode: 'compact' })}`);
      expect(full.body.data.map((e: any) => e.ticker)).toEqual(same.body.data.map((e: any) => e.ticker));
      expect(full.body.meta).toEqual(same.body.meta);
    }
    for (const v of ['FULL', 'brief', '']) expectBadParam(await api(`/ranking?${qs({ mode: v })}`), 'mode');
  });

  it('format: json and csv; anything else is 400', async () => {
    expect((await api('/ranking?format=json')).status).toBe(200);
    const csv = await fetch(`${server.base}${API}/ranking?format=csv&industry=${encodeURIComponent('水泥工業')}`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    await csv.text();
    for (const v of ['xml', 'CSV', '', 'json,csv']) expectBadParam(await api(`/ranking?${qs({ format: v })}`), 'format');
  });

  it('unknown and repeated parameters are 400 naming the parameter', async () => {
    expectBadParam(await api('/ranking?per_page=10'), 'per_page');
    expectBadParam(await api('/ranking?offset=10'), 'offset');
    expectBadParam(await api('/ranking?limit=10&page=2&sortby=score'), 'sortby');
    expectBadParam(await api('/ranking?page=1&page=2'), 'page');
    expectBadParam(await api('/ranking?limit=10&limit=10'), 'limit');
    expectBadParam(await api('/ranking?gf=GF-P01&gf=GF-A01'), 'gf');
    expectBadParam(await api('/ranking?q=a&q=b'), 'q');
  });
});

describe('GET /ranking filters return exactly the matching set', () => {
  it('industry + assurance_level', async () => {
    for (const [industry, assurance_level] of [['半導體業', 'limited'], ['電子零組件業', 'none'], ['鋼鐵工業', 'reasonable'], ['生技醫療', 'reasonable']] as const) {
      await expectExactly({ industry, assurance_level }, { industry, assurance_level });
    }
  });

  it('market_type + gf', async () => {
    for (const [market_type, gf] of [['listed', 'GF-A01'], ['otc', 'GF-D02'], ['otc', 'GF-P01'], ['listed', 'GF-F01']] as const) {
      await expectExactly({ market_type, gf }, { market_type, gf });
    }
  });

  it('q + sort=score_asc', async () => {
    for (const q of ['示範', 'd2', '晶', '虛構']) {
      await expectExactly({ q, sort: 'score_asc' }, { q }, 'score_asc');
    }
  });

  it('every filter at once, and a combination that matches nothing', async () => {
    const f = { industry: '半導體業', assurance_level: 'limited', market_type: 'listed', gf: 'GF-D02', q: 'd1' };
    await expectExactly({ ...f, sort: 'score_asc' }, f, 'score_asc');
    await expectExactly(f, f, 'score_desc');
    const none = { industry: '水泥工業', gf: 'GF-ZZ1' };
    expect(await expectExactly(none, none)).toEqual([]);
  });
});

describe('GET /ranking?page=N equals the static page file', () => {
  it('byte for byte for N = 1, 2 and the last page', async () => {
    const last = Math.ceil(companies.length / 50);
    for (const n of [1, 2, last]) {
      const res = await api(`/ranking?page=${n}`);
      expect(res.status).toBe(200);
      expect(res.text, `page ${n}`).toBe(readFileSync(join(treeDir, 'api/v1/ranking/page', `${n}.json`), 'utf8'));
      expect(res.headers.get('etag')).toBe((await api(`/ranking/page/${n}`)).headers.get('etag'));
    }
  });
});

describe('GET /ranking?format=csv', () => {
  async function csvOf(params: Record<string, string>) {
    const res = await fetch(`${server.base}${API}/ranking?${qs({ ...params, format: 'csv' })}`);
    const text = await res.text();
    return { res, text, rows: parseCsv(text) };
  }

  it('sets the CSV headers and has the mode=full columns as its header row', async () => {
    const { res, rows } = await csvOf({});
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="ranking-${store.meta.dataset_snapshot_id}.csv"`);
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(rows[0]).toEqual([...CSV_COLUMNS]);
    const full = await api('/ranking?mode=full&limit=1');
    expect(rows[0]).toEqual(Object.keys(full.body.data[0]));
    for (const r of rows) expect(r).toHaveLength(CSV_COLUMNS.length);
  });

  it('has one data row per matching company (meta.total of the JSON query), in order, page/limit ignored', async () => {
    const cases: (Filter & { sort?: Sort })[] = [{}, { industry: '半導體業' }, { gf: 'GF-P01', sort: 'score_asc' }, { assurance_level: 'reasonable', market_type: 'otc' }, { q: '晶' }, { industry: '水泥工業', gf: 'GF-ZZ9' }];
    for (const c of cases) {
      const params = c as Record<string, string>;
      const json = await api(`/ranking?${qs(params)}`);
      const { text, rows } = await csvOf(params);
      expect(rows.length - 1, JSON.stringify(params)).toBe(json.body.meta.total);
      const want = expected(c, c.sort ?? 'score_desc');
      expect(rows.slice(1).map((r) => r[0])).toEqual(want.map((c) => c.ticker));
      // page and limit are ignored.
      const paged = await csvOf({ ...params, page: '3', limit: '1' });
      expect(paged.text).toBe(text);
    }
  });

  it('cells are the mode=full values; arrays are joined with |', async () => {
    const params = { gf: 'GF-P02' };
    const full = await fetchAllFull(params);
    const { rows } = await csvOf(params);
    const header = rows[0]!;
    expect(rows.length - 1).toBe(full.length);
    full.forEach((entry, i) => {
      const row = Object.fromEntries(header.map((k, j) => [k, rows[i + 1]![j]!]));
      for (const k of header) {
        const v = entry[k];
        if (k === 'score_breakdown') {
          const parts = row[k]!.split('|');
          expect(parts).toHaveLength(v.length);
          parts.forEach((p: string, j: number) => {
            expect(p).toContain(v[j].component);
            expect(p).toContain(String(v[j].points));
          });
        } else if (Array.isArray(v)) expect(row[k], k).toBe(v.join('|'));
        else expect(row[k], k).toBe(String(v));
      }
    });
    // The citation has commas, so it is a quoted field, and still parses back to the same text.
    expect(full[0].citation).toContain(',');
  });

  it('has a strong ETag and answers If-None-Match with 304', async () => {
    const { res } = await csvOf({ industry: '水泥工業' });
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await fetch(`${server.base}${API}/ranking?${qs({ industry: '水泥工業', format: 'csv' })}`, { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const other = await csvOf({ industry: '鋼鐵工業' });
    expect(other.res.headers.get('etag')).not.toBe(etag);
  });

  async function fetchAllFull(params: Record<string, string>): Promise<any[]> {
    const out: any[] = [];
    for (let page = 1; ; page++) {
      const res = await api(`/ranking?${qs({ ...params, mode: 'full', limit: 200, page })}`);
      out.push(...res.body.data);
      if (page >= res.body.meta.page_count) break;
    }
    return out;
  }
});

describe('GET /compare', () => {
  async function companyOf(t: string) {
    return (await api(`/company/${t}`)).body.company;
  }
  function canonicalElement(t: string, sections?: readonly string[]) {
    const view = JSON.parse(staticText(`/company/${t}/canonical`));
    for (const k of ENVELOPE) delete view[k];
    if (sections) for (const s of SECTIONS) if (!sections.includes(s)) delete view[s];
    return view;
  }

  it('2 and 5 tickers: one element per ticker in request order, canonical view plus company', async () => {
    for (const tickers of [['D1102', 'D1101'], ['D2900', 'd1595', 'D1143', 'D1101', 'D2150']]) {
      const res = await api(`/compare?tickers=${tickers.join(',')}`);
      expectSuccessEnvelope(res);
      expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
      expect(Object.keys(res.body).sort()).toEqual([...ENVELOPE, 'data'].sort());
      expect(res.body.data.map((e: any) => e.ticker)).toEqual(tickers.map((t) => t.toUpperCase()));
      for (const [i, t] of tickers.entries()) {
        const up = t.toUpperCase();
        expect(res.body.data[i]).toEqual({ ...canonicalElement(up), company: await companyOf(up) });
      }
    }
  });

  it('removes duplicates (case-insensitive), keeping first-occurrence order; whitespace around codes is ignored', async () => {
    const res = await api('/compare?tickers=D1102,d1101,D1101,d1102');
    expectSuccessEnvelope(res);
    expect(res.body.data.map((e: any) => e.ticker)).toEqual(['D1102', 'D1101']);
    const res2 = await api('/compare?tickers=D1101,d1101,D1102');
    expect(res2.body.data).toHaveLength(2);
    // Six codes that are five distinct: fine.
    const res3 = await api('/compare?tickers=D1101,D1102,D1103,D1104,D1105,d1103');
    expectSuccessEnvelope(res3);
    expect(res3.body.data).toHaveLength(5);
    const spaced = await api(`/compare?${qs({ tickers: ' D1101 , D1102 ' })}`);
    expectSuccessEnvelope(spaced);
    expect(spaced.body.data.map((e: any) => e.ticker)).toEqual(['D1101', 'D1102']);
  });

  it('400 for 1 or 6 distinct tickers, or none', async () => {
    expectBadParam(await api('/compare?tickers=D1101'), 'tickers');
    expectBadParam(await api('/compare?tickers=D1101,d1101'), 'tickers');
    expectBadParam(await api('/compare?tickers=D1101,D1102,D1103,D1104,D1105,D1106'), 'tickers');
    expectBadParam(await api('/compare'), 'tickers');
    expectBadParam(await api('/compare?fields=flags'), 'tickers');
  });

  it('400 for a malformed code inside tickers, saying what a code looks like', async () => {
    for (const tickers of ['D1101,D-1102', 'D1101,', 'D1101,,D1102', 'D1101;D1102', 'D1101,ABCDEFGHIJKLM', 'D1101,示範']) {
      const res = await api(`/compare?${qs({ tickers })}`);
      expectError(res, 400, 'BAD_REQUEST');
      expect(res.body.error.message, tickers).toMatch(/1 to 12 letters or digits/);
    }
  });

  it('404 naming every unknown code, upper-cased', async () => {
    const one = await api('/compare?tickers=D1101,d9999');
    expectError(one, 404, 'NOT_FOUND', 'D9999');
    const many = await api('/compare?tickers=zz1,D1101,d9998,X9');
    const message = expectError(many, 404, 'NOT_FOUND', 'ZZ1', 'D9998', 'X9');
    expect(message).not.toContain('D1101');
    const all = await api('/compare?tickers=q1,q2,q3,q4,q5');
    expectError(all, 404, 'NOT_FOUND', 'Q1', 'Q2', 'Q3', 'Q4', 'Q5');
  });

  it('fields filters each element as in canonical', async () => {
    const res = await api(`/compare?${qs({ tickers: 'D1595,D1143,D1101', fields: ' Flags , CARBON ' })}`);
    expectSuccessEnvelope(res);
    for (const [i, t] of ['D1595', 'D1143', 'D1101'].entries()) {
      const el = res.body.data[i];
      expect(Object.keys(el).sort()).toEqual(['as_of', 'carbon_disclosure', 'company', 'company_name_norm', 'disclaimer', 'flags', 'ticker']);
      expect(el).toEqual({ ...canonicalElement(t, ['flags', 'carbon_disclosure']), company: await companyOf(t) });
    }
    const five = await api(`/compare?${qs({ tickers: 'D1101,D1102', fields: 'penalties,carbon,carbon_fee,assurance,flags' })}`);
    expect(five.text).toBe((await api('/compare?tickers=D1101,D1102')).text);
    expectBadParam(await api('/compare?tickers=D1101,D1102&fields=nope'), 'fields');
    expectBadParam(await api('/compare?tickers=D1101,D1102&fields='), 'fields');
    expectBadParam(await api('/compare?tickers=D1101,D1102&fields=,'), 'fields');
  });

  it('400 for unknown or repeated parameters, naming them', async () => {
    expectBadParam(await api('/compare?tickers=D1101,D1102&ticker=D1103'), 'ticker');
    expectBadParam(await api('/compare?tickers=D1101,D1102&mode=full'), 'mode');
    expectBadParam(await api('/compare?tickers=D1101&tickers=D1102'), 'tickers');
    expectBadParam(await api('/compare?tickers=D1101,D1102&fields=flags&fields=flags'), 'fields');
  });
});

describe('GET /sources/registry?…', () => {
  const sorted = (data: any[]) => data.map((s) => s.source_id);

  it('gov_only=false and no parameters equal the static file; gov_only=true keeps government sources only', async () => {
    const file = staticText('/sources/registry');
    expect((await api('/sources/registry?gov_only=false')).text).toBe(file);
    const gov = await api('/sources/registry?gov_only=true');
    expectSuccessEnvelope(gov);
    const want = store.sources().filter((s) => s.is_government);
    expect(want.length).toBeGreaterThan(0);
    expect(sorted(gov.body.data)).toEqual(want.map((s) => s.source_id));
    expect(gov.body.meta).toEqual({ total: want.length });
    for (const s of gov.body.data) {
      expect(s.is_government).toBe(true);
      expect(s.owner_org).toBe('MOENV');
    }
    // Each entry is the same as in the static file.
    const all = JSON.parse(file).data as any[];
    for (const s of gov.body.data) expect(s).toEqual(all.find((x) => x.source_id === s.source_id));
  });

  it('owner_org is a case-insensitive exact match; an unknown org is 200 empty', async () => {
    for (const org of ['moenv', 'MOENV', 'TWSE', 'twse', 'TpEx', ' mops ']) {
      const res = await api(`/sources/registry?${qs({ owner_org: org })}`);
      expectSuccessEnvelope(res);
      const want = store.sources().filter((s) => s.owner_org.toUpperCase() === org.trim().toUpperCase());
      expect(want.length, org).toBeGreaterThan(0);
      expect(sorted(res.body.data)).toEqual(want.map((s) => s.source_id));
      expect(res.body.meta).toEqual({ total: want.length });
    }
    for (const org of ['NOPE', 'MOE', 'TWSEX', 'FSC']) {
      const res = await api(`/sources/registry?${qs({ owner_org: org })}`);
      expectSuccessEnvelope(res);
      expect(res.body.data).toEqual([]);
      expect(res.body.meta).toEqual({ total: 0 });
    }
    const both = await api('/sources/registry?gov_only=true&owner_org=twse');
    expect(both.body.data).toEqual([]);
    const bothMoenv = await api('/sources/registry?gov_only=true&owner_org=Moenv');
    expect(bothMoenv.body.meta.total).toBe(store.sources().filter((s) => s.is_government && s.owner_org === 'MOENV').length);
  });

  it('400 for a bad gov_only, an unknown or a repeated parameter', async () => {
    for (const v of ['yes', '1', 'TRUE', '']) expectBadParam(await api(`/sources/registry?${qs({ gov_only: v })}`), 'gov_only');
    expectBadParam(await api('/sources/registry?government=true'), 'government');
    expectBadParam(await api('/sources/registry?gov_only=true&gov_only=true'), 'gov_only');
    expectBadParam(await api('/sources/registry?owner_org=TWSE&owner_org=TPEX'), 'owner_org');
  });
});

describe('POST /batch', () => {
  const post = (body: string | Uint8Array<ArrayBuffer>, contentType: string | null = 'application/json', path = '/batch') =>
    api(path, { method: 'POST', body, headers: contentType === null ? {} : { 'Content-Type': contentType } });
  const postJson = (value: unknown) => post(JSON.stringify(value));

  function expectBatchOk(res: Res): void {
    expectSuccessEnvelope(res);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('etag')).toBeNull();
    expect(Object.keys(res.body).sort()).toEqual([...ENVELOPE, 'data', 'meta'].sort());
  }

  it('the spliced body is byte for byte JSON.stringify of the schema-valid BatchResponse', async () => {
    const tickers = [companies[0]!.ticker, 'nope-1', 'Z9', companies[3]!.ticker.toLowerCase(), companies[0]!.ticker];
    const first = await postJson({ tickers });
    const again = await postJson({ tickers }); // second time from cached fragments
    const parsed = batchResponseSchema.parse(first.body);
    expect(first.text).toBe(JSON.stringify(parsed));
    expect(again.text).toBe(first.text);
  });

  it('one code: the company summary', async () => {
    const res = await postJson({ tickers: ['d1101'] });
    expectBatchOk(res);
    const company = (await api('/company/D1101')).body.company;
    expect(res.body.data).toEqual([{ ticker: 'D1101', ok: true, company }]);
    expect(res.body.meta).toEqual({ requested: 1, found: 1, not_found: 0 });
  });

  it('100 codes, in request order', async () => {
    const tickers = companies.slice(0, 100).map((c) => c.ticker).reverse();
    const res = await postJson({ tickers });
    expectBatchOk(res);
    expect(res.body.data.map((d: any) => d.ticker)).toEqual(tickers);
    expect(res.body.data.every((d: any) => d.ok === true)).toBe(true);
    expect(res.body.meta).toEqual({ requested: 100, found: 100, not_found: 0 });
    for (const d of res.body.data.slice(0, 5)) expect(d.company).toEqual((await api(`/company/${d.ticker}`)).body.company);
  });

  it('removes duplicates case-insensitively, keeping first-occurrence order', async () => {
    const res = await postJson({ tickers: ['D1102', 'd1101', 'D1101', 'd1102', 'D1102'] });
    expectBatchOk(res);
    expect(res.body.data.map((d: any) => d.ticker)).toEqual(['D1102', 'D1101']);
    expect(res.body.meta).toEqual({ requested: 2, found: 2, not_found: 0 });
    // 150 items that are 100 distinct codes are fine.
    const hundred = companies.slice(0, 100).map((c) => c.ticker);
    const many = await postJson({ tickers: [...hundred, ...hundred.slice(0, 50).map((t) => t.toLowerCase())] });
    expectBatchOk(many);
    expect(many.body.meta.requested).toBe(100);
  });

  it('reports unknown (NOT_FOUND) and malformed (BAD_REQUEST) codes as items; still 200', async () => {
    const res = await postJson({ tickers: ['D1101', 'd9999', 'D-1', 'D1102', 'ABCDEFGHIJKLM', ''] });
    expectBatchOk(res);
    const [a, b, c, d, e, f] = res.body.data;
    expect(res.body.data).toHaveLength(6);
    expect(a).toMatchObject({ ticker: 'D1101', ok: true });
    expect(b).toEqual({ ticker: 'D9999', ok: false, error: { code: 'NOT_FOUND', message: expect.stringContaining('D9999') } });
    expect(c).toEqual({ ticker: 'D-1', ok: false, error: { code: 'BAD_REQUEST', message: expect.any(String) } });
    expect(d).toMatchObject({ ticker: 'D1102', ok: true });
    expect(e).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    expect(f).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    expect(res.body.meta).toEqual({ requested: 6, found: 2, not_found: 4 });
    const none = await postJson({ tickers: ['zz1', 'ZZ2'] });
    expectBatchOk(none);
    expect(none.body.meta).toEqual({ requested: 2, found: 0, not_found: 2 });
  });

  it('400 for 101 distinct codes, an empty list, missing tickers, extra keys, non-string items', async () => {
    const many = Array.from({ length: 101 }, (_, i) => `X${i}`);
    for (const body of [
      { tickers: many },
      { tickers: [] },
      {},
      { ticker: ['D1101'] },
      { tickers: ['D1101'], fields: 'flags' },
      { tickers: [1] },
      { tickers: ['D1101', null] },
      { tickers: [['D1101']] },
      { tickers: [{ ticker: 'D1101' }] },
      { tickers: 'D1101' },
      { tickers: null },
      { tickers: { 0: 'D1101' } },
    ]) {
      expectError(await postJson(body), 400, 'BAD_REQUEST');
    }
  });

  it('400 for a body that is not an object, or not JSON', async () => {
    for (const raw of ['["D1101"]', '"D1101"', '42', 'null', 'true', '{"tickers": [', '{tickers: ["D1101"]}', "{'tickers': ['D1101']}", 'tickers=D1101', '\u0000', '{"tickers":["D1101"]} x']) {
      expectError(await post(raw), 400, 'BAD_REQUEST');
    }
  });

  it('400 for a wrong or missing Content-Type', async () => {
    const body = JSON.stringify({ tickers: ['D1101'] });
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonp', 'text/json']) {
      expectError(await post(body, type), 400, 'BAD_REQUEST', 'Content-Type');
    }
    expectError(await post(new TextEncoder().encode(body), null), 400, 'BAD_REQUEST', 'Content-Type');
    // Parameters on the right type are fine.
    expectBatchOk(await post(body, 'application/json; charset=utf-8'));
    expectBatchOk(await post(body, 'Application/JSON'));
  });

  it('413 for a body over 64 KiB', async () => {
    const big = JSON.stringify({ tickers: ['D1101', 'x'.repeat(70 * 1024)] });
    expectError(await post(big), 413, 'PAYLOAD_TOO_LARGE');
    const padded = `{"tickers": ["D1101"]${' '.repeat(65 * 1024)}}`;
    expectError(await post(padded), 413, 'PAYLOAD_TOO_LARGE');
  });

  it('405 with Allow for GET, HEAD, PUT and DELETE', async () => {
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH']) {
      const res = await api('/batch', { method });
      expectError(res, 405, 'METHOD_NOT_ALLOWED');
      expect(res.headers.get('allow')).toContain('POST');
      expect(res.headers.get('allow')).not.toContain('GET');
    }
    const head = await fetch(`${server.base}${API}/batch`, { method: 'HEAD' });
    expect(head.status).toBe(405);
    expect(head.headers.get('allow')).toContain('POST');
  });

  it('400 for any query parameter (the endpoint lists none)', async () => {
    const res = await post(JSON.stringify({ tickers: ['D1101'] }), 'application/json', '/batch?mode=full');
    expectBadParam(res, 'mode');
  });
});

describe('every 400 message names the offending parameter', () => {
  it('on every query endpoint', async () => {
    const cases: [string, string][] = [
      ['/company/D1101/canonical?fields=nope', 'fields'],
      ['/company/D1101/canonical?fields=', 'fields'],
      ['/company/D1101/canonical?zzz=1', 'zzz'],
      ['/company/D1101/canonical?fields=flags&fields=flags', 'fields'],
      ['/ranking?limit=0', 'limit'],
      ['/ranking?limit=201', 'limit'],
      ['/ranking?page=0', 'page'],
      ['/ranking?sort=best', 'sort'],
      ['/ranking?industry=', 'industry'],
      ['/ranking?assurance_level=full', 'assurance_level'],
      ['/ranking?market_type=nyse', 'market_type'],
      ['/ranking?gf=XX-1', 'gf'],
      [`/ranking?q=${'x'.repeat(101)}`, 'q'],
      ['/ranking?mode=wide', 'mode'],
      ['/ranking?format=xml', 'format'],
      ['/ranking?foo=bar', 'foo'],
      ['/ranking?mode=full&mode=full', 'mode'],
      ['/compare?tickers=D1101', 'tickers'],
      ['/compare', 'tickers'],
      ['/compare?tickers=D1101,D1102&fields=x', 'fields'],
      ['/compare?tickers=D1101,D1102&bar=1', 'bar'],
      ['/sources/registry?gov_only=yes', 'gov_only'],
      ['/sources/registry?owner_org=', 'owner_org'],
      ['/sources/registry?org=TWSE', 'org'],
      ['/?x=1', 'x'],
      ['/company/D1101?fields=flags', 'fields'],
      ['/methodology?v=1', 'v'],
      ['/etf?page=2', 'page'],
    ];
    for (const [url, param] of cases) {
      const res = await api(url);
      expect(res.status, url).toBe(400);
      expectBadParam(res, param);
    }
  });

  it('on /compare, a malformed code inside tickers', async () => {
    for (const tickers of ['D1101,D-1102', 'D1101,']) {
      expectBadParam(await api(`/compare?${qs({ tickers })}`), 'tickers');
    }
  });
});

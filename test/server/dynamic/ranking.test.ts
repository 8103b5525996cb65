import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  useDynamicServer,
  API,
  server,
  treeDir,
  companies,
  api,
  qs,
  staticText,
  expectBadParam,
  expectSuccessEnvelope,
  expected,
  expectRankingMeta,
  expectExactly,
} from './harness.js';

useDynamicServer();

describe('GET /ranking?…', () => {
  it('defaults: limit 50, page 1, score_desc, compact, json — the static ranking body', async () => {
    const res = await api('/ranking?sort=score_desc');
    expectSuccessEnvelope(res);
    expect(res.headers.get('cache-control')).toBe('private, max-age=3600'); // metered: never from a shared cache
    expectRankingMeta(res.body.meta, companies.length, 1, 50);
    expect(res.body.data.map((e: any) => e.ticker)).toEqual(
      expected({})
        .slice(0, 50)
        .map((c) => c.ticker),
    );
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
      expect(res.body.data.map((e: any) => e.ticker)).toEqual(
        expected({})
          .slice(0, limit)
          .map((c) => c.ticker),
      );
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
    for (const v of ['full', 'NONE', '', 'limited,reasonable'])
      expectBadParam(await api(`/ranking?${qs({ assurance_level: v })}`), 'assurance_level');
  });

  it('market_type: listed, otc; anything else is 400', async () => {
    for (const market_type of ['listed', 'otc']) {
      const want = await expectExactly({ market_type }, { market_type });
      expect(want.length).toBeGreaterThan(0);
    }
    for (const v of ['twse', 'tpex', 'LISTED', '']) expectBadParam(await api(`/ranking?${qs({ market_type: v })}`), 'market_type');
  });

  it('gf: each flag id gives exactly the companies carrying it', async () => {
    for (const gf of ['GF-F01', 'GF-P02', 'GF-A01', 'GF-P01', 'GF-D01', 'GF-C01', 'GF-V01', 'GF-D02', 'GF-S01', 'GF-S02']) {
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
    for (const v of ['GF-', 'XX-1', 'GF', 'GF_P01', 'GF-P-01', 'GF-P01,GF-A01', '', 'GF-P01 OR 1=1'])
      expectBadParam(await api(`/ranking?${qs({ gf: v })}`), 'gf');
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
      expect(
        want.some((c) => !c.company_name.includes(q)),
        q,
      ).toBe(true);
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
    const cases: Record<string, string>[] = [
      { mode: 'full', limit: '25' },
      { mode: 'full', limit: '10', sort: 'score_asc', gf: 'GF-P02' },
    ];
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
    for (const [industry, assurance_level] of [
      ['半導體業', 'limited'],
      ['電子零組件業', 'none'],
      ['鋼鐵工業', 'reasonable'],
      ['生技醫療', 'reasonable'],
    ] as const) {
      await expectExactly({ industry, assurance_level }, { industry, assurance_level });
    }
  });

  it('market_type + gf', async () => {
    for (const [market_type, gf] of [
      ['listed', 'GF-A01'],
      ['otc', 'GF-D02'],
      ['otc', 'GF-P01'],
      ['listed', 'GF-F01'],
    ] as const) {
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

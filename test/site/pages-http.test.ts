import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ASSURANCE_LEVELS, MARKET_TYPES } from '../../src/contract/vocabulary.js';
import { FLAG_CATALOGUE } from '../../src/methodology/rules.js';
import { currentSnapshotDir } from '../../src/snapshot/published.js';
import { SnapshotStore } from '../../src/snapshot/store.js';
import { getJson, startServer, type RunningServer } from '../helpers/server.js';
import { at, hrefsOf, numbersOf, rankingRowsOf } from './html.js';

/**
 * The pages for people over HTTP, against the API on the same shim: headers, navigation without
 * JavaScript, and that every number and row of a page is the JSON's.
 */
let server: RunningServer;
let store: SnapshotStore;

beforeAll(async () => {
  const snapshotsDir = inject('demoSnapshotsDir');
  server = await startServer(snapshotsDir);
  store = SnapshotStore.open(currentSnapshotDir(snapshotsDir)!);
});
afterAll(async () => {
  store.close();
  await server.close();
});

async function page(path: string): Promise<string> {
  const res = await fetch(server.base + path);
  expect(res.status, path).toBe(200);
  return res.text();
}

describe('serving the pages', () => {
  it('answers HTML with the JSON’s caching policy: public, strong ETag, 304', async () => {
    const res = await fetch(`${server.base}/company/D1101/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await fetch(`${server.base}/company/D1101/`, { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    const head = await fetch(`${server.base}/`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('redirects a folder URL without its slash, 404s unknown pages in HTML and keeps the JSON envelope under /api', async () => {
    const redirect = await fetch(`${server.base}/company/D1101`, { redirect: 'manual' });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toBe('/company/D1101/');
    for (const path of ['/company/d1101/', '/company/d1101', '/etf/de5001/']) {
      const r = await fetch(server.base + path, { redirect: 'manual' });
      expect(r.status, path).toBe(301);
      expect(r.headers.get('location'), path).toBe(path.replace(/[a-z0-9]+\/?$/, (c) => `${c.replace('/', '').toUpperCase()}/`));
    }
    for (const path of ['/company/NOPE1/', '/no/such/page/', '/company/D1101/../../../etc/passwd', '/%2e%2e/snapshot.sqlite', '/snapshot.sqlite']) {
      const res = await fetch(server.base + path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type'), path).toBe('text/html; charset=utf-8');
      expect(await res.text(), path).toContain('Page not found');
    }
    const api = await getJson(`${server.base}/api/v1/nothing`);
    expect(api.status).toBe(404);
    expect(api.body.error.code).toBe('NOT_FOUND');
  });

  it('serves the assets the pages use, Scalar’s bundle among them', async () => {
    const home = await page('/');
    const docs = await page('/docs/');
    const assets = [...new Set([...(home + docs).matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!))];
    expect(assets).toEqual(expect.arrayContaining(['/assets/site.css', '/assets/search.js', '/assets/scalar/standalone.js']));
    for (const a of assets) expect((await fetch(server.base + a)).status, a).toBe(200);
  });
});

describe('reading without JavaScript', () => {
  it('reaches every company from / in at most three clicks', async () => {
    const seen = new Set<string>(['/']);
    let frontier = ['/'];
    for (let click = 1; click <= 3; click++) {
      const next: string[] = [];
      for (const path of frontier) {
        if (path.startsWith('/company/')) continue;
        for (const href of hrefsOf(await page(path))) {
          if (!href.startsWith('/') || href.startsWith('/api/') || href.includes('#') || seen.has(href)) continue;
          if (!/^\/(company|ranking)\//.test(href)) continue;
          seen.add(href);
          next.push(href);
        }
      }
      frontier = next;
    }
    const reached = new Set([...seen].flatMap((p) => /^\/company\/([0-9A-Z]+)\/$/.exec(p)?.[1] ?? []));
    expect(reached.size).toBe(store.companyCount());
  });

  it('marks the demo snapshot as fictional on every page type', async () => {
    for (const path of ['/', '/company/D1101/', '/ranking/', '/ranking/flag/GF-F01/', '/etf/', '/sources/', '/methodology/', '/downloads/', '/docs/']) {
      expect(await page(path), path).toContain('data-demo-banner');
    }
  });
});

describe('pages and JSON agree', () => {
  it('every number on a sample of company pages is the JSON’s, and every penalty links its source_url', async () => {
    const tickers = store.tickers();
    const sample = ['D1101', 'D1104', 'D1107', 'D1123', 'D1139', ...tickers.filter((_, i) => i % 97 === 0)];
    for (const t of sample) {
      const html = await page(`/company/${t}/`);
      const summary = (await getJson(`${server.base}/api/v1/company/${t}`)).body;
      const canonical = (await getJson(`${server.base}/api/v1/company/${t}/canonical`)).body;
      const numbers = numbersOf(html);
      for (const n of numbers) expect(n.value, `${t} ${n.field}`).toBe(at(n.field.startsWith('company.') ? summary : canonical, n.field));
      // Every number of the JSON that a person reads is on the page.
      const c = summary.company;
      const expected = ['company.credibility_score', 'company.rank', 'company.percentile', ...c.score_breakdown.flatMap((_: unknown, i: number) => [`company.score_breakdown.${i}.points`, `company.score_breakdown.${i}.max_points`]),
        ...canonical.penalties.map((_: unknown, i: number) => `penalties.${i}.fine`), 'carbon_fee.threshold_tco2e',
        ...(canonical.carbon_disclosure ? ['carbon_disclosure.year', ...['scope1', 'scope2', 'scope3'].filter((s) => canonical.carbon_disclosure[s] !== null).map((s) => `carbon_disclosure.${s}`)] : []),
        ...(canonical.assurance ? ['assurance.year'] : [])];
      expect(numbers.map((n) => n.field).sort(), t).toEqual(expected.sort());
      const penaltyLinks = [...html.matchAll(/<a href="([^"]+)" rel="noopener" data-penalty-link>/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
      expect(penaltyLinks, t).toEqual(canonical.penalties.map((p: { source_url: string }) => p.source_url));
    }
  });

  it('each single-filter ranking lists exactly the API’s filtered set, in order, with its ranks and scores', async () => {
    const filters: [string, string, string][] = [
      ...store.industries().map((i): [string, string, string] => [`/ranking/industry/${i.code}/`, 'industry', i.name]),
      ...MARKET_TYPES.map((m): [string, string, string] => [`/ranking/market/${m}/`, 'market_type', m]),
      ...ASSURANCE_LEVELS.map((l): [string, string, string] => [`/ranking/assurance/${l}/`, 'assurance_level', l]),
      ...FLAG_CATALOGUE.map((f): [string, string, string] => [`/ranking/flag/${f.id}/`, 'gf', f.id]),
      ['/ranking/', '', ''],
    ];
    for (const [base, param, value] of filters) {
      const api: { ticker: string; rank: number; score: number }[] = [];
      for (let p = 1; ; p++) {
        const q = new URLSearchParams({ ...(param ? { [param]: value } : {}), limit: '200', page: String(p) });
        const body = (await getJson(`${server.base}/api/v1/ranking?${q}`)).body;
        api.push(...body.data.map((r: { ticker: string; rank: number; credibility_score: number }) => ({ ticker: r.ticker, rank: r.rank, score: r.credibility_score })));
        if (!body.meta.has_next) break;
      }
      const shown: { ticker: string; rank: number; score: number }[] = [];
      for (let p = 1; ; p++) {
        const res = await fetch(`${server.base}${p === 1 ? base : `${base}page/${p}/`}`);
        if (res.status === 404) break;
        shown.push(...rankingRowsOf(await res.text()));
      }
      expect(shown, base).toEqual(api);
    }
  });
});

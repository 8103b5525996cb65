import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changesResponseSchema, type ChangeItem } from '../../src/contract/changes.js';
import { historyResponseSchema } from '../../src/contract/history.js';
import { ASSURANCE_LEVELS, MARKET_TYPES } from '../../src/contract/vocabulary.js';
import { FLAG_CATALOGUE } from '../../src/methodology/rules.js';
import { currentSnapshotDir, publishedSnapshotIds } from '../../src/snapshot/published.js';
import { SnapshotStore } from '../../src/snapshot/store.js';
import { getJson, startServer, type RunningServer } from '../helpers/server.js';
import { at, causesOf, historyChartLabelOf, historyRowsOf, hrefsOf, numbersOf, rankingRowsOf, sectionTextOf } from './html.js';
import { sentence } from '../../src/site/i18n/en.js';
import { demoSnapshotsDir } from '../helpers/demo-snapshots-dir.js';
import { demoSeriesSnapshotsDir } from '../helpers/demo-series-dir.js';

/**
 * The pages for people over HTTP, against the API on the same shim: headers, navigation without
 * JavaScript, and that every number and row of a page is the JSON's. The company pages' history and
 * latest changes are also checked on the evolving demo (two months), where companies moved.
 */
let server: RunningServer;
let store: SnapshotStore;
let series: RunningServer;
let seriesStore: SnapshotStore;

beforeAll(async () => {
  const snapshotsDir = demoSnapshotsDir;
  server = await startServer(snapshotsDir);
  store = SnapshotStore.open(currentSnapshotDir(snapshotsDir)!);
  series = await startServer(demoSeriesSnapshotsDir);
  seriesStore = SnapshotStore.open(currentSnapshotDir(demoSeriesSnapshotsDir)!);
});
afterAll(async () => {
  store.close();
  seriesStore.close();
  await server.close();
  await series.close();
});

async function page(path: string, on = server): Promise<string> {
  const res = await fetch(on.base + path);
  expect(res.status, path).toBe(200);
  return res.text();
}

/** Every item of /changes, from its static pages, by ticker, with the page that lists it. */
async function changesOf(on: RunningServer): Promise<{ from: string | null; byTicker: Map<string, { item: ChangeItem; page: number }> }> {
  const byTicker = new Map<string, { item: ChangeItem; page: number }>();
  const first = changesResponseSchema.parse((await getJson(`${on.base}/api/v1/changes`)).body);
  for (let n = 1; n <= first.meta.page_count; n++) {
    for (const item of changesResponseSchema.parse((await getJson(`${on.base}/api/v1/changes/page/${n}`)).body).data)
      byTicker.set(item.ticker, { item, page: n });
  }
  return { from: first.from_snapshot_id, byTicker };
}

/**
 * Every `<data>` number of a company page is the JSON's, each from the body its field names (the
 * summary, the canonical view, the history or the company's item of /changes), and every number of
 * those bodies that a person reads is on the page.
 */
async function expectNumbersOfJson(on: RunningServer, t: string, change: ChangeItem | undefined): Promise<void> {
  const html = await page(`/company/${t}/`, on);
  const summary = (await getJson(`${on.base}/api/v1/company/${t}`)).body;
  const canonical = (await getJson(`${on.base}/api/v1/company/${t}/canonical`)).body;
  const history = historyResponseSchema.parse((await getJson(`${on.base}/api/v1/company/${t}/history`)).body);
  const bodyOf = (field: string) =>
    field.startsWith('company.') ? summary : field.startsWith('history.') ? { history } : field.startsWith('change.') ? { change } : canonical;
  const numbers = numbersOf(html);
  for (const n of numbers) expect(n.value, `${t} ${n.field}`).toBe(at(bodyOf(n.field), n.field));
  // A year reads 2025, never "2,025".
  for (const n of numbers.filter((x) => x.field.endsWith('.year'))) expect(n.text, `${t} ${n.field}`).toBe(String(n.value));
  const c = summary.company;
  const expected = [
    'company.credibility_score',
    'company.rank',
    'company.percentile',
    ...c.score_breakdown.flatMap((_: unknown, i: number) => [`company.score_breakdown.${i}.points`, `company.score_breakdown.${i}.max_points`]),
    ...canonical.penalties.map((_: unknown, i: number) => `penalties.${i}.fine`),
    ...canonical.disclosure_conduct.flatMap((c: { fine: number | null }, i: number) => (c.fine === null ? [] : [`disclosure_conduct.${i}.fine`])),
    'carbon_fee.threshold_tco2e',
    ...(canonical.carbon_fee.basis_tco2e !== null ? ['carbon_fee.basis_tco2e'] : []),
    ...(canonical.carbon_disclosure
      ? [
          'carbon_disclosure.year',
          ...['scope1', 'scope2', 'scope3'].filter((s) => canonical.carbon_disclosure[s] !== null).map((s) => `carbon_disclosure.${s}`),
        ]
      : []),
    ...(canonical.assurance ? ['assurance.year'] : []),
    ...history.data.flatMap((_, i) => [`history.data.${i}.credibility_score`, `history.data.${i}.rank`]),
    ...(change
      ? [
          ...(['before', 'after'] as const).filter((side) => change[side] !== null).map((side) => `change.${side}.credibility_score`),
          ...(change.before && change.after ? ['change.score_delta'] : []),
          ...change.causes.flatMap((x, i) => (x.points === null ? [] : [`change.causes.${i}.points`])),
        ]
      : []),
  ];
  expect(numbers.map((n) => n.field).sort(), t).toEqual(expected.sort());
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

  it('serves /favicon.ico, the icon every page names: a 32×32 ICO', async () => {
    expect(await page('/')).toContain('<link rel="icon" href="/favicon.ico" sizes="32x32">');
    const res = await fetch(`${server.base}/favicon.ico`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/x-icon');
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    const ico = Buffer.from(await res.arrayBuffer());
    // ICONDIR: reserved 0, type 1 (icon), one image of 32×32 at 32 bits per pixel, whose bytes follow.
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2), ico.readUInt16LE(4), ico[6], ico[7], ico.readUInt16LE(12)]).toEqual([0, 1, 1, 32, 32, 32]);
    expect(ico.readUInt32LE(18) + ico.readUInt32LE(14)).toBe(ico.length);
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
    for (const path of [
      '/',
      '/company/D1101/',
      '/ranking/',
      '/ranking/flag/GF-F01/',
      '/etf/',
      '/sources/',
      '/methodology/',
      '/downloads/',
      '/docs/',
      '/keys/',
    ]) {
      expect(await page(path), path).toContain('data-demo-banner');
    }
  });
});

describe('pages and JSON agree', () => {
  it('every number on a sample of company pages is the JSON’s, and every penalty links its source_url', async () => {
    const tickers = store.tickers();
    const sample = ['D1101', 'D1104', 'D1107', 'D1123', 'D1139', ...tickers.filter((_, i) => i % 97 === 0)];
    const changes = await changesOf(server);
    for (const t of sample) {
      await expectNumbersOfJson(server, t, changes.byTicker.get(t)?.item);
      const html = await page(`/company/${t}/`);
      const canonical = (await getJson(`${server.base}/api/v1/company/${t}/canonical`)).body;
      const penaltyLinks = [...html.matchAll(/<a href="([^"]+)" rel="noopener" data-penalty-link>/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
      expect(penaltyLinks, t).toEqual(canonical.penalties.map((p: { source_url: string }) => p.source_url));
    }
  });

  it('states the carbon-fee basis as the API does, its site’s figure with separators and as the JSON’s number', async () => {
    const decidedBySite = store.tickers().filter((t) => store.facts(t)!.carbonFee.basis_tco2e !== null);
    expect(decidedBySite.length).toBeGreaterThan(0);
    for (const t of decidedBySite.slice(0, 5)) {
      const html = await page(`/company/${t}/`);
      const fee = (await getJson(`${server.base}/api/v1/company/${t}/canonical`)).body.carbon_fee;
      const figure = numbersOf(html).find((n) => n.field === 'carbon_fee.basis_tco2e');
      expect(figure?.value, t).toBe(fee.basis_tco2e);
      expect(figure?.text, t).toMatch(/^\d{1,3}(,\d{3})+$/);
      expect(fee.basis, t).toContain(` ${figure!.text} t CO2e`);
      expect(sectionTextOf(html, 'fee-h'), t).toContain(`Obligated to pay the carbon fee. ${sentence(fee.basis)}`);
    }
  });

  it('dates a carbon disclosure by the exchange file it was read from, not as its publication', async () => {
    const disclosing = store
      .tickers()
      .filter((t) => store.facts(t)!.disclosure !== null)
      .slice(0, 3);
    for (const t of disclosing) {
      const html = await page(`/company/${t}/`);
      const d = (await getJson(`${server.base}/api/v1/company/${t}/canonical`)).body.carbon_disclosure;
      expect(html, t).toContain(`<dt>Exchange file dated</dt><dd>${d.asof.slice(0, 10)}</dd>`);
      expect(sectionTextOf(html, 'carbon-h'), t).not.toMatch(/Published/);
    }
  });

  it('every number on each ETF page is the JSON’s, weights and the listed weight read as percentages', async () => {
    for (const { etf_code: code } of store.etfs()) {
      const html = await page(`/etf/${code}/`);
      const body = (await getJson(`${server.base}/api/v1/etf/${code}`)).body;
      const numbers = numbersOf(html);
      for (const n of numbers) expect(n.value, `${code} ${n.field}`).toBe(at(body, n.field));
      const asPercent = numbers.filter((n) => /^(holdings\.\d+\.weight|listed_weight|holdings_min_weight)$/.test(n.field));
      expect(asPercent.filter((n) => n.field.startsWith('holdings.')).length, code).toBe(body.holdings.length);
      // Two decimals, four below 1 % (0.3282 reads 32.82 %, never 0.3282 %).
      for (const n of asPercent) expect(n.text, `${code} ${n.field}`).toBe(`${Number((n.value * 100).toFixed(n.value < 0.01 ? 4 : 2))} %`);
      expect(html, code).toContain(body.holdings_period);
      if (body.holdings_min_weight > 0) expect(html, code).toContain('of net assets or more are published');
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
        api.push(
          ...body.data.map((r: { ticker: string; rank: number; credibility_score: number }) => ({
            ticker: r.ticker,
            rank: r.rank,
            score: r.credibility_score,
          })),
        );
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

describe('history and latest changes on a company page (the evolving demo)', () => {
  let changes: Awaited<ReturnType<typeof changesOf>>;
  let ids: string[];
  beforeAll(async () => {
    changes = await changesOf(series);
    ids = publishedSnapshotIds(demoSeriesSnapshotsDir);
  });

  it('a company that moved shows both snapshots with the history’s scores and exactly the causes of its item in /changes', async () => {
    expect(ids.length).toBe(2);
    expect(changes.from).toBe(ids[0]);
    const moved = changes.byTicker.get('D1101');
    expect(moved?.item.change).toBe('changed');
    expect(moved!.item.score_delta).not.toBe(0);
    // D1101, every company that was added, and a sample of the rest of /changes.
    const items = [...changes.byTicker.values()];
    const sample = [
      moved!,
      ...items.filter((c) => c.item.change === 'added'),
      ...items.filter((c, i) => c.item.change === 'changed' && i % 40 === 0),
    ];
    expect(sample.some((c) => c.item.change === 'added')).toBe(true);
    for (const { item, page: n } of sample) {
      const t = item.ticker;
      const html = await page(`/company/${t}/`, series);
      const history = historyResponseSchema.parse((await getJson(`${series.base}/api/v1/company/${t}/history`)).body);
      // The table lists every history entry oldest first, with the history's scores and ranks.
      const rows = historyRowsOf(html);
      expect(
        rows.map((r) => r.snapshot),
        t,
      ).toEqual(history.data.map((e) => e.dataset_snapshot_id).reverse());
      expect(
        rows.map((r) => r.numbers.map((x) => x.value)),
        t,
      ).toEqual(history.data.map((e) => [e.credibility_score, e.rank]).reverse());
      expect(
        rows.map((r) => r.snapshot),
        t,
      ).toEqual(item.before === null ? [ids[1]] : ids);
      // The picture's text alternative states every snapshot's score.
      const label = historyChartLabelOf(html);
      for (const e of history.data) expect(label, t).toContain(`${e.dataset_snapshot_id}, ${e.credibility_score} (`);
      // Exactly the causes of the company's item, in order, with their points.
      expect(causesOf(html), t).toEqual(item.causes.map((c) => ({ kind: c.kind, points: c.points })));
      expect(html, t).not.toContain('No change since');
      for (const c of item.causes) if (c.source_id) expect(hrefsOf(html), t).toContain(`/sources/#${c.source_id}`);
      expect(hrefsOf(html), t).toEqual(expect.arrayContaining([`/api/v1/company/${t}/history`, '/api/v1/changes', `/api/v1/changes/page/${n}`]));
      await expectNumbersOfJson(series, t, item);
    }
  });

  it('a company that did not change says so in one sentence, and lists no cause', async () => {
    const still = seriesStore.tickers().filter((t) => !changes.byTicker.has(t));
    expect(still.length).toBeGreaterThan(0);
    for (const t of still.slice(0, 5)) {
      const html = await page(`/company/${t}/`, series);
      expect(html, t).toContain(`No change since snapshot ${ids[0]}:`);
      expect(causesOf(html), t).toEqual([]);
      expect(
        historyRowsOf(html).map((r) => r.snapshot),
        t,
      ).toEqual(ids);
      expect(historyChartLabelOf(html), t).toMatch(/^Credibility score in 2 snapshots, oldest first: /);
      await expectNumbersOfJson(series, t, undefined);
    }
  });

  it('in the first snapshot, a company’s history starts with one dot and says there is nothing to compare with', () => {
    // The first month's page as its build wrote it (pages are not pinned reads, so read from its tree).
    const html = readFileSync(join(demoSeriesSnapshotsDir, ids[0]!, 'tree/company/D1101/index.html'), 'utf8');
    expect(html).toContain('This is the first snapshot that holds D1101');
    expect(html).toContain('This is the first published snapshot');
    expect(historyRowsOf(html).map((r) => r.snapshot)).toEqual([ids[0]]);
    expect(html.match(/<circle /g)?.length).toBe(1);
    expect(historyChartLabelOf(html)).toMatch(/^Credibility score in one snapshot: /);
    expect(causesOf(html)).toEqual([]);
  });
});

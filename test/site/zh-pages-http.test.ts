import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUES } from '../../src/site/i18n/index.js';
import { currentSnapshotDir } from '../../src/snapshot/published.js';
import { SnapshotStore } from '../../src/snapshot/store.js';
import { getJson, startServer, type RunningServer } from '../helpers/server.js';
import { englishUi } from './english-ui.js';
import { at, hrefsOf, numbersOf, sectionTextOf } from './html.js';
import { demoSeriesSnapshotsDir } from '../helpers/demo-series-dir.js';

/**
 * The Traditional Chinese pages over HTTP, on the evolving demo (company pages with a
 * history and latest changes): every page type is there under /zh-TW/, in zh-Hant-TW, with no
 * English UI text; every page in either language names both versions (hreflang) and its switch
 * leads to the same page in the other; numbers are the JSON's; a missing page is the Chinese 404.
 */
let server: RunningServer;
let store: SnapshotStore;

beforeAll(async () => {
  const snapshotsDir = demoSeriesSnapshotsDir;
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

/** Every page type in English; its Chinese version is the same path under /zh-TW. */
function pageTypes(): string[] {
  const id = store.meta.dataset_snapshot_id;
  const flagged = [...store.rankedCompaniesWithFlags()].find((c) => c.flag_ids.length > 0)!;
  const penalised = store.tickers().find((t) => store.facts(t)!.penalties.length > 0)!;
  return [
    '/',
    '/company/D1101/',
    `/company/${penalised}/`,
    `/company/${flagged.ticker}/`,
    '/ranking/',
    '/ranking/page/2/',
    `/ranking/flag/${flagged.flag_ids[0]}/`,
    '/ranking/industry/01/',
    '/ranking/market/otc/',
    '/ranking/assurance/limited/',
    '/etf/',
    `/etf/${store.etfs()[0]!.etf_code}/`,
    '/sources/',
    '/methodology/',
    '/downloads/',
    `/downloads/${id}/`,
    '/research/',
    '/docs/',
    '/keys/',
  ];
}
const zh = (path: string) => `/zh-TW${path}`;
const english = (zhPath: string) =>
  zhPath.startsWith('/zh-TW/downloads/') && zhPath !== '/zh-TW/downloads/'
    ? `/api/v1${zhPath.slice('/zh-TW'.length)}`
    : zhPath.slice('/zh-TW'.length);

describe('the Traditional Chinese pages', () => {
  it('exist for every page type, in zh-Hant-TW, with no English UI text', async () => {
    for (const path of pageTypes().map(zh)) {
      const html = await page(path);
      expect(html, path).toMatch(/^<!DOCTYPE html><html lang="zh-Hant-TW" data-locale="zh-TW">/i);
      expect(englishUi(html, CATALOGUES.en), path).toEqual([]);
    }
  });

  it('name both languages’ versions of themselves, and switch to the same page in the other', async () => {
    const origin = `https://${store.meta.service_host}`;
    for (const zhPath of pageTypes().map(zh)) {
      const enPath = english(zhPath);
      for (const [path, other] of [
        [zhPath, enPath],
        [enPath, zhPath],
      ] as const) {
        const html = await page(path);
        expect(html, path).toContain(`<link rel="alternate" hreflang="en" href="${origin}${enPath}">`);
        expect(html, path).toContain(`<link rel="alternate" hreflang="zh-TW" href="${origin}${zhPath}">`);
        expect(html, path).toContain(`<link rel="alternate" hreflang="x-default" href="${origin}${enPath}">`);
        const switchTo = /<a href="([^"]+)"[^>]*data-lang-switch=/.exec(html)?.[1];
        expect(switchTo, path).toBe(other);
      }
      await page(enPath);
    }
  });

  it('link within Chinese: every page link of a Chinese page stays under /zh-TW/ (assets, the API and the English guide aside)', async () => {
    for (const path of pageTypes().map(zh)) {
      const html = await page(path);
      const outside = hrefsOf(html.replace(/<a [^>]*data-lang-switch=[^>]*>/g, '')).filter(
        (h) => h.startsWith('/') && !/^\/(zh-TW|api|assets)\//.test(h) && h !== '/favicon.ico' && h !== '/research/',
      );
      expect(outside, path).toEqual([]);
    }
  });

  it('show the JSON’s numbers on a company page, in the Chinese form', async () => {
    const t = 'D1101';
    const summary = (await getJson(`${server.base}/api/v1/company/${t}`)).body;
    const canonical = (await getJson(`${server.base}/api/v1/company/${t}/canonical`)).body;
    const [en, zhHtml] = [await page(`/company/${t}/`), await page(`/zh-TW/company/${t}/`)];
    const fields = (html: string) => numbersOf(html).map((n) => `${n.field}=${n.value}`);
    expect(fields(zhHtml)).toEqual(fields(en));
    for (const n of numbersOf(zhHtml).filter((x) => x.field.startsWith('company.'))) expect(n.value, n.field).toBe(at(summary, n.field));
    for (const n of numbersOf(zhHtml).filter((x) => x.field.startsWith('penalties.'))) {
      expect(n.value).toBe(at(canonical, n.field));
      expect(n.text).toMatch(/^新臺幣 [\d,]+ 元$/);
    }
    expect(zhHtml).toContain(CATALOGUES['zh-TW'].verdict[summary.company.verdict as 'poor']);
  });

  it('state the carbon-fee basis with the deciding site’s figure, in the Chinese form, as the English page does', async () => {
    const decidedBySite = store.tickers().filter((t) => store.facts(t)!.carbonFee.basis_tco2e !== null);
    expect(decidedBySite.length).toBeGreaterThan(0);
    for (const t of decidedBySite.slice(0, 5)) {
      const fee = (await getJson(`${server.base}/api/v1/company/${t}/canonical`)).body.carbon_fee;
      const [enHtml, zhHtml] = [await page(`/company/${t}/`), await page(`/zh-TW/company/${t}/`)];
      const figure = (html: string) => numbersOf(html).find((n) => n.field === 'carbon_fee.basis_tco2e');
      expect(figure(zhHtml)?.value, t).toBe(fee.basis_tco2e);
      expect(figure(zhHtml)?.text, t).toBe(fee.basis_tco2e.toLocaleString('zh-TW'));
      expect(figure(zhHtml)?.text, t).toMatch(/^\d{1,3}(,\d{3})+$/);
      expect(figure(enHtml)?.value, t).toBe(fee.basis_tco2e);
      expect(sectionTextOf(zhHtml, 'fee-h'), t).toContain(`製造業場址排放 ${figure(zhHtml)!.text} 公噸二氧化碳當量`);
    }
  });

  it('date a carbon disclosure by the exchange file (出表日期), not as its publication', async () => {
    const t = store.tickers().find((x) => store.facts(x)!.disclosure !== null)!;
    const html = await page(`/zh-TW/company/${t}/`);
    expect(sectionTextOf(html, 'carbon-h'), t).toContain('交易所出表日期');
    expect(html, t).not.toContain('發布日期');
  });

  it('answer a missing Chinese page with the Chinese 404, and a lower-case code with a redirect', async () => {
    for (const path of ['/zh-TW/no/such/page/', '/zh-TW/company/NOPE1/']) {
      const res = await fetch(server.base + path);
      expect(res.status, path).toBe(404);
      const html = await res.text();
      expect(html, path).toContain('lang="zh-Hant-TW"');
      expect(html, path).toContain(CATALOGUES['zh-TW'].notFound.title);
    }
    expect(await (await fetch(`${server.base}/no/such/page/`)).text()).toContain(CATALOGUES.en.notFound.title);
    const redirect = await fetch(`${server.base}/zh-TW/company/d1101`, { redirect: 'manual' });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toBe('/zh-TW/company/D1101/');
    expect(await page('/zh-TW/404.html')).toContain(CATALOGUES['zh-TW'].notFound.title);
  });

  it('serve the scripts’ texts in every language', async () => {
    const js = await page('/assets/messages.js');
    expect(js).toContain(CATALOGUES['zh-TW'].script.search.none);
    expect(js).toContain(CATALOGUES.en.script.search.none);
    expect(await page('/zh-TW/')).toContain('<script src="/assets/messages.js" defer></script><script src="/assets/search.js" defer></script>');
  });
});

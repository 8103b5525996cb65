import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUES } from '../../src/site/i18n/index.js';
import { currentSnapshotDir } from '../../src/snapshot/published.js';
import { SnapshotStore } from '../../src/snapshot/store.js';
import { startServer, type RunningServer } from '../helpers/server.js';
import { browserSession, WIDTHS, walkPageTypes, type BrowserSession } from './browser-session.js';
import { englishUi } from './english-ui.js';
import { demoSeriesSnapshotsDir } from '../helpers/demo-series-dir.js';

/**
 * The Traditional Chinese pages in Chromium: axe on every page type, screenshots at
 * desktop and phone width (test/site/screenshots/zh-TW-*.png, beside the English ones
 * pages-browser.test.ts takes), no English UI text once the scripts have run (search results, the
 * evidence-pack form), the language switch landing on the same company, and search by Chinese name
 * or code linking the Chinese pages. On the evolving demo, as `npm start` publishes it.
 */
const NOT_FOUND = '/zh-TW/missing/';

let server: RunningServer;
let store: SnapshotStore;
let session: BrowserSession;

beforeAll(async () => {
  const snapshotsDir = demoSeriesSnapshotsDir;
  server = await startServer(snapshotsDir);
  store = SnapshotStore.open(currentSnapshotDir(snapshotsDir)!);
  session = await browserSession(server, [NOT_FOUND]);
});
afterAll(async () => {
  await session?.browser.close();
  store?.close();
  await server?.close();
});

const PAGE_TYPES: [string, string][] = [
  ['home', '/zh-TW/'],
  ['company', '/zh-TW/company/D1139/'],
  ['company-changed', '/zh-TW/company/D1101/'],
  ['ranking', '/zh-TW/ranking/'],
  ['ranking-filter', '/zh-TW/ranking/flag/GF-A01/page/2/'],
  ['etf-list', '/zh-TW/etf/'],
  ['etf', '/zh-TW/etf/DE5001/'],
  ['sources', '/zh-TW/sources/'],
  ['methodology', '/zh-TW/methodology/'],
  ['downloads', '/zh-TW/downloads/'],
  ['research', '/zh-TW/research/'],
  ['docs', '/zh-TW/docs/'],
  ['keys', '/zh-TW/keys/'],
  ['not-found', NOT_FOUND],
];

describe('every Chinese page type', () => {
  it('has no serious or critical accessibility violation, no English UI text once its scripts ran, and is photographed at desktop and phone width', async () => {
    await walkPageTypes(session, PAGE_TYPES, 'zh-TW-', async (page, path) => {
      const dom = await page.evaluate(() => {
        document.querySelector('#reference')?.replaceChildren();
        return document.documentElement.outerHTML;
      });
      expect(englishUi(dom, CATALOGUES.en), path).toEqual([]);
    });
  }, 600_000);
});

describe('the language switch', () => {
  it('lands on the same company in the other language, and back', async () => {
    const company = store.company('D1139')!;
    const page = await session.open('/company/D1139/', WIDTHS.desktop);
    await page.locator('[data-lang-switch="zh-TW"]').click();
    await page.waitForURL(`${server.base}/zh-TW/company/D1139/`);
    expect(await page.locator('html').getAttribute('lang')).toBe('zh-Hant-TW');
    expect(await page.locator('h1').textContent()).toContain(company.company_name);
    expect(await page.locator('#score-h').textContent()).toBe(CATALOGUES['zh-TW'].company.scoreHeading);
    await page.locator('[data-lang-switch="en"]').click();
    await page.waitForURL(`${server.base}/company/D1139/`);
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    await page.context().close();
  });
});

describe('search on the Chinese home page', () => {
  it('finds a company by its Chinese name (臺 or 台, full-width or not) and by its code, and links its Chinese page', async () => {
    const company = store.company('D1139')!;
    const page = await session.open('/zh-TW/', WIDTHS.desktop);
    await page.fill('#q', company.company_name.replace(/台/g, '臺'));
    await expect.poll(() => page.locator('[data-search-results] a').first().textContent()).toContain(company.company_name);
    await expect.poll(() => page.locator('[data-search-status]').textContent()).toMatch(/筆符合/);
    await page.fill('#q', 'ｄ１１３９');
    await expect.poll(() => page.locator('[data-search-results] a').first().getAttribute('href')).toBe('/zh-TW/company/D1139/');
    await page.fill('#q', 'ZZZZZZ');
    await expect.poll(() => page.locator('[data-search-status]').textContent()).toBe(CATALOGUES['zh-TW'].script.search.none);
    await page.context().close();
  });
});

describe('the whole Chinese browsing session', () => {
  it('logged no console error and sent no request off the host', () => {
    expect(session.requests.filter((u) => !u.startsWith(`${server.base}/`))).toEqual([]);
    expect(session.consoleErrors).toEqual([]);
  });
});

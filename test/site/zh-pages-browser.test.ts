import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CATALOGUES } from '../../src/site/i18n/index.js';
import { currentSnapshotDir } from '../../src/snapshot/published.js';
import { SnapshotStore } from '../../src/snapshot/store.js';
import { startServer, type RunningServer } from '../helpers/server.js';
import { englishUi } from './english-ui.js';

/**
 * The Traditional Chinese pages in Chromium (issue 26): axe on every page type, screenshots at
 * desktop and phone width (test/site/screenshots/zh-TW-*.png, beside the English ones
 * pages-browser.test.ts takes), no English UI text once the scripts have run (search results, the
 * evidence-pack form), the language switch landing on the same company, and search by Chinese name
 * or code linking the Chinese pages. On the evolving demo, as `npm start` publishes it.
 */
const SCREENSHOTS = join(import.meta.dirname, 'screenshots');
const WIDTHS = { desktop: 1280, phone: 390 };
const NOT_FOUND = '/zh-TW/missing/';

let server: RunningServer;
let store: SnapshotStore;
let browser: Browser;
const consoleErrors: string[] = [];

beforeAll(async () => {
  const snapshotsDir = inject('demoSeriesSnapshotsDir');
  server = await startServer(snapshotsDir);
  store = SnapshotStore.open(currentSnapshotDir(snapshotsDir)!);
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  mkdirSync(SCREENSHOTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  store?.close();
  await server?.close();
});

async function open(path: string, width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, locale: 'zh-TW' });
  const page = await context.newPage();
  await page.route('**/*', (route) => (route.request().url().startsWith(`${server.base}/`) ? route.continue() : route.abort()));
  page.on('console', (m) => {
    const ownStatus = path === NOT_FOUND && m.location().url === server.base + path && m.text().includes('404');
    if (m.type() === 'error' && !ownStatus) consoleErrors.push(`${path}: ${m.text()}`);
  });
  page.on('pageerror', (e) => consoleErrors.push(`${path}: ${e.message}`));
  const res = await page.goto(server.base + path, { waitUntil: 'networkidle' });
  expect(res?.status(), path).toBe(path === NOT_FOUND ? 404 : 200);
  return page;
}

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
  ['not-found', NOT_FOUND],
];

describe('every Chinese page type', () => {
  it('has no serious or critical accessibility violation, no English UI text once its scripts ran, and is photographed at desktop and phone width', async () => {
    for (const [name, path] of PAGE_TYPES) {
      for (const [label, width] of Object.entries(WIDTHS)) {
        const page = await open(path, width);
        await page.screenshot({ path: join(SCREENSHOTS, `zh-TW-${name}-${label}.png`), fullPage: true });
        if (label === 'desktop') {
          // Scalar's widget is a third-party bundle (English only, with violations of its own): left out, as on the English page.
          const scan = await new AxeBuilder({ page }).exclude('#reference').analyze();
          const bad = scan.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
          expect(bad.map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`), path).toEqual([]);
          const dom = await page.evaluate(() => {
            document.querySelector('#reference')?.replaceChildren();
            return document.documentElement.outerHTML;
          });
          expect(englishUi(dom, CATALOGUES.en), path).toEqual([]);
        } else {
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
          expect(overflow, `${path} at ${width} px`).toBeLessThanOrEqual(0);
        }
        await page.context().close();
      }
    }
  }, 300_000);
});

describe('the language switch', () => {
  it('lands on the same company in the other language, and back', async () => {
    const company = store.company('D1139')!;
    const page = await open('/company/D1139/', WIDTHS.desktop);
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
    const page = await open('/zh-TW/', WIDTHS.desktop);
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
  it('logged no console error', () => {
    expect(consoleErrors).toEqual([]);
  });
});

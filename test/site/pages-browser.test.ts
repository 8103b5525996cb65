import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/contract/openapi.js';
import { LIMITS } from '../../src/contract/vocabulary.js';
import { currentSnapshotDir } from '../../src/snapshot/published.js';
import { SnapshotStore } from '../../src/snapshot/store.js';
import { getJson, startServer, type RunningServer } from '../helpers/server.js';
import { browserSession, openEveryDocsGroup, SCREENSHOTS, WIDTHS, walkPageTypes, type BrowserSession } from './browser-session.js';
import { demoSeriesSnapshotsDir } from '../helpers/demo-series-dir.js';

/**
 * The pages in a real browser (Debian's chromium through playwright-core): search, the docs page,
 * accessibility (axe) on every page type, screenshots at desktop and phone width (written to
 * test/site/screenshots/, ignored by git), no console error, and no request leaving the host. On the
 * evolving demo (what `npm start` publishes), so company pages have a history and latest changes.
 */
const NOT_FOUND = '/missing/';

let server: RunningServer;
let store: SnapshotStore;
let session: BrowserSession;
let browser: Browser;

beforeAll(async () => {
  const snapshotsDir = demoSeriesSnapshotsDir;
  server = await startServer(snapshotsDir);
  store = SnapshotStore.open(currentSnapshotDir(snapshotsDir)!);
  session = await browserSession(server, [NOT_FOUND]);
  browser = session.browser;
});
afterAll(async () => {
  await browser?.close();
  store?.close();
  await server?.close();
});

const open = (path: string, width: number) => session.open(path, width);

const PAGE_TYPES: [string, string][] = [
  ['home', '/'],
  ['company', '/company/D1139/'],
  ['company-changed', '/company/D1101/'],
  ['ranking', '/ranking/'],
  ['ranking-filter', '/ranking/flag/GF-A01/page/2/'],
  ['etf-list', '/etf/'],
  ['etf', '/etf/DE5001/'],
  ['sources', '/sources/'],
  ['methodology', '/methodology/'],
  ['downloads', '/downloads/'],
  ['docs', '/docs/'],
  ['keys', '/keys/'],
  ['not-found', NOT_FOUND],
];

describe('every page type', () => {
  it('has no serious or critical accessibility violation, and is photographed at desktop and phone width', async () => {
    await walkPageTypes(session, PAGE_TYPES, '');
  }, 360_000);
});

describe('search', () => {
  it('finds a company by its Chinese name and by its code, without calling the API', async () => {
    const company = store.company('D1139')!;
    const before = session.requests.length;
    const page = await open('/', WIDTHS.desktop);
    await page.fill('#q', company.company_name);
    await expect.poll(() => page.locator('[data-search-results] a').first().textContent()).toContain(company.company_name);
    await page.fill('#q', 'd1139');
    await expect.poll(() => page.locator('[data-search-results] a').first().getAttribute('href')).toBe('/company/D1139/');
    await page.locator('[data-search-results] a').first().click();
    await page.waitForURL(`${server.base}/company/D1139/`);
    expect(await page.locator('h1').textContent()).toContain(company.company_name);
    await page.context().close();
    const made = session.requests.slice(before);
    expect(made).toContain(`${server.base}/search/index.json`);
    expect(made.filter((u) => u.includes('/api/'))).toEqual([]);
  });
});

describe('the company page', () => {
  it('links each penalty row to the canonical view’s source_url', async () => {
    for (const t of ['D1139', 'D1101']) {
      const canonical = (await getJson(`${server.base}/api/v1/company/${t}/canonical`)).body;
      const page = await open(`/company/${t}/`, WIDTHS.desktop);
      const links = await page.locator('a[data-penalty-link]').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
      expect(links, t).toEqual(canonical.penalties.map((p: { source_url: string }) => p.source_url));
      await page.context().close();
    }
  });
});

describe('the ranking table on a phone', () => {
  it('fits a 375 px screen to its last column (the pack checkboxes the ranking page adds), in both languages', async () => {
    // The last page holds the longest verdict ("Questionable" and "Poor"); the first, the default ranking.
    const last = Math.ceil(store.companyCount() / LIMITS.perPageDefault);
    for (const path of ['/ranking/', `/ranking/page/${last}/`, '/ranking/flag/GF-F01/', `/zh-TW/ranking/page/${last}/`, '/']) {
      const page = await open(path, 375);
      const tables = await page.locator('table.ranking').evaluateAll((ts) =>
        ts.map((t) => {
          const heads = [...t.querySelectorAll('thead th')].filter((th) => getComputedStyle(th).display !== 'none');
          return {
            columns: heads.length,
            lastRight: heads.at(-1)!.getBoundingClientRect().right,
            hidden: t.parentElement!.scrollWidth - t.parentElement!.clientWidth,
          };
        }),
      );
      expect(tables.length, path).toBeGreaterThan(0);
      for (const t of tables) {
        expect(t.hidden, `${path}: table wider than its frame`).toBeLessThanOrEqual(0);
        expect(t.lastRight, `${path}: last column's right edge`).toBeLessThanOrEqual(375);
      }
      if (path === '/ranking/') expect(tables[0]!.columns, 'rank, company, score and the pack column').toBe(4);
      const name = path === '/' ? 'home' : path.replace(/^\/|\/$/g, '').replaceAll('/', '-');
      await page
        .locator('table.ranking')
        .first()
        .screenshot({ path: join(SCREENSHOTS, `ranking-table-375-${name}.png`) });
      await page.context().close();
    }
  }, 120_000);
});

describe('the company page’s history', () => {
  it('names its chart by the history’s scores and shows the causes of the latest change', async () => {
    const history = (await getJson(`${server.base}/api/v1/company/D1101/history`)).body;
    const page = await open('/company/D1101/', WIDTHS.desktop);
    const chart = page.getByRole('img', { name: /^Credibility score in 2 snapshots/ });
    const name = await chart.getAttribute('aria-label');
    for (const e of history.data) expect(name).toContain(`${e.dataset_snapshot_id}, ${e.credibility_score} (`);
    // The table opens without script, and shows the same scores.
    await page.getByText('The history as a table').click();
    const scores = await page.locator('table.history-table tbody td:nth-child(2)').allInnerTexts();
    expect(scores).toEqual(history.data.map((e: { credibility_score: number }) => String(e.credibility_score)).reverse());
    await expect.poll(() => page.locator('ul.causes li').count()).toBeGreaterThan(0);
    await page.locator('section[aria-labelledby="history-h"]').screenshot({ path: join(SCREENSHOTS, 'company-history-desktop.png') });
    await page.context().close();
  });
});

describe('the docs page', () => {
  it('renders every operation of the OpenAPI document, with its assets from the site itself', async () => {
    const doc = openApiDocument(store.meta.methodology_version);
    const page = await open('/docs/', WIDTHS.desktop);
    await page.waitForSelector('#reference *', { timeout: 30_000 });
    await openEveryDocsGroup(page);
    const text = (await page.locator('#reference').innerText()).replace(/\s+/g, ' ');
    for (const [path, item] of Object.entries(doc.paths ?? {})) {
      for (const op of [item?.get, item?.post]) {
        if (op?.summary) expect(text, `${path}: ${op.summary}`).toContain(op.summary.replace(/\s+/g, ' '));
      }
    }
    const curl = await page.locator('.curl code').first().textContent();
    expect(curl).toContain(`curl '${server.base}/api/v1/`);
    await page.context().close();
  }, 60_000);
});

describe('the icon', () => {
  it('Chromium loads /favicon.ico as a 32×32 image, and logs no console error on any page', async () => {
    // A context of its own, without the request routing of open(): with routing, Chromium does not
    // ask for the icon at all, so a missing icon (a 404 in the console) would go unseen there.
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => {
      const ownStatus = page.url() === server.base + NOT_FOUND && m.location().url === server.base + NOT_FOUND && m.text().includes('404');
      if (m.type() === 'error' && !ownStatus) errors.push(`${page.url()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
    for (const [, path] of PAGE_TYPES) {
      await page.goto(server.base + path, { waitUntil: 'networkidle' });
      if (path === '/docs/') await page.waitForSelector('#reference *', { timeout: 30_000 });
    }
    const size = await page.evaluate(async () => {
      const img = new Image();
      img.src = '/favicon.ico';
      await img.decode();
      return [img.naturalWidth, img.naturalHeight];
    });
    expect(size).toEqual([32, 32]);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});

describe('the whole browsing session', () => {
  it('logged no console error and sent no request off the host', () => {
    expect(session.requests.length).toBeGreaterThan(0);
    expect(session.requests.filter((u) => !u.startsWith(`${server.base}/`))).toEqual([]);
    expect(session.consoleErrors).toEqual([]);
  });
});

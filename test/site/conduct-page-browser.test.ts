import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUES, scriptMessagesJs } from '../../src/site/i18n/index.js';
import { CONDUCT } from '../helpers/hand-built-snapshot.js';
import { horizontalOverflow, launchChromium, SCREENSHOTS, seriousViolations, WIDTHS } from './browser-session.js';
import { englishUi } from './english-ui.js';

/**
 * The company page's disclosure conduct in Chromium, in both languages: H0003 of the
 * hand-built snapshot (test/helpers/hand-built-snapshot.ts), a recent exchange penalty with its
 * fine and an older FSC sanction with its decision, rendered by the project's renderer in a child
 * process (render-hand-built.ts) and served to the browser from memory with the site's own assets.
 * A screenshot at desktop and phone width (test/site/screenshots/conduct-*.png), no serious or
 * critical axe violation, nothing wider than a phone's screen, the rows with their kind, rule, fine
 * or decision and dataset, and no English UI text on the Chinese page.
 */
const BASE = 'http://conduct.test';
const ASSETS = join(import.meta.dirname, '../../src/site/assets');

let work: string;
let pages: Record<string, string>;
let browser: Browser;
const requests: string[] = [];
const errors: string[] = [];

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'conduct-page-'));
  const out = execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--import',
      './build-scripts/pages/register-astro.mjs',
      'test/site/render-hand-built.ts',
      join(work, 'snapshot'),
      'H0003',
      'zh-TW/H0003',
      'H0004',
      'zh-TW/H0004',
    ],
    { encoding: 'utf8', timeout: 120_000 },
  );
  pages = JSON.parse(out.trim().split('\n').pop()!) as Record<string, string>;
  browser = await launchChromium();
}, 150_000);
afterAll(async () => {
  await browser?.close();
  rmSync(work, { recursive: true, force: true });
});

/** Opens a rendered page at a width: its HTML and /assets/ from the source tree; anything else refused. */
async function open(key: string, width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  await page.route('**/*', (route) => {
    const url = new URL(route.request().url());
    requests.push(url.href);
    if (url.origin !== BASE) return route.abort();
    if (url.pathname === `/${key}/`) return route.fulfill({ contentType: 'text/html; charset=utf-8', body: pages[key]! });
    if (url.pathname === '/assets/messages.js') return route.fulfill({ contentType: 'text/javascript', body: scriptMessagesJs() });
    const asset = /^\/assets\/([\w.-]+\.(css|js))$/.exec(url.pathname);
    if (asset) {
      const type = asset[2] === 'css' ? 'text/css' : 'text/javascript';
      return route.fulfill({ contentType: type, body: readFileSync(join(ASSETS, asset[1]!)) });
    }
    return route.fulfill({ status: 204, body: '' });
  });
  page.on('pageerror', (e) => errors.push(`${key}: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`${key}: ${m.text()}`);
  });
  const res = await page.goto(`${BASE}/${key}/`, { waitUntil: 'networkidle' });
  expect(res?.status()).toBe(200);
  return page;
}

/** Photographs the page's conduct section down to the end of its table, at the page's width. */
async function shoot(page: Page, name: string): Promise<void> {
  const section = page.locator('section[aria-labelledby="conduct-h"]');
  await section.scrollIntoViewIfNeeded();
  await section.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}-page.png`), fullPage: true });
}

interface Row {
  kind: string | null;
  cells: string[];
  fine: string;
  source: string | null;
}
const rowsOf = (page: Page): Promise<Row[]> =>
  page.locator('table.conduct tbody tr').evaluateAll((trs) =>
    trs.map((tr) => ({
      kind: tr.getAttribute('data-conduct-kind'),
      cells: [...tr.querySelectorAll('td')].map((td) => (td.textContent ?? '').replace(/\s+/g, ' ').trim()),
      fine: (tr.querySelector('[data-conduct-fine]')?.textContent ?? '').replace(/\s+/g, ' ').trim(),
      source: tr.querySelector('[data-conduct-source]')?.getAttribute('data-conduct-source') ?? null,
    })),
  );

const [breach, sanction] = CONDUCT as [(typeof CONDUCT)[0], (typeof CONDUCT)[0]];

describe('the disclosure conduct of a company', () => {
  it('shows in English: kind, summary, rule, the fine and the decision, each row naming its dataset', async () => {
    const page = await open('company/H0003', WIDTHS.phone);
    await shoot(page, 'conduct-company-phone');
    expect(await horizontalOverflow(page), 'phone width').toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: WIDTHS.desktop, height: 900 });
    await shoot(page, 'conduct-company-desktop');

    expect(await page.locator('#conduct-h').textContent()).toBe('Disclosure conduct (2)');
    const rows = await rowsOf(page);
    expect(rows.map((r) => [r.kind, r.source])).toEqual([
      ['breach', breach.sourceId],
      ['sanction', sanction.sourceId],
    ]);
    expect(rows[0]!.cells.slice(0, 2)).toEqual(['2026-05-14', 'Disclosure breach (exchange penalty)']);
    expect(rows[0]!.cells[2]).toContain(breach.summary);
    expect(rows[0]!.cells[3]).toBe(breach.rule);
    expect(rows[0]!.fine).toBe('NT$30,000');
    expect(rows[1]!.cells.slice(0, 2)).toEqual(['2023-03-08', 'FSC sanction']);
    expect(rows[1]!.cells[3]).toBe(sanction.rule);
    expect(rows[1]!.fine).toBe(sanction.decision);
    // After the penalties, before the carbon disclosure; the breach 5 months old raises GF-S01.
    const order = await page.locator('main section h2').evaluateAll((hs) => hs.map((h) => h.id));
    expect(order.indexOf('conduct-h')).toBe(order.indexOf('pen-h') + 1);
    expect(await page.locator('ul.flags').textContent()).toContain('GF-S01');

    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  }, 60_000);

  it('shows in Traditional Chinese, with the publishers’ words and no English UI text', async () => {
    const page = await open('zh-TW/company/H0003', WIDTHS.phone);
    await shoot(page, 'conduct-zh-TW-company-phone');
    expect(await horizontalOverflow(page), 'phone width').toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: WIDTHS.desktop, height: 900 });
    await shoot(page, 'conduct-zh-TW-company-desktop');

    expect(await page.locator('#conduct-h').textContent()).toBe('資訊揭露紀錄（2）');
    const rows = await rowsOf(page);
    expect(rows.map((r) => r.cells[1])).toEqual(['資訊申報違規（交易所違約金）', '金管會裁罰']);
    expect(rows[0]!.cells[0]).toBe('2026年5月14日');
    expect(rows[0]!.cells[3]).toBe(breach.rule);
    expect(rows[0]!.fine).toBe('新臺幣 30,000 元');
    expect(rows[1]!.fine).toBe(sanction.decision);
    expect(rows.map((r) => r.source)).toEqual([breach.sourceId, sanction.sourceId]);

    expect(await seriousViolations(page)).toEqual([]);
    expect(englishUi(await page.content(), CATALOGUES.en)).toEqual([]);
    await page.context().close();
  }, 60_000);

  it('says so when a company has none, and the pages reached nothing but their own host without an error', () => {
    expect(pages['company/H0004']).toContain(`<h2 id="conduct-h">Disclosure conduct (0)</h2> <p>${CATALOGUES.en.company.noConduct}</p>`);
    expect(pages['zh-TW/company/H0004']).toContain(`<p>${CATALOGUES['zh-TW'].company.noConduct}</p>`);
    expect(errors).toEqual([]);
    expect(requests.filter((u) => !u.startsWith(`${BASE}/`))).toEqual([]);
  });
});

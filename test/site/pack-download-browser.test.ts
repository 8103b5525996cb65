import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMetered, type Metered } from '../server/access/harness.js';
import { horizontalOverflow, seriousViolations } from './browser-session.js';
import { demoSnapshotsDir } from '../helpers/demo-snapshots-dir.js';

/**
 * The evidence-pack download on the ranking and company pages, in Debian's chromium: pick
 * companies, give a key, get a zip that unzips and verifies with `sha256sum -c`; the selection and
 * the key last for the tab's session only; errors are said on the page; axe finds nothing serious.
 */
let shim: Metered;
let browser: Browser;
let work: string;
let key: string;

beforeAll(async () => {
  shim = await startMetered(demoSnapshotsDir);
  key = shim.newKey('developer');
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  work = mkdtempSync(join(tmpdir(), 'esg-pack-browser-'));
});
afterAll(async () => {
  await browser?.close();
  await shim?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

async function newTab(width = 1280): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ acceptDownloads: true, viewport: { width, height: 900 } });
  const page = await context.newPage();
  // Nothing may leave the shim's host.
  await page.route('**/*', (route) => (route.request().url().startsWith(`${shim.base}/`) ? route.continue() : route.abort()));
  return { context, page };
}

const go = async (page: Page, path: string) => expect((await page.goto(shim.base + path, { waitUntil: 'networkidle' }))?.status()).toBe(200);
const field = (page: Page) => page.getByLabel(/^Companies/);
const status = (page: Page) => page.locator('[data-pack-status]');

/** Clicks Download, saves the zip, unzips it with Debian's unzip and checks it with sha256sum -c; returns the tickers inside. */
async function downloadAndVerify(page: Page): Promise<string[]> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download pack' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^evidence-pack-\d{4}-\d{2}-\d{2}(\.\d+)?\.zip$/);
  const dir = mkdtempSync(join(work, 'pack-'));
  await download.saveAs(join(dir, download.suggestedFilename()));
  execFileSync('unzip', ['-q', download.suggestedFilename()], { cwd: dir });
  const top = join(dir, download.suggestedFilename().replace(/\.zip$/, ''));
  execFileSync('sha256sum', ['-c', '--strict', '--quiet', 'SHA256SUMS'], { cwd: top });
  return readdirSync(join(top, 'companies')).sort();
}

describe('the pack download', () => {
  it('on the ranking page: tick rows, give a key, download a zip that verifies', async () => {
    const { context, page } = await newTab();
    await go(page, '/ranking/');
    const rows = page.locator('table.ranking tbody tr');
    const tickers: string[] = [];
    for (const i of [0, 2, 5]) {
      const row = rows.nth(i);
      tickers.push((await row.getAttribute('data-ticker'))!);
      await row.getByRole('checkbox').check();
    }
    expect(await field(page).inputValue()).toBe(tickers.join(' '));
    await expect.poll(() => page.locator('[data-pack-count]').textContent()).toBe('3 chosen.');
    // Unticking takes a company out again.
    await rows.nth(2).getByRole('checkbox').uncheck();
    await rows.nth(2).getByRole('checkbox').check();
    await page.getByLabel('API key').fill(key);
    expect(await downloadAndVerify(page)).toEqual([...tickers].sort());
    expect(await status(page).textContent()).toMatch(/^Downloaded evidence-pack-.*\.zip: 3 companies, \d+ KB\.$/);

    // The choice and the key are kept for this tab's session, on the next page of the ranking too…
    await go(page, '/ranking/page/2/');
    expect((await field(page).inputValue()).split(' ').sort()).toEqual([...tickers].sort());
    expect(await page.getByLabel('API key').inputValue()).toBe(key);
    // …only in sessionStorage: no cookie, nothing in localStorage.
    expect(await context.cookies()).toEqual([]);
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    await context.close();
  });

  it('on a company page: the company is chosen already, and more can be typed', async () => {
    const { context, page } = await newTab();
    await go(page, '/company/D1101/');
    expect(await field(page).inputValue()).toBe('D1101');
    await field(page).fill('D1101, d1102');
    await page.getByLabel('API key').fill(key);
    expect(await downloadAndVerify(page)).toEqual(['D1101', 'D1102']);
    await context.close();
  });

  it('a new session starts without the key', async () => {
    const { context, page } = await newTab();
    await go(page, '/company/D1101/');
    expect(await page.getByLabel('API key').inputValue()).toBe('');
    await context.close();
  });

  it('says on the page what went wrong: no key, a dead key, a tier without packs, an unknown code', async () => {
    const { context, page } = await newTab();
    await go(page, '/company/D1101/');
    await page.getByRole('button', { name: 'Download pack' }).click();
    await expect.poll(() => status(page).textContent()).toContain('Give your API key');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('pack-key');

    await page.getByLabel('API key').fill('not-a-live-key');
    await page.getByRole('button', { name: 'Download pack' }).click();
    await expect.poll(() => status(page).textContent()).toContain('(401 UNAUTHORIZED)');

    await page.getByLabel('API key').fill(shim.newKey('academic'));
    await page.getByRole('button', { name: 'Download pack' }).click();
    await expect.poll(() => status(page).textContent()).toMatch(/does not include evidence packs.*developer, commercial.*\(403 FORBIDDEN\)/);

    await page.getByLabel('API key').fill(key);
    await field(page).fill('D1101 ZZ9999');
    await page.getByRole('button', { name: 'Download pack' }).click();
    await expect.poll(() => status(page).textContent()).toContain('ZZ9999');
    await context.close();
  });

  it('passes axe on both pages, with the form shown, at desktop and phone width; nothing overflows the phone', async () => {
    for (const width of [1280, 390]) {
      for (const path of ['/ranking/', '/company/D1101/']) {
        const { context, page } = await newTab(width);
        await go(page, path);
        await expect.poll(() => page.locator('[data-pack-form]').isVisible()).toBe(true);
        expect(await seriousViolations(page, (b) => b.include('[data-pack]').include('table.ranking')), `${path} at ${width}px`).toEqual([]);
        expect(await horizontalOverflow(page), `${path} at ${width} px`).toBeLessThanOrEqual(0);
        await context.close();
      }
    }
  });
});

import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { horizontalOverflow, launchChromium, SCREENSHOTS, seriousViolations } from './browser-session.js';
import { englishUi } from './english-ui.js';
import { CATALOGUES } from '../../src/site/i18n/index.js';
import { demoSnapshotsDir } from '../helpers/demo-snapshots-dir.js';
import { startKeysShim, type KeysShim } from '../helpers/keys-shim.js';

/**
 * The keys page in Debian's chromium against a real in-process SMTP server, in both languages: fill
 * the form, submit, read the mail, follow its link, press the button, see the key; then use it,
 * rotate it and revoke it from a mailed usage link. The English run has JavaScript off (the flow is
 * plain forms; axe, which runs as a script, checks the Chinese run's pages and the page walk's /keys/);
 * screenshots `keys-*.png` and `zh-TW-keys-*.png` go to test/site/screenshots/.
 */
let s: KeysShim;
let browser: Browser;

beforeAll(async () => {
  s = await startKeysShim(demoSnapshotsDir);
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await s?.close();
});

async function tab(javaScript: boolean): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: javaScript });
  const page = await context.newPage();
  // Nothing may leave the shim's host.
  await page.route('**/*', (route) => (route.request().url().startsWith(`${s.base}/`) ? route.continue() : route.abort()));
  return page;
}

const shot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });

/** The metered call the key is for. */
const ranking = async (key: string) =>
  (await fetch(`${s.base}/api/v1/ranking?limit=2`, { headers: { 'X-API-Key': key }, signal: AbortSignal.timeout(10_000) })).status;

/** Presses a form's button and waits for the page its POST answers with. */
async function press(page: Page, name: string | RegExp): Promise<void> {
  await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST', { timeout: 15_000 }),
    page.getByRole('button', { name }).click({ timeout: 15_000 }),
  ]);
  await page.waitForLoadState('load');
}

/** Follows a mailed link in the tab and presses its one button; returns the page it leads to. */
async function follow(page: Page, link: string, button: string | RegExp, screenshot?: string): Promise<void> {
  expect((await page.goto(link))?.status()).toBe(200);
  if (screenshot) await shot(page, screenshot);
  await press(page, button);
}

describe('the keys page in a browser', () => {
  it('English, JavaScript off: ask, confirm, see the key once, use it, rotate it, revoke it; a reused link refused', async () => {
    const page = await tab(false);
    expect((await page.goto(`${s.base}/keys/`))?.status()).toBe(200);
    await shot(page, 'keys-form');
    await page.locator('#ask-email').fill('mei@example.org');
    await page.locator('#ask-use').fill('A dashboard of carbon-fee liabilities');
    await press(page, 'Mail me the link');
    expect(await page.locator('h1').textContent()).toBe('Check your mail');
    await shot(page, 'keys-sent');

    const mail = await s.inbox!.next('mei@example.org');
    await follow(page, mail.link, 'Confirm and continue', 'keys-confirm');
    expect(await page.locator('h1').textContent()).toBe('Your API key');
    const key = (await page.locator('[data-key]').textContent())!;
    expect(key).toMatch(/^esg_[0-9a-f]{10}_/);
    await shot(page, 'keys-key');
    expect(await ranking(key)).toBe(200);

    // The same link again: refused, and the key is not shown again.
    expect((await page.goto(mail.link))?.status()).toBe(410);
    expect(await page.locator('h1').textContent()).toBe('This link no longer works');
    expect(await page.content()).not.toContain(key);
    await shot(page, 'keys-used');

    // Usage, then rotate.
    expect((await page.goto(`${s.base}/keys/`))?.status()).toBe(200);
    await page.locator('#manage-email').fill('mei@example.org');
    await press(page, 'Mail me a link to my keys');
    await follow(page, (await s.inbox!.next('mei@example.org')).link, 'Show my keys');
    expect(await page.locator('h1').textContent()).toBe('Your keys');
    await expect.poll(() => page.locator('[data-key-id] td').nth(1).textContent()).toBe('1'); // the one ranking call
    await shot(page, 'keys-usage');
    await press(page, /^Rotate/);
    const fresh = (await page.locator('[data-key]').textContent())!;
    expect(fresh).not.toBe(key);
    expect(await ranking(key)).toBe(401);
    expect(await ranking(fresh)).toBe(200);
    await shot(page, 'keys-rotated');

    // Revoke the new one.
    expect((await page.goto(`${s.base}/keys/`))?.status()).toBe(200);
    await page.locator('#manage-email').fill('mei@example.org');
    await press(page, 'Mail me a link to my keys');
    await follow(page, (await s.inbox!.next('mei@example.org')).link, 'Show my keys');
    // Revoke asks first: the key works until the second button.
    await press(page, 'Revoke this key');
    expect(await page.locator('h1').textContent()).toMatch(/^Revoke key [0-9a-f]+\?$/);
    expect(await ranking(fresh)).toBe(200);
    await press(page, 'Yes, revoke the key');
    expect(await page.locator('h1').textContent()).toBe('Key revoked');
    expect(await ranking(fresh)).toBe(401);
    await page.context().close();
  }, 120_000);

  it('Chinese: the same form and flow in Traditional Chinese, its mail and link in Chinese', async () => {
    const page = await tab(true);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    expect((await page.goto(`${s.base}/zh-TW/keys/`))?.status()).toBe(200);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'zh-TW-keys-form');
    expect(englishUi(await page.content(), CATALOGUES.en), 'zh-TW-keys-form').toEqual([]);
    await page.locator('input[name=tier][value=academic]').check();
    await page.locator('#ask-email').fill('wang@ntu.edu.tw');
    await page.locator('#ask-use').fill('研究上市公司碳揭露品質');
    await press(page, '寄送連結給我');
    expect(await page.locator('h1').textContent()).toBe('請查看您的信箱');
    await shot(page, 'zh-TW-keys-sent');
    expect(englishUi(await page.content(), CATALOGUES.en), 'zh-TW-keys-sent').toEqual([]);
    const mail = await s.inbox!.next('wang@ntu.edu.tw');
    expect(mail.subject).toBe('請確認您的 API 金鑰申請');
    expect(mail.link).toContain('/zh-TW/keys/link?t=');
    await follow(page, mail.link, '確認並繼續', 'zh-TW-keys-confirm');
    // Academic: confirmed, waiting for the operator.
    expect(await page.locator('h1').textContent()).toBe('申請已確認');
    await shot(page, 'zh-TW-keys-pending');
    expect(englishUi(await page.content(), CATALOGUES.en), 'zh-TW-keys-pending').toEqual([]);
    expect(errors).toEqual([]);

    // A developer key, to see one shown in Chinese.
    expect((await page.goto(`${s.base}/zh-TW/keys/`))?.status()).toBe(200);
    await page.locator('#ask-email').fill('wang@ntu.edu.tw');
    await page.locator('#ask-use').fill('研究上市公司碳揭露品質');
    await press(page, '寄送連結給我');
    await follow(page, (await s.inbox!.next('wang@ntu.edu.tw')).link, '確認並繼續');
    expect(await page.locator('h1').textContent()).toBe('您的 API 金鑰');
    const key = (await page.locator('[data-key]').textContent())!;
    expect(await ranking(key)).toBe(200);
    expect(await page.locator('html').getAttribute('lang')).toBe('zh-Hant-TW');
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'zh-TW-keys-key');
    // On a phone the key and its example command wrap rather than widen the page.
    await page.setViewportSize({ width: 390, height: 900 });
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await shot(page, 'zh-TW-keys-key-390');
    expect(englishUi(await page.content(), CATALOGUES.en), 'zh-TW-keys-key').toEqual([]);
    await page.context().close();
  }, 120_000);
});

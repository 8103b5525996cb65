import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { horizontalOverflow, launchChromium, SCREENSHOTS, seriousViolations, WIDTHS } from './browser-session.js';
import { KeyStore } from '../../server/access/key-store.js';
import { MAIL_LIMITS } from '../../src/contract/key-requests.js';
import { CATALOGUES } from '../../src/site/i18n/index.js';
import { demoSnapshotsDir } from '../helpers/demo-snapshots-dir.js';
import { startKeysShim, type KeysShim } from '../helpers/keys-shim.js';

/**
 * Tried as a new user would: the keys and sign-in pages on a 390 px phone in both
 * languages (screenshots `flow-*.png` in test/site/screenshots/, axe, nothing wider than the
 * screen); the language switch in the middle of a sign-in keeps the step and its state (the same
 * client, the same redirect, the state the client sent back at the end); the switch on the page that
 * shows a key once shows the same key in the other language, and never puts it in a URL; Revoke asks
 * first, with JavaScript off; Allow and Refuse do not look alike; /zh-TW/sources/ describes the
 * sources in Chinese.
 */
let s: KeysShim;
let keys: KeyStore;
let browser: Browser;
let callback: { server: Server; origin: string };
const zh = CATALOGUES['zh-TW'];
const en = CATALOGUES.en;

beforeAll(async () => {
  s = await startKeysShim(demoSnapshotsDir, { limits: { ...MAIL_LIMITS, perAddress: 100, perEmail: 100 } });
  keys = KeyStore.open(s.keysPath, { maxStalenessMs: 0 });
  const server = createServer((_req, res) => res.end('<!doctype html><html lang="en"><title>Callback</title><p>Done.</p></html>'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  callback = { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  browser = await launchChromium();
}, 600_000);
afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (callback ? callback.server.close(() => resolve()) : resolve()));
  keys?.close();
  await s?.close();
});

/** A phone-sized tab (390 px) whose every URL visited is recorded; only the shim and the callback are reachable. */
async function phone(o: { javaScript?: boolean; locale?: string } = {}): Promise<{ page: Page; urls: string[] }> {
  const context = await browser.newContext({
    viewport: { width: WIDTHS.phone, height: 844 },
    javaScriptEnabled: o.javaScript ?? true,
    locale: o.locale,
  });
  const page = await context.newPage();
  const urls: string[] = [];
  await page.route('**/*', (route) => {
    const url = route.request().url();
    urls.push(url);
    return url.startsWith(`${s.base}/`) || url.startsWith(`${callback.origin}/`) ? route.continue() : route.abort();
  });
  return { page, urls };
}

const shot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `flow-${name}.png`), fullPage: true });

/** At 390 px: a screenshot, nothing wider than the screen, and (with JavaScript on) no serious axe violation. */
async function checkPhone(page: Page, name: string, axe = true): Promise<void> {
  await shot(page, name);
  expect(await horizontalOverflow(page), `${name} at 390 px`).toBeLessThanOrEqual(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth), name).toBeLessThanOrEqual(WIDTHS.phone);
  if (axe) expect(await seriousViolations(page), name).toEqual([]);
}

/** Presses a button (a form's POST) and waits for the page it answers with. */
async function press(page: Page, locator: ReturnType<Page['locator']>): Promise<void> {
  await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST', { timeout: 15_000 }), locator.click({ timeout: 15_000 })]);
  await page.waitForLoadState('load');
}

const h1 = (page: Page) => page.locator('h1').textContent();
const langSwitch = (page: Page) => page.locator('[data-lang-switch]');

async function register(): Promise<{ client_id: string; redirect_uri: string }> {
  const redirect_uri = `${callback.origin}/callback`;
  const res = await fetch(`${s.base}/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ client_name: 'Phone Assistant', redirect_uris: [redirect_uri], token_endpoint_auth_method: 'none' }),
  });
  expect(res.status).toBe(201);
  return { client_id: ((await res.json()) as { client_id: string }).client_id, redirect_uri };
}

describe('the flows’ pages on a phone, and their language switch', () => {
  it('/keys/ in both languages fits a 390 px phone, passes axe, and its switch leads to the other language’s /keys/', async () => {
    for (const [path, other, name] of [
      ['/keys/', '/zh-TW/keys/', 'keys'],
      ['/zh-TW/keys/', '/keys/', 'zh-TW-keys'],
    ] as const) {
      const { page } = await phone();
      expect((await page.goto(s.base + path))?.status()).toBe(200);
      await checkPhone(page, name);
      expect(await langSwitch(page).getAttribute('href')).toBe(other);
      await page.context().close();
    }
  }, 120_000);

  it('switches language in the middle of a sign-in: the same client and redirect, then mail, consent and callback in Chinese with the state kept', async () => {
    const email = 'switcher@example.org';
    const key = keys.create({ tier: 'developer', owner: email, email });
    const client = await register();
    const state = randomBytes(12).toString('base64url');
    const url = new URL(`${s.base}/authorize`);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: client.redirect_uri,
      code_challenge: createHash('sha256').update(randomBytes(32)).digest('base64url'),
      code_challenge_method: 'S256',
      state,
      resource: `${s.base}/mcp`,
    }).toString();
    const { page, urls } = await phone({ locale: 'en-GB' });
    expect((await page.goto(url.href))?.status()).toBe(200);
    expect(await h1(page)).toBe(en.oauth.signInTitle);
    await checkPhone(page, 'oauth-sign-in');

    // The switch mid-sign-in: the same sign-in in Chinese (same client, same redirect), not /zh-TW/keys/.
    await press(page, langSwitch(page));
    expect(new URL(page.url()).pathname).toBe('/zh-TW/oauth/sign-in');
    expect(await h1(page)).toBe(zh.oauth.signInTitle);
    expect(await page.locator('html').getAttribute('lang')).toBe('zh-Hant-TW');
    const main = (await page.locator('main').textContent())!;
    expect(main).toContain('Phone Assistant');
    expect(main).toContain(new URL(client.redirect_uri).host);
    await checkPhone(page, 'zh-TW-oauth-sign-in');

    await page.getByLabel(zh.oauth.emailLabel).fill(email);
    await press(page, page.getByRole('button', { name: zh.oauth.signIn, exact: true }));
    expect(await h1(page)).toBe(zh.oauth.sentTitle);
    await checkPhone(page, 'zh-TW-oauth-sent');
    const mail = await s.inbox!.next(email);
    // The mail and its link are in the language switched to.
    expect(mail.subject).toBe(zh.oauth.mail.subject);
    expect(new URL(mail.link).pathname).toBe('/zh-TW/oauth/consent');

    // The consent page's switch: the same link in English, nothing spent; then back to Chinese.
    expect((await page.goto(mail.link))?.status()).toBe(200);
    expect(await h1(page)).toBe(zh.oauth.consentTitle);
    await checkPhone(page, 'zh-TW-oauth-consent');
    const toEnglish = await langSwitch(page).getAttribute('href');
    expect(toEnglish).toBe(`/oauth/consent${new URL(mail.link).search}`);
    await Promise.all([page.waitForLoadState('load'), langSwitch(page).click()]);
    expect(await h1(page)).toBe(en.oauth.consentTitle);
    await checkPhone(page, 'oauth-consent');
    // Allow is the filled (primary) button, Refuse the outlined one: they do not look alike.
    const look = (sel: string) => page.locator(sel).evaluate((b) => getComputedStyle(b).backgroundColor);
    expect(await look('[data-allow]')).not.toBe(await look('[data-deny]'));
    await Promise.all([page.waitForLoadState('load'), langSwitch(page).click()]);
    expect(await h1(page)).toBe(zh.oauth.consentTitle);

    await page.getByLabel(zh.oauth.keyOption(key.record.id, zh.keys.tierNames.developer)).check();
    await page.getByRole('button', { name: zh.oauth.allow, exact: true }).click();
    await page.waitForURL((u) => u.origin === callback.origin, { timeout: 15_000 });
    const landed = new URL(page.url());
    expect(landed.searchParams.get('state')).toBe(state);
    expect(landed.searchParams.get('code')).toBeTruthy();
    // No page of the flow put an e-mail address or a request id in a URL.
    expect(urls.filter((u) => u.includes('%40') || u.includes('request='))).toEqual([]);
    await page.context().close();
  }, 180_000);

  it('the switch on the page that shows a key once shows the same key in the other language, by a form (never in a URL)', async () => {
    const email = 'once@example.org';
    const { page, urls } = await phone();
    expect((await page.goto(`${s.base}/keys/`))?.status()).toBe(200);
    await page.locator('#ask-email').fill(email);
    await page.locator('#ask-use').fill('A phone-sized test');
    await press(page, page.getByRole('button', { name: en.keys.ask }));
    await checkPhone(page, 'keys-sent');
    const mail = await s.inbox!.next(email);
    expect((await page.goto(mail.link))?.status()).toBe(200);
    // The link page's switch: the same link in Chinese, unspent.
    expect(await langSwitch(page).getAttribute('href')).toBe(`/zh-TW/keys/link${new URL(mail.link).search}`);
    await Promise.all([page.waitForLoadState('load'), langSwitch(page).click()]);
    expect(await h1(page)).toBe(zh.keys.linkTitle.confirm);
    await checkPhone(page, 'zh-TW-keys-confirm');
    await press(page, page.getByRole('button', { name: zh.keys.linkButton.confirm }));
    expect(await h1(page)).toBe(zh.keys.keyTitle);
    const key = (await page.locator('[data-key]').textContent())!;
    await checkPhone(page, 'zh-TW-keys-key');

    await press(page, langSwitch(page));
    expect(await h1(page)).toBe(en.keys.keyTitle);
    expect(await page.locator('[data-key]').textContent()).toBe(key);
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    await checkPhone(page, 'keys-key');
    expect(urls.filter((u) => u.includes(key) || u.includes(encodeURIComponent(key)))).toEqual([]);
    // A key that is not live is not shown by that route.
    const forged = await s.post('/keys/shown', { key: `${key.slice(0, -1)}${key.endsWith('0') ? '1' : '0'}` });
    expect(forged.status).toBe(410);
    expect(forged.html).not.toContain('data-key>');
    await page.context().close();
  }, 180_000);

  it('Revoke asks first (JavaScript off): the usage page, its switch, the question, No keeps the key, Yes revokes it', async () => {
    const email = 'revoker@example.org';
    const made = keys.create({ tier: 'developer', owner: email, email });
    const { page } = await phone({ javaScript: false });
    const live = async () => (await fetch(`${s.base}/api/v1/ranking?limit=1`, { headers: { 'X-API-Key': made.key } })).status;
    expect((await page.goto(`${s.base}/zh-TW/keys/`))?.status()).toBe(200);
    await page.locator('#manage-email').fill(email);
    await press(page, page.getByRole('button', { name: zh.keys.manage }));
    expect((await page.goto((await s.inbox!.next(email)).link))?.status()).toBe(200);
    await press(page, page.getByRole('button', { name: zh.keys.linkButton.manage }));
    expect(await h1(page)).toBe(zh.keys.manageTitle);
    await checkPhone(page, 'zh-TW-keys-usage', false);
    // The usage page's switch: the same page in English, its buttons still working.
    await press(page, langSwitch(page));
    expect(await h1(page)).toBe(en.keys.manageTitle);
    await checkPhone(page, 'keys-usage', false);

    await press(page, page.locator('[data-revoke]'));
    expect(await h1(page)).toBe(en.keys.revokeAskTitle(made.record.id));
    await checkPhone(page, 'keys-revoke-ask', false);
    expect(await live()).toBe(200);
    await press(page, page.locator('[data-revoke-no]'));
    expect(await h1(page)).toBe(en.keys.manageTitle);
    expect(await live()).toBe(200);

    await press(page, page.locator('[data-revoke]'));
    await press(page, page.locator('[data-revoke-yes]'));
    expect(await h1(page)).toBe(en.keys.revokedTitle);
    expect(await live()).toBe(401);
    await page.context().close();
  }, 180_000);

  it('/zh-TW/sources/ describes every source in Chinese', async () => {
    const { page } = await phone();
    expect((await page.goto(`${s.base}/zh-TW/sources/`))?.status()).toBe(200);
    const descriptions = await page.locator('.source-entry > p:nth-of-type(2)').allTextContents();
    expect(descriptions.length).toBeGreaterThan(5);
    for (const d of descriptions) expect([...d].filter((c) => /\p{Script=Han}/u.test(c)).length, d).toBeGreaterThan(30);
    expect(await page.locator('.source-entry p[lang="en"]').count()).toBe(0);
    await checkPhone(page, 'zh-TW-sources');
    await page.context().close();
  }, 120_000);
});

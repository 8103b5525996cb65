import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { horizontalOverflow, launchChromium, SCREENSHOTS, seriousViolations, WIDTHS } from './browser-session.js';
import { englishUi } from './english-ui.js';
import { KeyStore } from '../../server/access/key-store.js';
import { MAIL_LIMITS } from '../../src/contract/key-requests.js';
import { CATALOGUES } from '../../src/site/i18n/index.js';
import type { Locale } from '../../src/site/i18n/locales.js';
import { demoSnapshotsDir } from '../helpers/demo-snapshots-dir.js';
import { startKeysShim, type KeysShim } from '../helpers/keys-shim.js';

/**
 * OAuth's pages in Debian's chromium, in both languages: an assistant registers over HTTP
 * with a redirect to a loopback listener of this test (its "callback", as a desktop client runs
 * one), a person opens the authorization URL (PKCE S256), gives the address, follows the mailed link
 * (a real in-process SMTP server), picks the second of two keys and presses Allow, and the browser
 * lands on the callback with the code, the state and the issuer: the consent page's
 * Content-Security-Policy (`form-action 'self' <redirect origin>`) lets the form's redirect through in
 * a real browser. The code then buys a token that calls /mcp against the chosen key. Refuse lands on
 * the callback with `error=access_denied`. axe checks the sign-in and consent pages; at 390 px they
 * do not scroll sideways; screenshots `oauth-*.png` and `zh-TW-oauth-*.png` go to test/site/screenshots/.
 */
let s: KeysShim;
let keys: KeyStore;
let browser: Browser;
let callback: { server: Server; origin: string; hits: URL[] };

/** The assistant's loopback listener: records what it is sent, answers with a plain page. */
async function startCallback(): Promise<typeof callback> {
  const hits: URL[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/callback') hits.push(url);
    res.writeHead(url.pathname === '/callback' ? 200 : 404, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><html lang="en"><title>Callback</title><p>You can close this tab.</p></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits };
}

beforeAll(async () => {
  s = await startKeysShim(demoSnapshotsDir, { limits: { ...MAIL_LIMITS, perAddress: 100, perEmail: 100 } });
  keys = KeyStore.open(s.keysPath, { maxStalenessMs: 0 });
  callback = await startCallback();
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (callback ? callback.server.close(() => resolve()) : resolve()));
  keys?.close();
  await s?.close();
});

/** A tab in a browser whose language is `locale` (its Accept-Language); only the shim and the callback are reachable. */
async function tab(locale: string): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport: { width: WIDTHS.desktop, height: 900 }, locale });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  // A form blocked by the policy is only a console error: collected, so a failure says so.
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  await page.route('**/*', (route) => {
    const url = route.request().url();
    return url.startsWith(`${s.base}/`) || url.startsWith(`${callback.origin}/`) ? route.continue() : route.abort();
  });
  return { page, problems };
}

const shot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });

interface Client {
  client_id: string;
  redirect_uri: string;
}

/** Dynamic client registration (RFC 7591), as an assistant does it: a public client (PKCE, no secret). */
async function register(name: string): Promise<Client> {
  const redirect_uri = `${callback.origin}/callback`;
  const res = await fetch(`${s.base}/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      client_name: name,
      redirect_uris: [redirect_uri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    }),
    signal: AbortSignal.timeout(10_000),
  });
  expect(res.status).toBe(201);
  return { client_id: ((await res.json()) as { client_id: string }).client_id, redirect_uri };
}

/** The authorization URL an assistant opens, with a fresh PKCE verifier (S256) and state. */
function authorization(client: Client, extra: Record<string, string> = {}) {
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(12).toString('base64url');
  const url = new URL(`${s.base}/authorize`);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: client.redirect_uri,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state,
    resource: `${s.base}/mcp`,
    ...extra,
  }).toString();
  return { url: url.href, verifier, state };
}

/** Presses a form's button and waits for the page its POST answers with. */
async function press(page: Page, name: string): Promise<void> {
  await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST', { timeout: 15_000 }),
    page.getByRole('button', { name, exact: true }).click({ timeout: 15_000 }),
  ]);
  await page.waitForLoadState('load');
}

/** Presses a consent button and waits until the browser is on the callback; returns where it landed. */
async function pressToCallback(page: Page, name: string, problems: string[]): Promise<URL> {
  const before = callback.hits.length;
  await page.getByRole('button', { name, exact: true }).click({ timeout: 15_000 });
  await page
    .waitForURL((u) => u.origin === callback.origin, { timeout: 15_000 })
    .catch(() => {
      throw new Error(`the browser did not reach the callback (still on ${page.url()}): ${problems.join(' | ')}`);
    });
  // The listener itself was asked, not just the address bar changed.
  expect(callback.hits.length).toBe(before + 1);
  return new URL(page.url());
}

/** The sign-in page → the mail → the consent page; screenshots and checks on the way. Returns on the consent page. */
async function toConsent(
  page: Page,
  o: { locale: Locale; prefix: string; email: string; client: string; authorizeUrl: string; checks: boolean },
): Promise<void> {
  const t = CATALOGUES[o.locale].oauth;
  // The client's name is data (in whatever language it registered), not text of the page.
  const english = async (name: string) =>
    o.locale === 'en' ? undefined : expect(englishUi((await page.content()).replaceAll(o.client, ''), CATALOGUES.en), name).toEqual([]);

  expect((await page.goto(o.authorizeUrl))?.status()).toBe(200);
  expect(await page.locator('h1').textContent()).toBe(t.signInTitle);
  expect(await page.locator('html').getAttribute('lang')).toBe(o.locale === 'en' ? 'en' : 'zh-Hant-TW');
  expect(await page.locator('main').textContent()).toContain(o.client);
  if (o.checks) {
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, `${o.prefix}oauth-sign-in`);
    await english(`${o.prefix}oauth-sign-in`);
    await page.setViewportSize({ width: WIDTHS.phone, height: 900 });
    expect(await horizontalOverflow(page), 'sign-in page at 390 px').toBeLessThanOrEqual(0);
    await shot(page, `${o.prefix}oauth-sign-in-390`);
    await page.setViewportSize({ width: WIDTHS.desktop, height: 900 });
  }
  await page.getByLabel(t.emailLabel).fill(o.email);
  await press(page, t.signIn);
  expect(await page.locator('h1').textContent()).toBe(t.sentTitle);
  if (o.checks) {
    await shot(page, `${o.prefix}oauth-sent`);
    await english(`${o.prefix}oauth-sent`);
  }

  const mail = await s.inbox!.next(o.email);
  expect(mail.subject).toBe(t.mail.subject);
  expect(mail.text).toContain(o.client);
  expect((await page.goto(mail.link))?.status()).toBe(200);
  expect(await page.locator('h1').textContent()).toBe(t.consentTitle);
  if (o.checks) {
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, `${o.prefix}oauth-consent`);
    await english(`${o.prefix}oauth-consent`);
    await page.setViewportSize({ width: WIDTHS.phone, height: 900 });
    expect(await horizontalOverflow(page), 'consent page at 390 px').toBeLessThanOrEqual(0);
    await shot(page, `${o.prefix}oauth-consent-390`);
    await page.setViewportSize({ width: WIDTHS.desktop, height: 900 });
  }
}

/** The code for a token at /token (PKCE: the verifier), then a tool call with it. */
async function tokenFor(client: Client, code: string, verifier: string): Promise<string> {
  const res = await fetch(`${s.base}/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      client_id: client.client_id,
      redirect_uri: client.redirect_uri,
      resource: `${s.base}/mcp`,
    }),
    signal: AbortSignal.timeout(10_000),
  });
  expect(res.status).toBe(200);
  const tokens = (await res.json()) as { access_token: string; token_type: string };
  expect(tokens.token_type.toLowerCase()).toBe('bearer');
  expect(tokens.access_token).toMatch(/^esgat_/);
  return tokens.access_token;
}

const toolCall = (token: string) =>
  fetch(`${s.base}/mcp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_company', arguments: { ticker: 'D1101' } } }),
    signal: AbortSignal.timeout(10_000),
  });

const usageOf = async (key: string) => {
  const res = await fetch(`${s.base}/api/v1/usage`, { headers: { 'X-API-Key': key }, signal: AbortSignal.timeout(10_000) });
  const body = (await res.json()) as { buckets: { bucket: string; used: number }[] };
  return body.buckets.find((b) => b.bucket === 'calls/day')!.used;
};

describe('OAuth sign-in and consent in a browser', () => {
  const cases: { name: string; locale: Locale; browserLocale: string; prefix: string; client: string; extra?: Record<string, string> }[] = [
    { name: 'English', locale: 'en', browserLocale: 'en-GB', prefix: '', client: 'Test Assistant' },
    { name: 'Chinese, from the browser’s language', locale: 'zh-TW', browserLocale: 'zh-TW', prefix: 'zh-TW-', client: 'Test Assistant' },
    {
      name: 'Chinese, from ui_locales in an English browser',
      locale: 'zh-TW',
      browserLocale: 'en-US',
      prefix: 'zh-TW-ui-locales-',
      client: 'Test Assistant',
      extra: { ui_locales: 'zh-TW' },
    },
  ];

  for (const c of cases) {
    it(`${c.name}: sign in, choose the second key, Allow lands on the callback; the code buys a token that calls /mcp on that key`, async () => {
      const email = `${c.prefix || 'en-'}person@example.org`.toLowerCase();
      const first = keys.create({ tier: 'developer', owner: email, email });
      const second = keys.create({ tier: 'academic', owner: email, email });
      const client = await register(c.client);
      const auth = authorization(client, c.extra);
      const { page, problems } = await tab(c.browserLocale);
      // Axe and the screenshots once per language; the ui_locales run checks the language and the landing.
      await toConsent(page, { locale: c.locale, prefix: c.prefix, email, client: c.client, authorizeUrl: auth.url, checks: !c.extra });

      const t = CATALOGUES[c.locale].oauth;
      const radios = page.locator('input[type=radio][name=key]');
      expect(await radios.count()).toBe(2);
      expect(await radios.nth(0).isChecked()).toBe(true);
      // The second key listed (not the one checked to begin with), chosen by its label as a person does.
      const [chosen, other] = (await radios.nth(1).getAttribute('value')) === second.record.id ? [second, first] : [first, second];
      await page.getByLabel(t.keyOption(chosen.record.id, CATALOGUES[c.locale].keys.tierNames[chosen.record.tier])).check();
      expect(await radios.nth(1).isChecked()).toBe(true);
      expect(await radios.nth(0).isChecked()).toBe(false);

      const landed = await pressToCallback(page, t.allow, problems);
      expect(landed.pathname).toBe('/callback');
      expect(landed.searchParams.get('state')).toBe(auth.state);
      expect(landed.searchParams.get('iss')).toBe(`${s.base}/`);
      const code = landed.searchParams.get('code');
      expect(code).toBeTruthy();
      expect(callback.hits.at(-1)!.searchParams.get('code')).toBe(code);
      if (!c.extra) await shot(page, `${c.prefix}oauth-callback`);
      expect(problems).toEqual([]);

      const token = await tokenFor(client, code!, auth.verifier);
      const res = await toolCall(token);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('D1101');
      // Counted against the key chosen, none against the other.
      expect(await usageOf(chosen.key)).toBe(1);
      expect(await usageOf(other.key)).toBe(0);
      await page.context().close();
    }, 120_000);
  }

  for (const c of cases.slice(0, 2)) {
    it(`${c.name}: Refuse lands on the callback with error=access_denied and the state, and no code`, async () => {
      const email = `${c.prefix || 'en-'}refuser@example.org`.toLowerCase();
      keys.create({ tier: 'developer', owner: email, email });
      const client = await register(c.client);
      const auth = authorization(client);
      const { page, problems } = await tab(c.browserLocale);
      await toConsent(page, { locale: c.locale, prefix: c.prefix, email, client: c.client, authorizeUrl: auth.url, checks: false });
      const landed = await pressToCallback(page, CATALOGUES[c.locale].oauth.deny, problems);
      expect(landed.searchParams.get('error')).toBe('access_denied');
      expect(landed.searchParams.get('state')).toBe(auth.state);
      expect(landed.searchParams.get('iss')).toBe(`${s.base}/`);
      expect(landed.searchParams.has('code')).toBe(false);
      expect(problems).toEqual([]);
      await page.context().close();
    }, 120_000);
  }
});

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser-session.js';
import { demoSnapshotsDir } from '../helpers/demo-snapshots-dir.js';
import { startKeysShim, type KeysShim } from '../helpers/keys-shim.js';

/**
 * The probe's cross-site post, made by a browser: a page of another site (`localhost`, against the
 * shim's `127.0.0.1`) whose form posts itself to the keys page's forms as soon as it loads. Chromium
 * sends what it sends (Sec-Fetch-Site, Origin), and the shim must refuse it and mail nothing, while
 * the same form on the keys page itself works (keys-browser.test.ts walks that flow).
 */
let s: KeysShim;
let browser: Browser;
let evil: Server;
let evilBase: string;

beforeAll(async () => {
  s = await startKeysShim(demoSnapshotsDir);
  browser = await launchChromium();
  evil = createServer((req, res) => {
    const action = `${s.base}${new URL(req.url!, 'http://x').searchParams.get('to')}`;
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.end(
      `<!doctype html><title>Win a prize</title><form method="post" action="${action}">` +
        `<input name="tier" value="developer"><input name="email" value="victim@example.org"><input name="use" value="Forged">` +
        `</form><script>document.forms[0].submit()</script>`,
    );
  });
  await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
  evilBase = `http://localhost:${(evil.address() as AddressInfo).port}`;
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => evil?.close(resolve));
  await s?.close();
});

describe('a form of the keys page posted by another site, in a browser', () => {
  it('is refused with a page saying so, and mails nothing', async () => {
    const page = await (await browser.newContext()).newPage();
    for (const to of ['/keys/ask', '/keys/manage', '/zh-TW/keys/ask']) {
      const [answer] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === 'POST', { timeout: 15_000 }),
        page.goto(`${evilBase}/?to=${encodeURIComponent(to)}`),
      ]);
      expect(answer.status(), to).toBe(403);
      expect(await answer.request().headerValue('sec-fetch-site')).toBe('cross-site');
      await page.waitForLoadState('load');
      expect(await page.locator('h1').textContent()).toBe(to.startsWith('/zh-TW') ? '由其他網站送出' : 'Sent from another site');
    }
    await page.context().close();
    await new Promise((r) => setTimeout(r, 300));
    expect(s.inbox!.received).toHaveLength(0);
  }, 60_000);
});

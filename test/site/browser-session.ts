/**
 * What the pages' browser tests share: Debian's chromium through playwright-core, pages opened with
 * every request off the shim refused (and recorded), console errors collected, and the walk over
 * page types that runs axe and takes the screenshots (test/site/screenshots/, ignored by git).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect } from 'vitest';
import type { RunningServer } from '../helpers/server.js';

export const SCREENSHOTS = join(import.meta.dirname, 'screenshots');
export const WIDTHS = { desktop: 1280, phone: 390 };

export interface BrowserSession {
  browser: Browser;
  /** Every request any page made, and every console or page error, across the session. */
  requests: string[];
  consoleErrors: string[];
  /** Opens a page at a width; a path among `notFound` must answer 404 (and its own 404 is not a console error). */
  open(path: string, width: number): Promise<Page>;
}

export async function browserSession(server: RunningServer, notFound: readonly string[]): Promise<BrowserSession> {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  mkdirSync(SCREENSHOTS, { recursive: true });
  const requests: string[] = [];
  const consoleErrors: string[] = [];
  const open = async (path: string, width: number) => {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    // Requests to anywhere but the shim are recorded and refused, so a page cannot pass by reaching out.
    await page.route('**/*', (route) => {
      const url = route.request().url();
      requests.push(url);
      return url.startsWith(`${server.base}/`) ? route.continue() : route.abort();
    });
    const missing = notFound.includes(path);
    page.on('console', (m) => {
      // The 404 page is itself answered with 404, which the browser logs; any other error counts.
      const ownStatus = missing && m.location().url === server.base + path && m.text().includes('404');
      if (m.type() === 'error' && !ownStatus) consoleErrors.push(`${path}: ${m.text()}`);
    });
    page.on('pageerror', (e) => consoleErrors.push(`${path}: ${e.message}`));
    const res = await page.goto(server.base + path, { waitUntil: 'networkidle' });
    expect(res?.status(), path).toBe(missing ? 404 : 200);
    return page;
  };
  return { browser, requests, consoleErrors, open };
}

/**
 * Every page type at desktop and phone width: a full-page screenshot `<prefix><name>-<width>.png`;
 * at desktop width no serious or critical axe violation (Scalar's widget, a third-party bundle with
 * violations of its own, left out) and whatever `desktop` checks; at phone width nothing wider than
 * the screen but inside the scrolling table wrappers.
 */
export async function walkPageTypes(session: BrowserSession, types: readonly [string, string][], prefix: string, desktop?: (page: Page, path: string) => Promise<void>): Promise<void> {
  for (const [name, path] of types) {
    for (const [label, width] of Object.entries(WIDTHS)) {
      const page = await session.open(path, width);
      await page.screenshot({ path: join(SCREENSHOTS, `${prefix}${name}-${label}.png`), fullPage: true });
      if (label === 'desktop') {
        const scan = await new AxeBuilder({ page }).exclude('#reference').analyze();
        const bad = scan.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
        expect(bad.map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`), path).toEqual([]);
        await desktop?.(page, path);
      } else {
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, `${path} at ${width} px`).toBeLessThanOrEqual(0);
      }
      await page.context().close();
    }
  }
}

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

/** Debian's chromium, headless, as every browser test runs it; the screenshots folder made. */
export async function launchChromium(): Promise<Browser> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

export async function browserSession(server: RunningServer, notFound: readonly string[]): Promise<BrowserSession> {
  const browser = await launchChromium();
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
 * axe's serious and critical violations on a page, as `rule: targets` lines. In axe's legacy mode (one
 * run in the page; these pages have no frames of their own) and with only violations' nodes worked
 * out (axe's documented setting for large pages): the same violations, a fraction of the time.
 * `scope` narrows or widens what is scanned.
 */
export async function seriousViolations(page: Page, scope: (b: AxeBuilder) => AxeBuilder = (b) => b): Promise<string[]> {
  const scan = await scope(new AxeBuilder({ page }).setLegacyMode(true).options({ resultTypes: ['violations'] })).analyze();
  return scan.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id}: ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(', ')}`,
    );
}

/**
 * Opens every group of Scalar's reference on /docs/: it renders the first group of operations (the
 * document's tags) and lists the others' until opened (src/contract/openapi-tags.ts says why).
 */
export async function openEveryDocsGroup(page: Page): Promise<void> {
  const more = page.locator('#reference button.show-more');
  // The buttons come once Scalar has rendered the first group, a moment after the page's load; each
  // goes once its group is open, and a click before then is lost.
  await more.first().waitFor({ timeout: 30_000 });
  while ((await more.count()) > 0) {
    const id = await more.first().getAttribute('id');
    await more.first().click();
    await page.locator(`#reference button.show-more[id="${id}"]`).waitFor({ state: 'detached', timeout: 30_000 });
  }
  await page.locator('#reference section[id$="/GET/api/v1/usage"]').waitFor({ timeout: 30_000 });
}

/** How many CSS pixels the page is wider than its viewport (0 or less: nothing overflows). */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/** Full-page screenshots stop at this height: Scalar's reference on /docs/ runs to tens of thousands of pixels. */
const SHOT_MAX_HEIGHT = 8000;

/**
 * Every page type at phone and desktop width: a full-page screenshot `<prefix><name>-<width>.png`
 * (up to SHOT_MAX_HEIGHT) at each; at phone width nothing wider than the screen but inside the
 * scrolling table wrappers; at desktop width no serious or critical axe violation (Scalar's widget, a
 * third-party bundle with violations of its own, left out) and whatever `desktop` checks. Each page
 * is opened once, at phone width, then widened (the layout is CSS media queries; no script reads
 * the width when it loads), so each type costs one load.
 */
export async function walkPageTypes(
  session: BrowserSession,
  types: readonly [string, string][],
  prefix: string,
  desktop?: (page: Page, path: string) => Promise<void>,
): Promise<void> {
  const shoot = async (page: Page, name: string, label: string, width: number) => {
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.screenshot({
      path: join(SCREENSHOTS, `${prefix}${name}-${label}.png`),
      fullPage: true,
      clip: { x: 0, y: 0, width, height: Math.min(height, SHOT_MAX_HEIGHT) },
    });
  };
  for (const [name, path] of types) {
    const page = await session.open(path, WIDTHS.phone);
    await shoot(page, name, 'phone', WIDTHS.phone);
    expect(await horizontalOverflow(page), `${path} at ${WIDTHS.phone} px`).toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: WIDTHS.desktop, height: 900 });
    await shoot(page, name, 'desktop', WIDTHS.desktop);
    expect(await seriousViolations(page, (b) => b.exclude('#reference')), path).toEqual([]);
    await desktop?.(page, path);
    await page.context().close();
  }
}

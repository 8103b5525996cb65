import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUIDE_LOCAL_ORIGIN } from '../../build-scripts/pages/research-guide.js';
import { pageUrls } from '../../src/site/i18n/paths.js';
import { currentSnapshotId } from '../../src/snapshot/published.js';
import { startServer, type RunningServer } from '../helpers/server.js';
import { horizontalOverflow, seriousViolations } from '../site/browser-session.js';
import { demoSeriesSnapshotsDir } from '../helpers/demo-series-dir.js';

/**
 * The researchers' guide (in English and in Chinese) and a download folder page in Debian's
 * chromium: no serious or critical axe violation, nothing wider than a phone's screen, no script
 * error, and the commands showing the host the page was opened on (the copy script swaps it in),
 * ready to copy.
 */
const WIDTHS = { desktop: 1280, phone: 390 };

let server: RunningServer;
let browser: Browser;
let folder: string;

beforeAll(async () => {
  const snapshotsDir = demoSeriesSnapshotsDir;
  server = await startServer(snapshotsDir);
  folder = pageUrls.downloadFolder(currentSnapshotId(snapshotsDir)!);
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('the guide and a folder page in a browser', () => {
  it('pass axe, fit a phone, and show copyable commands for the host they came from', { timeout: 120_000 }, async () => {
    for (const path of [pageUrls.research, '/zh-TW/research/', folder]) {
      for (const [label, width] of Object.entries(WIDTHS)) {
        const context = await browser.newContext({ viewport: { width, height: 900 } });
        const page = await context.newPage();
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(e.message));
        // Nothing may leave the host.
        await page.route('**/*', (route) => (route.request().url().startsWith(`${server.base}/`) ? route.continue() : route.abort()));
        const res = await page.goto(server.base + path, { waitUntil: 'networkidle' });
        expect(res?.status(), path).toBe(200);
        if (label === 'desktop') {
          expect(await seriousViolations(page), path).toEqual([]);
        } else {
          expect(await horizontalOverflow(page), `${path} at ${width} px`).toBeLessThanOrEqual(0);
        }
        const codes = await page.locator('.curl code').allTextContents();
        expect(codes.length, path).toBeGreaterThan(0);
        expect(codes.join('\n'), path).not.toContain(GUIDE_LOCAL_ORIGIN);
        expect(codes.join('\n'), path).toContain(server.base);
        expect(await page.locator('button[data-copy]:visible').count(), path).toBe(codes.length);
        expect(errors, path).toEqual([]);
        await context.close();
      }
    }
  });
});

import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openApiDocument } from '../../src/contract/openapi.js';
import { startServer, type RunningServer } from '../helpers/server.js';

/**
 * /docs/ in a real browser (Debian's chromium through playwright-core): Scalar shows the OpenAPI
 * document's examples, real bodies of the snapshot, where it used to show `"string"` placeholders.
 * A control run, on the document without its examples, shows that the check would see them.
 */
type Json = Record<string, any>;
let server: RunningServer;
let browser: Browser;
let doc: Json;

beforeAll(async () => {
  server = await startServer(inject('demoSnapshotsDir'));
  doc = (await (await fetch(`${server.base}/api/v1/openapi.json`)).json()) as Json;
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** /docs/ with Scalar rendered down to its last operation; `document` replaces the published one. */
async function openDocs(document?: unknown): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  if (document) await page.route('**/api/v1/openapi.json', (route) => route.fulfill({ contentType: 'application/json', body: JSON.stringify(document) }));
  await page.goto(`${server.base}/docs/`, { waitUntil: 'networkidle' });
  const last = page.locator('section[id="api-1/GET/api/v1/usage"]');
  await last.waitFor({ timeout: 30_000 });
  await last.scrollIntoViewIfNeeded();
  return page;
}
const section = (page: Page, method: string, path: string) => page.locator(`section[id="api-1/${method}${path}"]`);
/** The code blocks Scalar shows for bodies (its curl examples aside). */
async function bodies(page: Page): Promise<string[]> {
  return (await page.locator('#reference pre').allInnerTexts()).filter((t) => !t.trimStart().startsWith('curl'));
}

describe('the API reference on /docs/', () => {
  it('shows each operation\'s real example body, errors included, and no "string" placeholder', async () => {
    const page = await openDocs();
    /** The JSON body Scalar shows in an operation's response card. */
    const shownBody = async (where: ReturnType<typeof section>) => {
      const text = (await where.locator('pre').allInnerTexts()).find((t) => t.trimStart().startsWith('{'));
      return text === undefined ? undefined : JSON.parse(text);
    };
    let checked = 0;
    for (const [path, item] of Object.entries<Json>(doc.paths)) {
      for (const [method, op] of Object.entries<Json>(item)) {
        const example = op.responses['200']?.content?.['application/json']?.example;
        if (example === undefined) continue;
        const where = section(page, method.toUpperCase(), path);
        await where.scrollIntoViewIfNeeded();
        await expect.poll(() => shownBody(where), { message: `${method} ${path}` }).toEqual(example);
        checked++;
      }
    }
    expect(checked).toBe(16);
    expect((await bodies(page)).filter((t) => /"string"/.test(t))).toEqual([]);

    // Another status's tab shows that status's example: the real 404 for an unknown ticker.
    const company = section(page, 'GET', '/api/v1/company/{ticker}');
    await company.scrollIntoViewIfNeeded();
    await company.getByRole('tab', { name: /404/ }).click();
    await expect.poll(() => shownBody(company)).toEqual(doc.paths['/api/v1/company/{ticker}'].get.responses['404'].content['application/json'].example);

    // The request body of POST /batch: its example's tickers in Scalar's curl.
    const curl = (await section(page, 'POST', '/api/v1/batch').locator('pre').allInnerTexts()).find((t) => t.includes('--data'))!;
    for (const t of doc.paths['/api/v1/batch'].post.requestBody.content['application/json'].example.tickers) expect(curl).toContain(`"${t}"`);
    await page.close();
  }, 120_000);

  it('would show "string" placeholders without the examples (the check above can fail)', async () => {
    const page = await openDocs(openApiDocument(doc.info.version));
    expect((await bodies(page)).filter((t) => /"string"/.test(t)).length).toBeGreaterThan(0);
    await page.close();
  }, 90_000);
});

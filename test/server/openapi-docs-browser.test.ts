import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/contract/openapi.js';
import { startServer, type RunningServer } from '../helpers/server.js';
import { openEveryDocsGroup } from '../site/browser-session.js';
import { demoSnapshotsDir } from '../helpers/demo-snapshots-dir.js';

/**
 * /docs/ in a real browser (Debian's chromium through playwright-core): it settles within seconds
 * with no warning from Scalar's document check, and Scalar shows the OpenAPI document's examples,
 * real bodies of the snapshot, where it used to show `"string"` placeholders. Control runs, on the
 * document without its examples or as zod-openapi writes it, show that the checks would see them.
 */
type Json = Record<string, any>;
let server: RunningServer;
let browser: Browser;
let doc: Json;

beforeAll(async () => {
  server = await startServer(demoSnapshotsDir);
  doc = (await (await fetch(`${server.base}/api/v1/openapi.json`)).json()) as Json;
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** /docs/ with Scalar rendered down to its last operation; `document` replaces the published one. */
async function openDocs(document?: unknown): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  if (document)
    await page.route('**/api/v1/openapi.json', (route) => route.fulfill({ contentType: 'application/json', body: JSON.stringify(document) }));
  await page.goto(`${server.base}/docs/`, { waitUntil: 'networkidle' });
  await openEveryDocsGroup(page);
  await section(page, 'GET', '/api/v1/usage').scrollIntoViewIfNeeded();
  return page;
}
/** An operation's section: Scalar names it by its group (when the document has groups), then method and path. */
const section = (page: Page, method: string, path: string) => page.locator(`section[id$="/${method}${path}"]`);

/** How long a bare /docs/ may take to settle, on a 2-core machine running other tests beside it (the whole reference at once took 5–7 s there idle, 47–89 s loaded). */
const SETTLE_MS = 10_000;
/** Elements Scalar may render before a group is opened: its first group and the others' lists came to about 2,800; every operation at once, 13,300. */
const RENDERED_MAX = 6_000;

/**
 * /docs/ from a fresh page (serving `served` as the document, when given) until nothing in it changed
 * for a second: how long that took, the elements Scalar rendered, and every warning or error it logged.
 */
async function settle(served?: unknown): Promise<{ ms: number; rendered: number; warnings: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  if (served) await page.route('**/api/v1/openapi.json', (route) => route.fulfill({ contentType: 'application/json', body: JSON.stringify(served) }));
  const warnings: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'warning' || m.type() === 'error') warnings.push(m.text());
  });
  await page.addInitScript(() => {
    const w = window as unknown as { lastChange: number };
    w.lastChange = 0;
    new MutationObserver(() => (w.lastChange = performance.now())).observe(document, {
      subtree: true,
      childList: true,
      attributes: true,
      characterData: true,
    });
  });
  await page.goto(`${server.base}/docs/`);
  await section(page, 'GET', '/api/v1/company/{ticker}').waitFor({ timeout: 120_000 });
  await page.waitForFunction(() => performance.now() - (window as unknown as { lastChange: number }).lastChange > 1_000, undefined, {
    timeout: 120_000,
    polling: 100,
  });
  const ms = await page.evaluate(() => (window as unknown as { lastChange: number }).lastChange);
  const rendered = await page.locator('#reference *').count();
  await page.close();
  return { ms, rendered, warnings };
}

describe('loading /docs/', () => {
  it('settles within seconds, rendering the first group of operations, with no warning from Scalar', async () => {
    const { ms, rendered, warnings } = await settle();
    expect(ms).toBeLessThan(SETTLE_MS);
    expect(rendered).toBeLessThan(RENDERED_MAX);
    expect(warnings).toEqual([]);
  }, 60_000);

  it('would render every operation at once without groups, and warn about a nullable reference without its type (the checks above can fail)', async () => {
    const bare = structuredClone(doc);
    delete bare.tags;
    for (const item of Object.values<Json>(bare.paths)) for (const op of Object.values<Json>(item)) delete op.tags;
    const untype = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(untype);
      if (typeof node !== 'object' || node === null) return;
      const o = node as Json;
      if (o.anyOf && Array.isArray(o.type)) delete o.type;
      Object.values(o).forEach(untype);
    };
    untype(bare.components);
    const { rendered, warnings } = await settle(bare);
    expect(rendered).toBeGreaterThan(RENDERED_MAX);
    expect(warnings.some((w) => w.startsWith('document validation errors'))).toBe(true);
  }, 150_000);
});
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
    await expect
      .poll(() => shownBody(company))
      .toEqual(doc.paths['/api/v1/company/{ticker}'].get.responses['404'].content['application/json'].example);

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

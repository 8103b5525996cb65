import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUIDE_LOCAL_ORIGIN, RESEARCH_GUIDES, renderResearchGuide } from '../../build-scripts/pages/research-guide.js';
import { CATALOGUES } from '../../src/site/i18n/index.js';
import { LOCALES } from '../../src/site/i18n/locales.js';
import { pageUrls, pageUrlsFor } from '../../src/site/i18n/paths.js';
import { hrefsOf } from '../site/html.js';
import { startServer, type RunningServer } from '../helpers/server.js';
import { guideBlocks } from './guide-blocks.js';
import { demoSnapshotsDir } from '../helpers/demo-snapshots-dir.js';

/**
 * docs/research.md is served with the site, at /research/, linked from every page's navigation and
 * from /downloads/; each language's guide (docs/research.zh-TW.md) at that language's /research/.
 */
const headingsOf = (markdown: string) =>
  [...markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '').matchAll(/^(#{1,3}) (.+)$/gm)].map((m) => m[2]!.trim());
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

let server: RunningServer;
beforeAll(async () => {
  server = await startServer(demoSnapshotsDir);
});
afterAll(async () => {
  await server?.close();
});

/** Text of HTML: character references decoded (numeric ones too: rehype writes `&#x3C;`). */
const decode = (s: string) =>
  s
    .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

describe('/research/ in every language', () => {
  for (const locale of LOCALES) {
    const path = pageUrlsFor(locale).research;
    it(`${path} is the guide as HTML, every heading and command block of it`, async () => {
      const markdown = readFileSync(RESEARCH_GUIDES[locale], 'utf8');
      const headings = headingsOf(markdown);
      const t = CATALOGUES[locale];
      const res = await fetch(`${server.base}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
      const page = await res.text();
      expect(headings.length).toBeGreaterThan(8);
      const pageHeadings = [...page.matchAll(/<h([1-3])[^>]*>([\s\S]*?)<\/h\1>/g)].map((m) => decode(m[2]!.replace(/<[^>]+>/g, '')));
      for (const h of headings) expect(pageHeadings, h).toContain(h.replace(/`/g, ''));
      expect(decode(/<title>([^<]*)<\/title>/.exec(page)![1]!)).toMatch(new RegExp(`^${escape(`${t.site.demoPrefix} ${headings[0]}`)} · `));
      // Every command block, as written, in a copyable frame showing the host the page is opened on.
      const pres = [
        ...page.matchAll(
          new RegExp(
            `<pre tabindex="0"><code class="language-\\w+" data-origin="([^"]+)">([\\s\\S]*?)</code></pre><button type="button" class="copy" data-copy(?:="")? hidden>${escape(t.script.copy.copy)}</button>`,
            'g',
          ),
        ),
      ];
      const blocks = guideBlocks(markdown);
      expect(pres.map((m) => decode(m[2]!))).toEqual(blocks.map((b) => b.code));
      for (const m of pres) expect(m[1]).toBe(GUIDE_LOCAL_ORIGIN);
      expect(page).toContain('<script src="/assets/copy.js" defer></script>');
    });
  }

  it('is linked from the navigation of every page and from /downloads/', async () => {
    for (const path of ['/', pageUrls.downloads, pageUrls.methodology, pageUrls.research]) {
      const page = await (await fetch(server.base + path)).text();
      expect(hrefsOf(page), path).toContain(pageUrls.research);
    }
    const research = await (await fetch(server.base + pageUrls.research)).text();
    expect(research).toMatch(/<a href="\/research\/" aria-current="page">/);
  });

  it('wraps tables for narrow screens and needs a top-level heading', async () => {
    const { html, title } = await renderResearchGuide('# Title\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```sh runnable\necho "x"\n```\n');
    expect(title).toBe('Title');
    expect(html).toContain('<div class="table-wrap"><table>');
    expect(html).toContain('<code class="language-sh" data-origin="http://localhost:8080">echo "x"\n</code>');
    expect(html).not.toContain('runnable');
    await expect(renderResearchGuide('## No title\n')).rejects.toThrow(/no top-level heading/);
  });
});

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CATALOGUES, type Locale } from '../../src/site/i18n/index.js';

/**
 * The researchers' guide (`docs/research.md`, the file a clone has) as the body of /research/,
 * rendered when the snapshot is built by Astro's own Markdown pipeline (GitHub-flavoured, heading
 * ids), without syntax highlighting (no inline styles) or typographic quotes (commands stay as
 * typed). Each command block gets the copy button the API reference has, and the local address the
 * guide uses is marked so the button's script shows the host the page was opened on.
 */
export const RESEARCH_GUIDE = join(dirname(fileURLToPath(import.meta.url)), '../../docs/research.md');
/**
 * The guide in each language: the same sections in the same order, and the same runnable command
 * blocks (comments aside), which test/docs/research.test.ts runs in every language and compares.
 */
export const RESEARCH_GUIDES: Readonly<Record<Locale, string>> = { en: RESEARCH_GUIDE, 'zh-TW': join(dirname(RESEARCH_GUIDE), 'research.zh-TW.md') };

/** The address the guide's commands use for a service started on the reader's own machine. */
export const GUIDE_LOCAL_ORIGIN = 'http://localhost:8080';

interface HastNode {
  type: string;
  tagName?: string;
  properties?: Record<string, unknown>;
  children?: HastNode[];
  value?: string;
}

const el = (tagName: string, properties: Record<string, unknown>, children: HastNode[]): HastNode => ({
  type: 'element',
  tagName,
  properties,
  children,
});

/** Code blocks in the API reference's copyable frame; wide tables in a scrolling wrapper. */
function framePreAndTables(o: { copy: string }) {
  const visit = (node: HastNode): void => {
    const children = node.children;
    if (!children) return;
    for (let i = 0; i < children.length; i++) {
      const child = children[i]!;
      if (child.type === 'element' && child.tagName === 'pre') {
        // A scrollable region must be reachable by keyboard.
        child.properties = { ...child.properties, tabIndex: 0 };
        const code = child.children?.find((c) => c.tagName === 'code');
        if (code) code.properties = { ...code.properties, dataOrigin: GUIDE_LOCAL_ORIGIN };
        const copy = el('button', { type: 'button', className: ['copy'], dataCopy: '', hidden: true }, [{ type: 'text', value: o.copy }]);
        children[i] = el('div', { className: ['curl'] }, [child, copy]);
      } else if (child.type === 'element' && child.tagName === 'table') {
        children[i] = el('div', { className: ['table-wrap'] }, [child]);
      } else {
        visit(child);
      }
    }
  };
  return (tree: HastNode) => visit(tree);
}

export interface RenderedGuide {
  html: string;
  /** The guide's first heading: the page's title. */
  title: string;
}

/** Renders the guide's Markdown (a language's guide of the repository, or the Markdown given) to HTML. */
export async function renderResearchGuide(source: Locale | string = 'en'): Promise<RenderedGuide> {
  const locale: Locale = source in RESEARCH_GUIDES ? (source as Locale) : 'en';
  const markdown = source in RESEARCH_GUIDES ? readFileSync(RESEARCH_GUIDES[locale], 'utf8') : source;
  // Loaded here, not at the top: only the worker that writes the shared pages needs it, and it is slow to import.
  const { createMarkdownProcessor } = await import('@astrojs/markdown-remark');
  const processor = await createMarkdownProcessor({
    syntaxHighlight: false,
    smartypants: false,
    rehypePlugins: [[framePreAndTables, { copy: CATALOGUES[locale].script.copy.copy }] as never],
  });
  const { code, metadata } = await processor.render(markdown);
  const first = metadata.headings.find((h) => h.depth === 1);
  if (!first) throw new Error('the researchers’ guide has no top-level heading');
  return { html: code, title: first.text };
}

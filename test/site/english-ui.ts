/**
 * Finds English UI text on a page that should have none (a Traditional Chinese page). It reads what
 * a person meets: every text node, and the attributes a browser shows or reads aloud (title,
 * aria-label, alt, placeholder, a meta description). It passes over what is not UI text: code
 * (`<code>`, `<pre>`, scripts), data the page quotes in its own language (elements marked
 * `lang="zh-Hant"`: company, industry and provider names, penalty summaries) or verbatim in English
 * (`lang="en"`: a citation to paste, the glossary's English column, the switch to English), URLs and
 * paths, and identifiers (codes, ids, field names: anything with a digit, `_` or `.`).
 *
 * Two checks: no string of the English catalogue (with a word of three letters or more) appears in
 * the text, and no English word does at all, bar the names and acronyms in ALLOWED.
 */
import type { Messages } from '../../src/site/i18n/index.js';

/** Names, acronyms and formats that read the same in Chinese text. */
const ALLOWED = new Set([
  'ESG',
  'API',
  'JSON',
  'CSV',
  'SQLite',
  'ETF',
  'CBAM',
  'OpenAPI',
  // The Model Context Protocol, named so in Chinese text too (OAuth's pages: 「MCP 工具」).
  'MCP',
  'CORS',
  'Data',
  'Package',
  'DuckDB',
  'pandas',
  'Datasette',
  'Python',
  'readr',
  'jsonlite',
  'Debian',
  'Ubuntu',
  'Markdown',
  'GitHub',
  // TWSE's ESG GenPlus, a product's name (the sources' Chinese descriptions name it so).
  'GenPlus',
  'JavaScript',
  'zip',
  'SHA',
  'Atom',
  'GET',
  'POST',
  'English',
  'KB',
  'Ctrl',
  'wget',
  'curl',
]);

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&nbsp;': ' ' };
const decode = (s: string) =>
  s
    .replace(/&(?:amp|lt|gt|quot|#39|nbsp);/g, (e) => ENTITIES[e]!)
    .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)));

/** Elements whose whole content (and own attributes) is not UI text. */
const SKIPPED = [
  /<(script|style|code|pre)\b[^>]*>[\s\S]*?<\/\1>/g,
  /<(\w+)\b[^>]*\blang="(?:en|zh-Hant)"[^>]*>[\s\S]*?<\/\1>/g,
  /<head>[\s\S]*?<title>/g, // the head's links and metas, up to the title (kept)
];

/** What a person reads on the page: text nodes and the shown or spoken attributes, one string each. */
export function readableTexts(html: string): string[] {
  let body = html;
  for (const re of SKIPPED) body = body.replace(re, ' ');
  const texts: string[] = [];
  const description = /<meta name="description" content="([^"]*)"/.exec(html);
  if (description) texts.push(decode(description[1]!));
  for (const m of body.matchAll(/\s(?:title|aria-label|alt|placeholder)="([^"]*)"/g)) texts.push(decode(m[1]!));
  for (const m of body.replace(/<!--[\s\S]*?-->/g, ' ').matchAll(/>([^<]+)</g)) {
    const t = decode(m[1]!).trim();
    if (t) texts.push(t);
  }
  return texts;
}

/** A text without its URLs and paths (`https://…`, `/api/v1/…`). */
const withoutLinks = (t: string) => t.replace(/https?:\/\/\S+/g, ' ').replace(/(?<!\w)\/[\w\-./{}?=&%]+/g, ' ');

/** English words in a text: letter runs of three or more that are not identifiers or ALLOWED. */
export function englishWords(text: string): string[] {
  const tokens = withoutLinks(text).match(/[A-Za-z][A-Za-z0-9_.\-']*/g) ?? [];
  return tokens
    .filter((w) => !/[0-9_.]/.test(w))
    .flatMap((w) => w.split(/[-']/))
    .filter((w) => w.length >= 3 && !ALLOWED.has(w));
}

/** Every string of a catalogue (functions left out: their words are caught by `englishWords`). */
export function catalogueStrings(m: unknown): string[] {
  if (typeof m === 'string') return [m];
  if (m && typeof m === 'object') return Object.values(m).flatMap(catalogueStrings);
  return [];
}

/** The English UI a page shows: catalogue strings found in its text, then English words. Empty when there is none. */
export function englishUi(html: string, english: Messages): string[] {
  const texts = readableTexts(html);
  const joined = `\n${texts.map(withoutLinks).join('\n')}\n`;
  const phrases = catalogueStrings(english)
    .map((s) => s.replace(/<[^>]+>/g, '').trim())
    .filter((s) => englishWords(s).length > 0)
    // Whole words only: `disclosure` inside the field name `carbon_disclosure.registry` is an identifier.
    .filter((s) => new RegExp(`(^|[^A-Za-z0-9_.])${s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^A-Za-z0-9_]|$)`).test(joined));
  const words = texts.flatMap((t) => englishWords(t).map((w) => `${w} (in “${t.slice(0, 80)}”)`));
  return [...phrases.map((p) => `catalogue: ${p}`), ...words];
}

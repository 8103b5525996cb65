/**
 * The smallest pieces of the pages as HTML strings, for `<Fragment set:html={…} />`. A company page
 * has some thirty numbers and links; as Astro components each costs about 20 µs of render overhead
 * (over half the page at 100k companies), as a function next to nothing. Every value is escaped.
 */
import { formatMoney, formatNumber, formatPercent, VERDICT_TEXT } from './format.js';
import { pageUrls } from './paths.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/**
 * A number as a person reads it, with its exact JSON value and the JSON field it came from kept in
 * attributes: `<data value="1200000" data-json="penalties.0.fine">NT$1,200,000</data>`. The tests
 * compare every such number with the API's body.
 */
export function num(value: number, field: string, o: { money?: boolean; suffix?: string; signed?: boolean; year?: boolean; fraction?: boolean } = {}): string {
  // `signed`: a change reads +5 as well as -5. `year`: 2025, never "2,025". `fraction`: a share
  // (0.3282) reads as a percentage, 32.82 %, while `value` keeps the JSON's fraction.
  if (o.fraction) return `<data value="${value}" data-json="${escapeHtml(field)}">${formatPercent(value)}</data>`;
  const text = o.year ? String(value) : o.money ? formatMoney(value) : `${o.signed && value > 0 ? '+' : ''}${formatNumber(value)}`;
  return `<data value="${value}" data-json="${escapeHtml(field)}">${text}${escapeHtml(o.suffix ?? '')}</data>`;
}

export function verdictBadge(verdict: string): string {
  return `<span class="verdict v-${escapeHtml(verdict)}">${escapeHtml(VERDICT_TEXT[verdict] ?? verdict)}</span>`;
}

/** Names a fact's source and links both the original record and the source's registry entry. */
export function sourceLink(id: string, name: string, href?: string): string {
  const named = href ? `<a href="${escapeHtml(href)}" rel="noopener">${escapeHtml(name)}</a>` : escapeHtml(name);
  return `<span class="source">Source: ${named} (<a href="${escapeHtml(pageUrls.source(id))}"><code>${escapeHtml(id)}</code></a>)</span>`;
}

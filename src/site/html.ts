/**
 * The smallest pieces of the pages as HTML strings, for `<Fragment set:html={…} />`. A company page
 * has some thirty numbers and links; as Astro components their render overhead
 * was over half the page at 100k companies (bench/results.md), as a function next to nothing. Every value is escaped.
 * Each takes the page's language (English when none is given).
 */
import { l10n, type Locale } from './i18n/index.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/**
 * A number as a person reads it, with its exact JSON value and the JSON field it came from kept in
 * attributes: `<data value="1200000" data-json="penalties.0.fine">NT$1,200,000</data>`. The tests
 * compare every such number with the API's body.
 */
export function num(
  value: number,
  field: string,
  o: { money?: boolean; suffix?: string; signed?: boolean; year?: boolean; fraction?: boolean } = {},
  locale: Locale = 'en',
): string {
  // `signed`: a change reads +5 as well as -5. `year`: 2025, never "2,025". `fraction`: a share
  // (0.3282) reads as a percentage, 32.82 %, while `value` keeps the JSON's fraction.
  const f = l10n(locale).f;
  if (o.fraction) return `<data value="${value}" data-json="${escapeHtml(field)}">${f.percent(value)}</data>`;
  const text = o.year ? String(value) : o.money ? f.money(value) : `${o.signed && value > 0 ? '+' : ''}${f.number(value)}`;
  return `<data value="${value}" data-json="${escapeHtml(field)}">${text}${escapeHtml(o.suffix ?? '')}</data>`;
}

export function verdictBadge(verdict: string, locale: Locale = 'en'): string {
  const text = (l10n(locale).t.verdict as Record<string, string>)[verdict] ?? verdict;
  return `<span class="verdict v-${escapeHtml(verdict)}">${escapeHtml(text)}</span>`;
}

/** Names a fact's source and links both the original record and the source's registry entry. */
export function sourceLink(id: string, name: string, href?: string, locale: Locale = 'en'): string {
  const { t, u } = l10n(locale);
  const shown = escapeHtml(t.dataName(name));
  const named = href ? `<a href="${escapeHtml(href)}" rel="noopener">${shown}</a>` : shown;
  return `<span class="source">${t.sourceHtml(named, `<a href="${escapeHtml(u.source(id))}"><code>${escapeHtml(id)}</code></a>`)}</span>`;
}

/**
 * Small formatting helpers for the pages: how numbers, dates and codes read to a person. Numbers
 * keep their exact JSON value in a `value` attribute (see Num.astro), so the page and the API can be
 * compared mechanically; only the visible text is formatted.
 */
import type { Locale } from './locales.js';

/**
 * Thousands separated by commas, at most two decimals (four below 1, so a weight of 0.004 % does not
 * read as 0): en-US style, without Intl's cost per call.
 */
export function formatNumber(n: number): string {
  const scale = Math.abs(n) < 1 ? 10_000 : 100;
  const rounded = Math.round(n * scale) / scale;
  const [whole, fraction] = String(Math.abs(rounded)).split('.') as [string, string?];
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${rounded < 0 ? '-' : ''}${grouped}${fraction ? `.${fraction}` : ''}`;
}

/** A fraction as a percentage: 0.3282 → `32.82 %`, 0.01 → `1 %` (the JSON keeps fractions, people read percent). */
export function formatPercent(fraction: number): string {
  return `${formatNumber(fraction * 100)} %`;
}

export function formatMoney(twd: number): string {
  return `NT$${formatNumber(twd)}`;
}

/** 2026-10-31T00:00:00Z → 2026-10-31 (the pages show dates, the JSON keeps timestamps). */
export function formatDate(iso: string): string {
  return iso.slice(0, 10);
}

/** How a language writes numbers, amounts and dates. */
export interface Formats {
  number(n: number): string;
  percent(fraction: number): string;
  money(twd: number): string;
  /** A date (or the date of a timestamp), `YYYY-MM-DD…`. */
  date(iso: string): string;
}

const EN: Formats = { number: formatNumber, percent: formatPercent, money: formatMoney, date: formatDate };

/**
 * Traditional Chinese through Intl, one formatter each, made once (a formatter costs far more to
 * make than to use): 1,234.5, 32.82%, 新臺幣 1,200,000 元, 2026年10月31日.
 * The same rounding as English: at most two decimals, four below 1.
 */
function intlFormats(locale: string, money: (n: string) => string): Formats {
  const whole = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 });
  const small = new Intl.NumberFormat(locale, { maximumFractionDigits: 4 });
  const number = (n: number) => (Math.abs(n) < 1 ? small : whole).format(n);
  const day = new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
  return {
    number,
    percent: (fraction) => `${number(fraction * 100)}%`,
    money: (twd) => money(number(twd)),
    date: (iso) => day.format(new Date(`${iso.slice(0, 10)}T00:00:00Z`)),
  };
}

const BY_LOCALE: Record<Locale, Formats> = { en: EN, 'zh-TW': intlFormats('zh-TW', (n) => `新臺幣 ${n} 元`) };

export function formatsFor(locale: Locale): Formats {
  return BY_LOCALE[locale];
}

/** Score buckets of the histogram: 0–9, 10–19, …, 90–100 (100 joins the last bucket). */
export function scoreHistogram(scores: Iterable<number>): { from: number; to: number; count: number }[] {
  const buckets = Array.from({ length: 10 }, (_, i) => ({ from: i * 10, to: i === 9 ? 100 : i * 10 + 9, count: 0 }));
  for (const s of scores) buckets[Math.min(9, Math.floor(s / 10))]!.count++;
  return buckets;
}

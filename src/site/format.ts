/**
 * Small formatting helpers for the pages: how numbers, dates and codes read to a person. Numbers
 * keep their exact JSON value in a `value` attribute (see Num.astro), so the page and the API can be
 * compared mechanically; only the visible text is formatted.
 */
import type { AssuranceKind, CauseKind } from '../contract/vocabulary.js';
import { FLAG_CATALOGUE } from '../methodology/rules.js';

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
/** A clause from the data (`no site of this company …`) as a sentence of its own: capital first letter, full stop. */
export function sentence(clause: string): string {
  const s = clause.trim();
  return s === '' ? '' : `${s.charAt(0).toUpperCase()}${s.slice(1)}${/[.!?]$/.test(s) ? '' : '.'}`;
}

export function formatDate(iso: string): string {
  return iso.slice(0, 10);
}

export const VERDICT_TEXT: Record<string, string> = {
  credible: 'Credible',
  decent: 'Decent',
  questionable: 'Questionable',
  poor: 'Poor',
};

export const MARKET_TEXT: Record<string, string> = { listed: 'Listed (TWSE)', otc: 'OTC (TPEx)' };
export const ASSURANCE_TEXT: Record<string, string> = { none: 'No assurance', limited: 'Limited assurance', reasonable: 'Reasonable assurance' };
/** Contract 3.2's assurance kinds in words: a CPA firm's assurance, or a verifier's statement only. */
export const ASSURANCE_KIND_TEXT: Record<AssuranceKind, string> = { cpa: 'CPA assurance', third_party: 'Third-party verification' };
/** Contract 10's cause kinds in words (the JSON keeps the kind). */
export const CAUSE_TEXT: Record<CauseKind, string> = {
  penalty_new: 'New penalty',
  penalty_aged_out: 'Penalty left its window',
  disclosure_new: 'New emissions disclosure',
  disclosure_changed: 'Emissions disclosure changed',
  assurance_changed: 'Assurance changed',
  carbon_fee_changed: 'Carbon-fee obligation changed',
  timeliness: 'Disclosure aged past the reporting deadline',
  flag_raised: 'Flag raised',
  flag_cleared: 'Flag cleared',
  methodology_changed: 'Methodology changed',
  company_added: 'Entered the universe',
  company_removed: 'Left the universe',
};
export const SEVERITY_TEXT: Record<string, string> = { critical: 'Critical', warning: 'Warning', info: 'Info' };

const flagInfo = new Map<string, (typeof FLAG_CATALOGUE)[number]>(FLAG_CATALOGUE.map((f) => [f.id, f]));

/** What a flag means in plain words: the catalogue's condition for raising it. */
export function flagMeaning(id: string): string {
  const f = flagInfo.get(id);
  return f ? `Raised when ${f.raised_when}.` : '';
}

/** Score buckets of the histogram: 0–9, 10–19, …, 90–100 (100 joins the last bucket). */
export function scoreHistogram(scores: Iterable<number>): { from: number; to: number; count: number }[] {
  const buckets = Array.from({ length: 10 }, (_, i) => ({ from: i * 10, to: i === 9 ? 100 : i * 10 + 9, count: 0 }));
  for (const s of scores) buckets[Math.min(9, Math.floor(s / 10))]!.count++;
  return buckets;
}

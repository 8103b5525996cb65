/**
 * The picture of a company's history: its credibility score in each snapshot, oldest to newest, one
 * dot per snapshot joined by a line, over the verdict bands; its label states every value. Drawn as
 * a string rather than Astro markup: every company page has one, and Astro's runtime spent a
 * quarter of the page on these few dozen elements (bench/results.md), a function next to nothing.
 */
import type { HistoryEntry } from '../contract/history.js';
import { VERDICT_BANDS } from '../methodology/rules.js';
import { escapeHtml } from './html.js';
import { l10n, LOCALES, type Locale } from './i18n/index.js';

const WIDTH = 450;
const HEIGHT = 200;
const PAD = { left: 30, right: 96, top: 20, bottom: 30 };
const PLOT_WIDTH = WIDTH - PAD.left - PAD.right;
const PLOT_HEIGHT = HEIGHT - PAD.top - PAD.bottom;
/** The first and last dots stay this far from the plot's edges, clear of the axis labels. */
const INSET = 24;

const y = (score: number) => Math.round(PAD.top + PLOT_HEIGHT * (1 - score / 100));

/** The verdict bands with their names, and their lower bounds (and 100) on the axis: the same on every page of a language. */
const backdrop = (locale: Locale) =>
  [
    ...VERDICT_BANDS.map((b) => {
      const top = y(b.max === 100 ? 100 : b.max + 1);
      const bottom = y(b.min);
      return (
        `<rect x="${PAD.left}" y="${top}" width="${PLOT_WIDTH}" height="${bottom - top}" class="band v-${b.verdict}"></rect>` +
        `<text x="${PAD.left + PLOT_WIDTH + 8}" y="${Math.round((top + bottom) / 2) + 4}" class="svg-tick band-name">${escapeHtml(l10n(locale).t.verdict[b.verdict])}</text>`
      );
    }),
    ...[...VERDICT_BANDS.map((b) => b.min), 100].map(
      (t) => `<text x="${PAD.left - 6}" y="${y(t) + 4}" class="svg-tick" text-anchor="end">${t}</text>`,
    ),
  ].join('');
const BACKDROP = Object.fromEntries(LOCALES.map((l) => [l, backdrop(l)])) as Record<Locale, string>;

/** The text alternative: every snapshot's score and verdict, oldest first. */
function historySummary(oldestFirst: readonly HistoryEntry[], locale: Locale): string {
  const t = l10n(locale).t;
  return t.history.summary(
    oldestFirst.length,
    oldestFirst.map((e) => `${e.dataset_snapshot_id}, ${e.credibility_score} (${t.verdict[e.verdict]})`).join('; '),
  );
}

export function historySvg(oldestFirst: readonly HistoryEntry[], locale: Locale = 'en'): string {
  const n = oldestFirst.length;
  // One snapshot sits in the middle; more spread evenly (snapshots are monthly, so by order).
  const x = (k: number) => Math.round(n === 1 ? PAD.left + PLOT_WIDTH / 2 : PAD.left + INSET + (k * (PLOT_WIDTH - 2 * INSET)) / (n - 1));
  // At most four dates under the axis and, past eight snapshots, only the first and last values, so
  // no two labels overlap; the label of the picture and the table beside it have them all.
  const step = Math.max(1, Math.ceil((n - 1) / 3));
  const dated = (k: number) => k === 0 || k === n - 1 || (k % step === 0 && n - 1 - k >= step * 0.8);
  const valued = (k: number) => n <= 8 || k === 0 || k === n - 1;
  const out = [
    `<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${escapeHtml(historySummary(oldestFirst, locale))}" class="history-svg">`,
    BACKDROP[locale],
  ];
  if (n > 1)
    out.push(`<polyline points="${oldestFirst.map((e, k) => `${x(k)},${y(e.credibility_score)}`).join(' ')}" class="history-line"></polyline>`);
  oldestFirst.forEach((e, k) => {
    const cx = x(k);
    const cy = y(e.credibility_score);
    out.push(`<circle cx="${cx}" cy="${cy}" r="5" class="dot v-${escapeHtml(e.verdict)}"></circle>`);
    if (valued(k)) out.push(`<text x="${cx}" y="${cy - 9}" class="svg-tick svg-strong" text-anchor="middle">${e.credibility_score}</text>`);
    if (dated(k)) out.push(`<text x="${cx}" y="${HEIGHT - 10}" class="svg-tick" text-anchor="middle">${escapeHtml(e.dataset_snapshot_id)}</text>`);
  });
  out.push('</svg>');
  return out.join('');
}

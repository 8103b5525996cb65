/**
 * About ten fictional ESG ETFs (`DE` + 4 digits), 30–100 holdings each, weighted mostly by size,
 * two with a top holding above 30 %, some with holdings outside the universe (cash, foreign).
 * Weights are integer hundredths of a percent summing to exactly 100.00 per ETF.
 */
import { type Day, toYmd } from '../demo-model/dates.js';
import { fundCodeFor } from './ids.js';
import type { Company, Etf, EtfHolding } from '../demo-model/model.js';
import { ETF_NAMES } from '../demo-model/names.js';
import { Rng } from '../demo-model/random.js';

const SIZES = [99, 100, 30, 59, 50, 40, 50, 30, 30, 45] as const;
/** Share of the top holding (0 = by size only). */
const TOP_SHARE = [0.33, 0, 0.31, 0, 0, 0, 0, 0.12, 0, 0] as const;
/** Holdings outside the universe per ETF. */
const OUTSIDE: readonly (readonly (readonly [string, string])[])[] = [
  [['CASH', '現金']],
  [],
  [],
  [
    ['XUS001', '示範海外科技'],
    ['CASH', '現金'],
  ],
  [],
  [],
  [['XJP002', '虛構日本電子']],
  [],
  [],
  [],
];

/** The latest calendar quarter that ended on or before D: [year, quarter]. */
function latestQuarter(D: Day): [number, number] {
  const { y, m, d } = toYmd(D);
  const q = Math.floor((m - 1) / 3) + 1;
  const endMonth = q * 3;
  const ended = m === endMonth && d === new Date(Date.UTC(y, endMonth, 0)).getUTCDate();
  if (ended) return [y, q];
  return q === 1 ? [y - 1, 4] : [y, q - 1];
}

/** Integer hundredths summing to exactly 10000, each ≥ 1 (largest-remainder rounding). */
function toHundredths(shares: readonly number[]): number[] {
  const total = shares.reduce((s, v) => s + v, 0);
  const exact = shares.map((v) => (v / total) * 10_000);
  const out = exact.map((v) => Math.max(1, Math.floor(v)));
  let diff = 10_000 - out.reduce((s, v) => s + v, 0);
  const order = exact.map((v, i) => ({ i, frac: v - Math.floor(v) })).sort((p, q) => q.frac - p.frac || p.i - q.i);
  for (let k = 0; diff > 0; k = (k + 1) % order.length, diff--) {
    const idx = (order[k] as { i: number }).i;
    out[idx] = (out[idx] as number) + 1;
  }
  // Over-allocation (only possible from the ≥ 1 floor): take from the largest.
  while (diff < 0) {
    let big = 0;
    for (let i = 1; i < out.length; i++) if ((out[i] as number) > (out[big] as number)) big = i;
    out[big] = (out[big] as number) - 1;
    diff++;
  }
  return out;
}

export function buildEtfs(seed: number, D: Day, companies: readonly Company[]): Etf[] {
  const [year, quarter] = latestQuarter(D);
  const pool = [...companies].sort((p, q) => q.capital - p.capital || p.index - q.index).slice(0, Math.max(150, Math.min(600, companies.length)));
  return SIZES.map((size, e) => {
    const rng = Rng.of(seed, 'etf', e);
    const n = Math.min(size, pool.length);
    // Weighted sampling without replacement (Efraimidis–Spirakis keys).
    const picked = pool
      .map((c) => ({ c, key: Math.log(1 - rng.next()) / Math.sqrt(c.capital) }))
      .sort((p, q) => q.key - p.key || p.c.index - q.c.index)
      .slice(0, n)
      .map((p) => p.c)
      .sort((p, q) => q.capital - p.capital || p.index - q.index);
    const outside = OUTSIDE[e] ?? [];
    const raw = picked.map((c) => c.capital ** 0.7 * rng.lognormal(1, 0.3));
    const top = TOP_SHARE[e] ?? 0;
    const rawSum = raw.reduce((s, v) => s + v, 0);
    const outsideShare = outside.map(() => rng.range(0.005, 0.02));
    const insideTotal = 1 - outsideShare.reduce((s, v) => s + v, 0);
    let shares = raw.map((v) => (v / rawSum) * insideTotal);
    if (top > 0 && shares.length > 1) {
      const restSum = shares.slice(1).reduce((s, v) => s + v, 0);
      shares = shares.map((v, i) => (i === 0 ? top * insideTotal : (v / restSum) * (1 - top) * insideTotal));
    }
    const all = [...shares, ...outsideShare];
    const hundredths = toHundredths(all);
    const holdings: EtfHolding[] = [
      ...picked.map((c, i) => ({ code: c.ticker, name: c.shortName, weight: hundredths[i] as number })),
      ...outside.map(([code, name], k) => ({ code, name, weight: hundredths[picked.length + k] as number })),
    ].sort((p, q) => q.weight - p.weight || (p.code < q.code ? -1 : p.code > q.code ? 1 : 0));
    return { code: fundCodeFor(e), name: ETF_NAMES[e] ?? `示範ESG${e + 1}`, year, quarter, holdings };
  });
}

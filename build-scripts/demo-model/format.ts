/**
 * Explicit number formatting (no toLocaleString, no locale). Emission quantities are kept as integer
 * ten-thousandths of a tonne ("tq") so that sums are exact and printing is exact.
 */

/** Ten-thousandths of a tonne per tonne. */
export const TQ = 10_000;

/** Tonnes → tq, rounded to `decimals` decimal places (0–4). Never negative. */
export function tq(tonnes: number, decimals = 4): number {
  const step = 10 ** (4 - decimals);
  return Math.max(0, Math.round((tonnes * TQ) / step) * step);
}

/** tq → decimal string without trailing zeros: 123456789 → `12345.6789`, 250000000 → `25000`. */
export function formatTq(v: number): string {
  if (!Number.isSafeInteger(v) || v < 0) throw new RangeError(`bad tq value ${v}`);
  const whole = Math.floor(v / TQ);
  const frac = v - whole * TQ;
  if (frac === 0) return String(whole);
  return `${whole}.${String(frac).padStart(4, '0').replace(/0+$/, '')}`;
}

/** tq → decimal string with exactly four decimals, as the exchanges serve figures: 21965160000 → `2196516.0000`. */
export function formatTq4(v: number): string {
  if (!Number.isSafeInteger(v) || v < 0) throw new RangeError(`bad tq value ${v}`);
  const whole = Math.floor(v / TQ);
  return `${whole}.${String(v - whole * TQ).padStart(4, '0')}`;
}

/** Integer with thousands separators: 1200000 → `1,200,000`. */
export function withThousands(n: number): string {
  const s = String(Math.trunc(n));
  return s.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

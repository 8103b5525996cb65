/**
 * Codes of the demo universe: tickers `D` + digits, fund codes `DE` + 4 digits, and 8-digit
 * 統一編號 that are unique and deliberately FAIL the official check-digit rule, so no demo number
 * can be a real business's number.
 */
import { hash32 } from '../demo-model/random.js';

export const MAX_COMPANIES = 500_000;

/** Ticker of the company at `index` in a universe of `count` companies. */
export function tickerFor(index: number, count: number): string {
  if (count <= 8000) return `D${1101 + index}`;
  return `D${100001 + index}`;
}

/** Fund code of the ETF at `index` (0-based). */
export const fundCodeFor = (index: number): string => `DE${5001 + index}`;

const UBN_WEIGHTS = [1, 2, 1, 2, 1, 2, 4, 1] as const;

/**
 * True when an 8-digit string passes the official 統一編號 check rule: digits times 1,2,1,2,1,2,4,1,
 * each product's digits summed, the total divisible by 5 (by 10 under the rule before 2023, which the
 * new one includes). When the seventh digit is 7 its product 28 counts as 10, then as 1 or 0.
 */
export function ubnChecksumValid(ubn: string): boolean {
  if (!/^\d{8}$/.test(ubn)) return false;
  let sum = 0;
  for (let i = 0; i < 8; i++) {
    const p = Number(ubn[i]) * (UBN_WEIGHTS[i] as number);
    sum += Math.floor(p / 10) + (p % 10);
  }
  if (sum % 5 === 0) return true;
  // Seventh digit 7: its product 28 → 2 + 8 = 10 → 1 + 0 = 1 (sum − 9) or 0 (sum − 10).
  return ubn[6] === '7' && (sum + 1) % 5 === 0;
}

/**
 * The k-th 統一編號 of this seed (k < 10,000,000): the first seven digits are a bijection of k (multiplier coprime to 10), the
 * last digit is chosen so the number fails the check rule.
 */
export function uniformNoFor(seed: number, k: number): string {
  if (k < 0 || k >= 10_000_000) throw new RangeError('uniform number index out of range');
  const offset = hash32(seed, 'ubn') % 10_000_000;
  const first7 = String((3_711_271 * k + offset) % 10_000_000).padStart(7, '0');
  const start = hash32(seed, 'ubn-last', k) % 10;
  for (let j = 0; j < 10; j++) {
    const candidate = `${first7}${(start + j) % 10}`;
    if (!ubnChecksumValid(candidate)) return candidate;
  }
  throw new Error('unreachable: no invalid check digit');
}

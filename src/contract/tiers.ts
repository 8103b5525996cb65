import { TIERS, type QuotaBucket, type Tier } from './vocabulary.js';

/** A bucket's limit per window; `null` is unlimited, 0 means the tier does not include the feature. */
export type Quotas = Readonly<Record<QuotaBucket, number | null>>;

/** Contract 6's table, one row per tier. */
export const TIER_QUOTAS: Readonly<Record<Tier, Quotas>> = {
  free: { 'calls/day': 100, 'calls/min': 5, 'batch/day': 20, 'csv/day': 3, 'packs/day': 0 },
  academic: { 'calls/day': 5_000, 'calls/min': 30, 'batch/day': 200, 'csv/day': 10, 'packs/day': 0 },
  developer: { 'calls/day': 10_000, 'calls/min': 120, 'batch/day': 2_000, 'csv/day': null, 'packs/day': 10 },
  // calls/day is set per key; this is the default (`npm run keys -- create --daily N --per-minute N`).
  commercial: { 'calls/day': 100_000, 'calls/min': 300, 'batch/day': 10_000, 'csv/day': null, 'packs/day': 50 },
};

/** A commercial key's own limits, when it was created with them. */
export interface QuotaOverrides {
  daily?: number | null;
  perMinute?: number | null;
}

export function quotasFor(tier: Tier, overrides: QuotaOverrides = {}): Quotas {
  const row = TIER_QUOTAS[tier];
  if (tier !== 'commercial') return row;
  return { ...row, 'calls/day': overrides.daily ?? row['calls/day'], 'calls/min': overrides.perMinute ?? row['calls/min'] };
}

/** The tiers whose quota includes a bucket (packs: for the 403 that names them). */
export function tiersIncluding(bucket: QuotaBucket): Tier[] {
  return TIERS.filter((t) => TIER_QUOTAS[t][bucket] !== 0);
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** The fixed window a bucket counts in at a moment: its id (part of the counter's key) and bounds. */
export interface Window {
  readonly id: string;
  /** First millisecond after the window (epoch ms). */
  readonly endMs: number;
  readonly seconds: number;
}

/**
 * Daily buckets reset at 00:00 UTC; minute buckets are fixed 60 s windows aligned on the clock's
 * minutes. Every metered call asks for its windows: each is made once and kept while it lasts.
 */
export function windowOf(bucket: QuotaBucket, nowMs: number): Window {
  if (bucket === 'calls/min') {
    const n = Math.floor(nowMs / MINUTE_MS);
    if (n !== lastMinute.n) lastMinute = { n, window: { id: `m${n}`, endMs: (n + 1) * MINUTE_MS, seconds: 60 } };
    return lastMinute.window;
  }
  const n = Math.floor(nowMs / DAY_MS);
  if (n !== lastDay.n) lastDay = { n, window: { id: new Date(n * DAY_MS).toISOString().slice(0, 10), endMs: (n + 1) * DAY_MS, seconds: 86_400 } };
  return lastDay.window;
}

const NO_WINDOW: Window = { id: '', endMs: NaN, seconds: 0 };
let lastMinute = { n: NaN, window: NO_WINDOW };
let lastDay = { n: NaN, window: NO_WINDOW };

/** How long a counter must be kept: its window, with a margin for clocks of several shims that differ a little. */
export const counterLifetimeMs = (bucket: QuotaBucket) => 2 * (bucket === 'calls/min' ? MINUTE_MS : DAY_MS);

import type { UsageResponse } from '../contract/usage.js';
import { TIERS, type QuotaBucket, type Tier } from '../contract/vocabulary.js';
import type { SnapshotMeta } from '../snapshot/schema.js';
import { withEnvelope } from './envelope.js';

/** One bucket as the meter counted it: its limit, use, and the window it counts in. */
export interface BucketState {
  bucket: QuotaBucket;
  limit: number | null;
  used: number | null;
  window: { endMs: number; seconds: number };
}

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/** GET /usage (contract 4.8): the caller's tier and every bucket's limit, use, remainder and reset. */
export function usageView(meta: SnapshotMeta, tier: Tier, keyId: string | null, buckets: readonly BucketState[]): UsageResponse {
  return withEnvelope(meta, {
    tier,
    tier_number: TIERS.indexOf(tier),
    key_id: keyId,
    buckets: buckets.map((b) => ({
      bucket: b.bucket,
      limit: b.limit,
      unlimited: b.limit === null,
      used: b.used,
      remaining: b.limit === null || b.used === null ? null : Math.max(0, b.limit - b.used),
      reset: iso(b.window.endMs),
      window_seconds: b.window.seconds,
    })),
  });
}

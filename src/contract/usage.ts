import { z } from 'zod';
import { isoTimestamp, successFields } from './common.js';
import { QUOTA_BUCKETS, TIERS } from './vocabulary.js';

/** GET /usage (contract 4.8): the caller's tier and every quota bucket of contract 6. */
export const usageBucketSchema = z.strictObject({
  bucket: z.enum(QUOTA_BUCKETS),
  limit: z
    .number()
    .int()
    .nonnegative()
    .nullable()
    .meta({ description: 'Calls allowed per window; null: unlimited (see unlimited); 0: the tier does not include it' }),
  unlimited: z
    .boolean()
    .meta({ description: 'true when the tier sets no limit on this bucket: limit and remaining are null, and used still counts' }),
  used: z
    .number()
    .int()
    .nonnegative()
    .nullable()
    .meta({ description: 'Calls counted in the current window, 0 when none was; null only while the quota counters are unreachable' }),
  remaining: z.number().int().nonnegative().nullable().meta({ description: 'limit − used; null when unlimited, or while used is null' }),
  reset: isoTimestamp.meta({ description: 'When the current window ends: 00:00 UTC for daily buckets, the next whole minute for calls/min' }),
  window_seconds: z.number().int().positive(),
});

export const usageResponseSchema = z
  .strictObject({
    ...successFields,
    tier: z.enum(TIERS),
    tier_number: z
      .number()
      .int()
      .min(0)
      .max(TIERS.length - 1)
      .meta({ description: 'Tier 0 (free) to 3 (commercial)' }),
    key_id: z
      .string()
      .nullable()
      .meta({ description: 'The public id of the key in X-API-Key; null for the keyless tier, counted per client IP (IPv6 by /56)' }),
    buckets: z.array(usageBucketSchema),
  })
  .meta({ id: 'UsageResponse' });
export type UsageResponse = z.infer<typeof usageResponseSchema>;

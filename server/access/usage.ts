import { QUOTA_BUCKETS, TIERS } from '../../src/contract/vocabulary.js';
import type { UsageResponse } from '../../src/contract/usage.js';
import { withEnvelope } from '../../src/views/envelope.js';
import type { RouteContext } from '../context.js';
import { JSON_TYPE, NO_STORE } from '../http.js';
import { parseQuery } from '../../src/contract/parse-request.js';
import { noQuerySchema } from '../../src/contract/queries.js';
import type { BucketUsage } from './meter.js';
import { windowOf } from './tiers.js';

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/**
 * A shim built without access control (tests of other features, the bench's baseline) neither
 * limits nor counts: every bucket is unlimited and its use unknown.
 */
function unmetered(): { caller: { tier: 'free'; keyId: null }; buckets: BucketUsage[] } {
  const now = Date.now();
  return { caller: { tier: 'free', keyId: null }, buckets: QUOTA_BUCKETS.map((bucket) => ({ bucket, limit: null, used: null, window: windowOf(bucket, now) })) };
}

/**
 * GET /usage (contract 4.8): the caller's quota state. Not itself counted, and never cached: it is
 * about one caller and changes with every call they make.
 */
export async function usage(ctx: RouteContext): Promise<void> {
  parseQuery(noQuerySchema, ctx.rawQuery, '/usage');
  const { caller, buckets } = ctx.access ? await ctx.access.usage(ctx.req) : unmetered();
  const body: UsageResponse = withEnvelope(ctx.store.meta, {
    tier: caller.tier,
    tier_number: TIERS.indexOf(caller.tier),
    key_id: caller.keyId,
    buckets: buckets.map((b) => ({
      bucket: b.bucket,
      limit: b.limit,
      used: b.used,
      remaining: b.limit === null || b.used === null ? null : Math.max(0, b.limit - b.used),
      reset: iso(b.window.endMs),
      window_seconds: b.window.seconds,
    })),
  });
  const bytes = Buffer.from(JSON.stringify(body), 'utf8');
  ctx.res.status(200);
  ctx.res.set({ 'Content-Type': JSON_TYPE, 'Cache-Control': NO_STORE, 'Content-Length': String(bytes.length) });
  ctx.res.end(ctx.req.method === 'HEAD' ? undefined : bytes);
}

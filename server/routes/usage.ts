import { QUOTA_BUCKETS } from '../../src/contract/vocabulary.js';
import { usageView } from '../../src/views/usage.js';
import type { RouteContext } from './context.js';
import { JSON_TYPE, NO_STORE } from '../../src/contract/headers.js';
import type { InputOf } from '../../src/contract/routes.js';
import type { BucketUsage } from '../access/meter.js';
import { windowOf } from '../../src/contract/tiers.js';

/**
 * A shim built without access control (tests of other features, the bench's baseline) neither
 * limits nor counts: every bucket is unlimited, and no call is counted in it (`used: 0`; null
 * would say the counters are unreachable, and there are none).
 */
function unmetered(): { caller: { tier: 'free'; keyId: null }; buckets: BucketUsage[] } {
  const now = Date.now();
  return {
    caller: { tier: 'free', keyId: null },
    buckets: QUOTA_BUCKETS.map((bucket) => ({ bucket, limit: null, used: 0, window: windowOf(bucket, now) })),
  };
}

/**
 * GET /usage (contract 4.8): the caller's quota state. Not itself counted, and never cached: it is
 * about one caller and changes with every call they make.
 */
export async function usage(input: InputOf<'usage'>, ctx: RouteContext): Promise<void> {
  void input.query; // takes none: a query string is a 400
  const { caller, buckets } = ctx.access ? await ctx.access.usage(ctx.req) : unmetered();
  const body = usageView(ctx.store.meta, caller.tier, caller.keyId, buckets);
  const bytes = Buffer.from(JSON.stringify(body), 'utf8');
  ctx.res.status(200);
  ctx.res.set({ 'Content-Type': JSON_TYPE, 'Cache-Control': NO_STORE, 'Content-Length': String(bytes.length) });
  ctx.res.end(ctx.req.method === 'HEAD' ? undefined : bytes);
}

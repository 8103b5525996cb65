import type { Request, Response } from 'express';
import type { Store } from 'express-rate-limit';
import type { OAuthLimiter } from '../../src/contract/oauth.js';
import { QUOTA_BUCKETS, type QuotaBucket } from '../../src/contract/vocabulary.js';
import { ApiError } from '../../src/contract/errors.js';
import { silentLogger, type Logger } from '../kit/logger.js';
import type { Metrics } from '../kit/metrics.js';
import { noteCaller } from '../kit/observe.js';
import type { BucketCounter, Counters } from './counters.js';
import { nearestToRunningOut, secondsUntil, setRateLimitHeaders, type CountedBucket } from './headers.js';
import { callerOf, keyPartition, type AccessTokens, type Caller, type KeyHeaders } from './identity.js';
import type { KeyRecord, KeyStore } from './key-store.js';
import { Outage } from './outage.js';
import { quotasFor, tiersIncluding, windowOf, type Window } from '../../src/contract/tiers.js';

export interface MeterOptions {
  keys: KeyStore;
  counters: Counters;
  /** OAuth's access tokens (server/oauth); without them a Bearer token is refused as not live. */
  tokens?: AccessTokens;
  /** Epoch milliseconds; injected by tests to cross minute and day boundaries. */
  clock?: () => number;
  logger?: Logger;
  /** Counts 429s by bucket and calls served uncounted. */
  metrics?: Pick<Metrics, 'quotaRejected' | 'failOpen'>;
}

/** A bucket's state for /usage; `used` is null only while the counters cannot be read. */
export interface BucketUsage {
  bucket: QuotaBucket;
  limit: number | null;
  used: number | null;
  window: Window;
}

const PER: Record<QuotaBucket, string> = {
  'calls/day': 'per day',
  'calls/min': 'per minute',
  'batch/day': 'per day',
  'csv/day': 'per day',
  'packs/day': 'per day',
};
const FEATURE: Partial<Record<QuotaBucket, string>> = { 'packs/day': 'evidence packs' };

/**
 * Quotas (contract 6): one counter per bucket, caller and window (in memory, or in Redis through
 * rate-limit-redis's RedisStore), incremented atomically; the window's id makes daily buckets
 * reset at 00:00 UTC. A metered call counts toward each of its buckets; if any is spent the call
 * is 429 and is taken back from the others, so a refused call never uses up quota. Counting happens before the request is
 * validated: a 4xx other than 429 still counts. When the counters are unreachable the call is
 * served uncounted (fails open), logged once when an outage starts and once when it is over.
 *
 * The counters are called directly rather than through rateLimit()'s middleware, one per bucket:
 * the middleware is built to answer a request on its own, and its awaits and X-Forwarded-For parse
 * (it evaluates req.ip for a debug line) per bucket doubled metering's cost per call
 * (bench/results.md); here the buckets of a call are weighed together.
 */
export class Meter {
  private readonly counters = new Map<QuotaBucket, BucketCounter>();
  private readonly clock: () => number;
  private readonly outage: Outage;

  constructor(private readonly o: MeterOptions) {
    this.clock = o.clock ?? Date.now;
    this.tokens = o.tokens;
    const logger = o.logger ?? silentLogger;
    const fields = { counters: o.counters.kind };
    this.outage = new Outage({
      started: () => logger.warn('quota counters unreachable: serving calls uncounted until they are back', fields),
      ended: ({ seconds, failures }) =>
        logger.info('quota counters reachable again: counting resumed', { ...fields, down_seconds: seconds, served_unchecked: failures }),
    });
    for (const bucket of QUOTA_BUCKETS) this.counters.set(bucket, o.counters.bucket(bucket));
  }

  /**
   * Counts a metered call toward `buckets`, sets the RateLimit headers, and throws the call's
   * 401 (not a live key), 429 (a bucket is spent) or 403 (the tier lacks the feature).
   */
  async meter(req: Request, res: Response, buckets: readonly QuotaBucket[], keyHeaders: KeyHeaders = {}): Promise<void> {
    if (buckets.length === 0) return;
    const caller = this.identify(req, res, keyHeaders);
    const nowMs = this.clock();
    const counted = buckets.filter((b) => caller.quotas[b] !== 0);
    const results = await Promise.all(counted.map((bucket) => this.count(bucket, caller, nowMs)));
    const states = results.filter((r): r is CountedBucket => r !== null);
    if (states.length === results.length) this.outage.succeeded();
    else {
      this.outage.failed();
      this.o.metrics?.failOpen();
    }

    const spent = states.filter((s) => s.limit !== null && s.used > s.limit);
    if (spent.length > 0) {
      const others = states.filter((s) => !spent.includes(s));
      await Promise.all(
        others.map((s) =>
          this.counters
            .get(s.bucket)!
            .decrement(caller.partition, s.window)
            .catch(() => {}),
        ),
      );
      const binding = nearestToRunningOut(spent)!;
      this.o.metrics?.quotaRejected(binding.bucket);
      setRateLimitHeaders(res, binding, caller.partition, nowMs);
      const resets = new Date(binding.window.endMs).toISOString().replace('.000Z', 'Z');
      throw new ApiError(
        'RATE_LIMITED',
        `Quota ${binding.bucket} is spent (${binding.limit} ${PER[binding.bucket]} for the ${caller.tier} tier); it resets at ${resets}.`,
        { 'Retry-After': String(Math.max(1, secondsUntil(binding.window.endMs, nowMs))) },
      );
    }
    const nearest = nearestToRunningOut(states);
    if (nearest) setRateLimitHeaders(res, nearest, caller.partition, nowMs);

    const forbidden = buckets.find((b) => caller.quotas[b] === 0);
    if (forbidden) {
      throw new ApiError(
        'FORBIDDEN',
        `The ${caller.tier} tier does not include ${FEATURE[forbidden] ?? forbidden}; the tiers that do: ${tiersIncluding(forbidden).join(', ')}.`,
      );
    }
  }

  /** The caller of a request, noted for its log line; throws the 401 of a key that is not live. Counts nothing. */
  identify(req: Request, res: Response, keyHeaders: KeyHeaders = {}): Caller {
    const caller = callerOf(req, this.o.keys, keyHeaders, this.tokens);
    noteCaller(res, caller.tier, caller.keyId);
    return caller;
  }

  /** The caller of a request and every bucket's state for them (GET /usage); counts nothing. */
  async usage(req: Request): Promise<{ caller: Caller; buckets: BucketUsage[] }> {
    const caller = callerOf(req, this.o.keys);
    if (req.res) noteCaller(req.res, caller.tier, caller.keyId);
    return { caller, buckets: await this.bucketsOf(caller) };
  }

  /** A key's buckets, as its holder's usage page shows them (server/routes/keys.ts); counts nothing. */
  keyUsage(record: KeyRecord): Promise<BucketUsage[]> {
    const quotas = quotasFor(record.tier, { daily: record.daily_limit, perMinute: record.per_minute_limit });
    return this.bucketsOf({ tier: record.tier, keyId: record.id, partition: keyPartition(record.id), quotas });
  }

  /** OAuth's access tokens, once sign-in is set up (server/index.ts: the OAuth store lives in the keys database). */
  tokens: AccessTokens | undefined;

  /** The key store the meter verifies keys against (the keys page issues, rotates and revokes in it). */
  get keys(): KeyStore {
    return this.o.keys;
  }

  private bucketsOf(caller: Caller): Promise<BucketUsage[]> {
    const nowMs = this.clock();
    return Promise.all(
      QUOTA_BUCKETS.map(async (bucket): Promise<BucketUsage> => {
        const limit = caller.quotas[bucket];
        const window = windowOf(bucket, nowMs);
        if (limit === 0) return { bucket, limit, used: 0, window };
        try {
          const hits = await this.counters.get(bucket)!.get(caller.partition, window);
          // Refused calls past the limit are kept in a spent bucket's counter; they were not served.
          return { bucket, limit, used: limit === null ? hits : Math.min(hits, limit), window };
        } catch {
          return { bucket, limit, used: null, window };
        }
      }),
    );
  }

  /** A bounded store for an OAuth endpoint's rate limiter, where the quota counters live (counters.ts). */
  limiterStore(name: OAuthLimiter): Store {
    return this.o.counters.limiter(name);
  }

  /** Where the counters live: `memory`, or `redis` (REDIS_URL). */
  get countersKind(): Counters['kind'] {
    return this.o.counters.kind;
  }

  /** Whether the counters answer now (Redis: a PING within the command timeout); memory always does. */
  countersReachable(): Promise<boolean> {
    return this.o.counters.ping();
  }

  async close(): Promise<void> {
    this.outage.stop();
    this.o.keys.close();
    await this.o.counters.close();
  }

  /** One bucket's count of this call, or null when its store failed (the call goes uncounted). */
  private async count(bucket: QuotaBucket, caller: Caller, nowMs: number): Promise<CountedBucket | null> {
    const window = windowOf(bucket, nowMs);
    try {
      const used = await this.counters.get(bucket)!.increment(caller.partition, window);
      return { bucket, limit: caller.quotas[bucket], used, window };
    } catch {
      return null;
    }
  }
}

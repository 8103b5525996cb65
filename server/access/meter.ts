import type { Request, Response } from 'express';
import { rateLimit, type RateLimitInfo, type RateLimitRequestHandler, type Store } from 'express-rate-limit';
import { QUOTA_BUCKETS, type QuotaBucket } from '../../src/contract/vocabulary.js';
import { ApiError } from '../errors.js';
import { silentLogger, type Logger } from '../logger.js';
import type { Counters } from './counters.js';
import { nearestToRunningOut, secondsUntil, setRateLimitHeaders, type CountedBucket } from './headers.js';
import { callerOf, type Caller } from './identity.js';
import type { KeyStore } from './key-store.js';
import { counterLifetimeMs, tiersIncluding, windowOf, type Window } from './tiers.js';

export interface MeterOptions {
  keys: KeyStore;
  counters: Counters;
  /** Epoch milliseconds; injected by tests to cross minute and day boundaries. */
  clock?: () => number;
  logger?: Logger;
}

/** A bucket's state for /usage; `used` is null while the counters cannot be read. */
export interface BucketUsage {
  bucket: QuotaBucket;
  limit: number | null;
  used: number | null;
  window: Window;
}

/** What a request carries into the limiters: who is counted, and at which moment. */
interface Metering {
  caller: Caller;
  nowMs: number;
}
const METERING = Symbol('metering');
type MeteredRequest = Request & { [METERING]?: Metering };
const meteringOf = (req: Request) => (req as MeteredRequest)[METERING]!;

/** The counter a request increments: per caller, per window (the window's id makes daily buckets reset at 00:00 UTC). */
const counterKey = (caller: Caller, bucket: QuotaBucket, nowMs: number) => `${caller.partition}:${windowOf(bucket, nowMs).id}`;

const PER: Record<QuotaBucket, string> = { 'calls/day': 'per day', 'calls/min': 'per minute', 'batch/day': 'per day', 'csv/day': 'per day', 'packs/day': 'per day' };
const FEATURE: Partial<Record<QuotaBucket, string>> = { 'packs/day': 'evidence packs' };

/**
 * Quotas (contract 6), one express-rate-limit limiter per bucket. A metered call counts toward
 * each of its buckets; if any is spent the call is 429 and is taken back from the others, so a call
 * that was refused never uses up quota. Counting happens before the request is validated: a 4xx
 * other than 429 still counts. When the counters are unreachable the call is served uncounted
 * (fails open), logged once per outage.
 */
export class Meter {
  private readonly limiters = new Map<QuotaBucket, { limiter: RateLimitRequestHandler; store: Store }>();
  private readonly clock: () => number;
  private readonly logger: Logger;
  private countersDown = false;

  constructor(private readonly o: MeterOptions) {
    this.clock = o.clock ?? Date.now;
    this.logger = o.logger ?? silentLogger;
    for (const bucket of QUOTA_BUCKETS) {
      const store = o.counters.storeFor(bucket);
      const limiter = rateLimit({
        windowMs: counterLifetimeMs(bucket),
        limit: (req) => meteringOf(req).caller.quotas[bucket] ?? Number.POSITIVE_INFINITY,
        keyGenerator: (req) => counterKey(meteringOf(req).caller, bucket, meteringOf(req).nowMs),
        store,
        standardHeaders: false,
        legacyHeaders: false,
        requestPropertyName: `quota ${bucket}`,
        // A spent bucket is not answered here: the meter weighs every bucket of the call first.
        handler: (_req, _res, next) => next(),
        passOnStoreError: true,
        logger: {
          warn: (...args: unknown[]) => this.logger.warn('express-rate-limit', { detail: String(args[0]) }),
          // Store errors are reported once per outage by the meter, not once per request.
          error: (...args: unknown[]) => {
            if (!String(args[1] ?? '').includes('error from store')) this.logger.error('express-rate-limit', { detail: String(args[0]) });
          },
        },
      });
      this.limiters.set(bucket, { limiter, store });
    }
  }

  /**
   * Counts a metered call toward `buckets`, sets the RateLimit headers, and throws the call's
   * 401 (not a live key), 429 (a bucket is spent) or 403 (the tier lacks the feature).
   */
  async meter(req: Request, res: Response, buckets: readonly QuotaBucket[]): Promise<void> {
    if (buckets.length === 0) return;
    const caller = callerOf(req, this.o.keys);
    const nowMs = this.clock();
    (req as MeteredRequest)[METERING] = { caller, nowMs };
    const counted = buckets.filter((b) => caller.quotas[b] !== 0);
    const infos = await Promise.all(counted.map((b) => this.count(b, req, res)));
    this.noteCounters(infos.every((i) => i !== null));

    const states: (CountedBucket & { key: string })[] = [];
    counted.forEach((bucket, i) => {
      const info = infos[i];
      if (info) states.push({ bucket, limit: caller.quotas[bucket], used: info.used, window: windowOf(bucket, nowMs), key: info.key });
    });
    const spent = states.filter((s) => s.limit !== null && s.used > s.limit);
    if (spent.length > 0) {
      const others = states.filter((s) => !spent.includes(s));
      await Promise.all(others.map((s) => Promise.resolve(this.limiters.get(s.bucket)!.store.decrement(s.key)).catch(() => {})));
      const binding = nearestToRunningOut(spent)!;
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
      throw new ApiError('FORBIDDEN', `The ${caller.tier} tier does not include ${FEATURE[forbidden] ?? forbidden}; the tiers that do: ${tiersIncluding(forbidden).join(', ')}.`);
    }
  }

  /** The caller of a request and every bucket's state for them (GET /usage); counts nothing. */
  async usage(req: Request): Promise<{ caller: Caller; buckets: BucketUsage[] }> {
    const caller = callerOf(req, this.o.keys);
    const nowMs = this.clock();
    const buckets = await Promise.all(
      QUOTA_BUCKETS.map(async (bucket): Promise<BucketUsage> => {
        const limit = caller.quotas[bucket];
        const window = windowOf(bucket, nowMs);
        if (limit === 0) return { bucket, limit, used: 0, window };
        try {
          const info = await this.limiters.get(bucket)!.limiter.getKey(counterKey(caller, bucket, nowMs));
          // Refused calls past the limit are kept in a spent bucket's counter; they were not served.
          const hits = info?.totalHits ?? 0;
          return { bucket, limit, used: limit === null ? hits : Math.min(hits, limit), window };
        } catch {
          return { bucket, limit, used: null, window };
        }
      }),
    );
    return { caller, buckets };
  }

  async close(): Promise<void> {
    this.o.keys.close();
    await this.o.counters.close();
  }

  /** One limiter's count of this request, or null when its store failed (the call goes uncounted). */
  private async count(bucket: QuotaBucket, req: Request, res: Response): Promise<RateLimitInfo | null> {
    const { limiter } = this.limiters.get(bucket)!;
    await new Promise<void>((resolve, reject) => {
      void limiter(req, res, (err?: unknown) => (err ? reject(err) : resolve()));
    });
    return ((req as unknown as Record<string, RateLimitInfo | undefined>)[`quota ${bucket}`]) ?? null;
  }

  private noteCounters(counting: boolean): void {
    if (counting === !this.countersDown) return;
    this.countersDown = !counting;
    if (this.countersDown) this.logger.warn('quota counters unreachable: serving calls uncounted until they are back', { counters: this.o.counters.kind });
    else this.logger.info('quota counters reachable again: counting resumed', { counters: this.o.counters.kind });
  }
}

import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { QuotaBucket } from '../../src/contract/vocabulary.js';
import type { Window } from '../../src/contract/tiers.js';

/** A bucket as counted for one request. */
export interface CountedBucket {
  bucket: QuotaBucket;
  /** null: unlimited. */
  limit: number | null;
  used: number;
  window: Window;
}

const remainingOf = (b: CountedBucket) => (b.limit === null ? Infinity : Math.max(0, b.limit - b.used));

/**
 * The bucket nearest to running out: fewest calls remaining; on a tie the one that resets last, as
 * it is the one that would keep the caller waiting. Unlimited buckets never qualify.
 */
export function nearestToRunningOut(buckets: readonly CountedBucket[]): CountedBucket | undefined {
  let best: CountedBucket | undefined;
  for (const b of buckets) {
    if (b.limit === null) continue;
    if (!best || remainingOf(b) < remainingOf(best) || (remainingOf(b) === remainingOf(best) && b.window.endMs > best.window.endMs)) best = b;
  }
  return best;
}

export const secondsUntil = (endMs: number, nowMs: number) => Math.max(0, Math.ceil((endMs - nowMs) / 1000));

/**
 * The partition key, as express-rate-limit's draft-8 headers compute it: a short digest of what the
 * counters are kept per, so a client with several keys can tell its quotas apart and nothing about
 * the key or IP is revealed.
 */
function partitionKey(partition: string): string {
  let pk = partitionKeys.get(partition);
  if (pk === undefined) {
    pk = Buffer.from(createHash('sha256').update(partition).digest('hex').slice(0, 12)).toString('base64');
    if (partitionKeys.size >= 10_000) partitionKeys.clear();
    partitionKeys.set(partition, pk);
  }
  return pk;
}
/** A client calls many times: its partition key is computed once (bounded; cleared when full). */
const partitionKeys = new Map<string, string>();

/**
 * IETF draft-ietf-httpapi-ratelimit-headers-08: `RateLimit-Policy: "calls/min";q=30;w=60;pk=:…:` and
 * `RateLimit: "calls/min";r=12;t=42`. express-rate-limit writes these per limiter (one pair per
 * bucket); the contract wants only the bucket nearest to running out, so they are written here from
 * the limiters' counts, in the library's form.
 */
export function setRateLimitHeaders(res: ServerResponse, b: CountedBucket, partition: string, nowMs: number): void {
  const name = `"${b.bucket}"`;
  res.setHeader('RateLimit-Policy', `${name};q=${b.limit};w=${b.window.seconds};pk=:${partitionKey(partition)}:`);
  res.setHeader('RateLimit', `${name};r=${remainingOf(b)};t=${secondsUntil(b.window.endMs, nowMs)}`);
}

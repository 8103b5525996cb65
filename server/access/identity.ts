import type { Request } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import { API_KEY_HEADER, type Tier } from '../../src/contract/vocabulary.js';
import { ApiError } from '../errors.js';
import type { KeyStore } from './key-store.js';
import { quotasFor, type Quotas } from './tiers.js';

/** Who is calling, as far as quotas go. */
export interface Caller {
  tier: Tier;
  /** The key's public id; null for the keyless tier. */
  keyId: string | null;
  /** What the counters are kept per: a key id, or the client's IP (IPv6 by /56). Never a key. */
  partition: string;
  quotas: Quotas;
}

const HEADER = API_KEY_HEADER.toLowerCase();

/** A key's caller, made once per key record (the key store makes new records when it reloads). */
const keyCallers = new WeakMap<object, Caller>();

/**
 * The caller of a request: the live key in `X-API-Key`, else the client IP for the free tier. The
 * IP is Express's `req.ip`, which believes `X-Forwarded-For` only as far as `trust proxy` (TRUST_PROXY)
 * says. A header that is not a live key is 401, never a silent fall back to the free tier.
 */
export function callerOf(req: Request, keys: KeyStore): Caller {
  const presented = req.headers[HEADER];
  if (presented !== undefined) {
    const record = typeof presented === 'string' ? keys.verify(presented.trim()) : null;
    if (!record) throw new ApiError('UNAUTHORIZED', `The ${API_KEY_HEADER} header is not a live key (unknown or revoked). Send a live key, or no ${API_KEY_HEADER} header for the free tier.`);
    let caller = keyCallers.get(record);
    if (!caller) {
      caller = {
        tier: record.tier,
        keyId: record.id,
        partition: `key:${record.id}`,
        quotas: quotasFor(record.tier, { daily: record.daily_limit, perMinute: record.per_minute_limit }),
      };
      keyCallers.set(record, caller);
    }
    return caller;
  }
  const ip = req.ip ?? req.socket.remoteAddress ?? 'unknown';
  return { tier: 'free', keyId: null, partition: `ip:${ipKeyGenerator(ip)}`, quotas: quotasFor('free') };
}

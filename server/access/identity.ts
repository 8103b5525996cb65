import type { Request } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import { API_KEY_HEADER, type Tier } from '../../src/contract/vocabulary.js';
import { ApiError, notLiveKey } from '../../src/contract/errors.js';
import type { KeyRecord, KeyStore } from './key-store.js';
import { TOKEN_PREFIX } from '../../src/contract/oauth.js';
import { quotasFor, type Quotas } from '../../src/contract/tiers.js';

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

/** What a key's counters are kept under: its public id, never the key. */
export const keyPartition = (id: string) => `key:${id}`;

/** Where a request may present its key: always `X-API-Key`; with `bearer` also `Authorization: Bearer`. */
export interface KeyHeaders {
  /** Take `Authorization: Bearer <key or access token>` when there is no X-API-Key (MCP clients send keys that way; OAuth clients, tokens). */
  bearer?: boolean;
}

/** OAuth's access tokens (server/oauth/store.ts), checked where a Bearer credential is one. */
export interface AccessTokens {
  /** What a token stands for: its key, and the resource (RFC 8707) it was granted for. */
  checkAccess(token: string): { ok: true; key: KeyRecord; resource: string } | { ok: false; why: string };
  /** The resources this server's tokens may be for (server/oauth/provider.ts resourcesOf): a token for any other is refused. */
  readonly audience: readonly string[];
}

/** An OAuth access token's prefix (src/contract/oauth.ts): a Bearer credential with it is a token, never a key. */
const ACCESS_TOKEN = TOKEN_PREFIX.access;

/** `Authorization: Bearer <credential>`, the credential captured. */
export const BEARER = /^Bearer[ \t]+(\S+)\s*$/i;

/** The key a request presents, if any: X-API-Key first, then (when allowed) an `Authorization: Bearer` token. */
function presentedKey(req: Request, o: KeyHeaders): string | string[] | undefined {
  const presented = req.headers[HEADER];
  if (presented !== undefined || !o.bearer) return presented;
  const auth = req.headers.authorization;
  if (auth === undefined) return undefined;
  return BEARER.exec(auth)?.[1] ?? '';
}

/**
 * The caller of a request: the live key in `X-API-Key` (or, where allowed, a Bearer token), else the
 * client IP for the free tier. The IP is Express's `req.ip`, which believes `X-Forwarded-For` only as
 * far as `trust proxy` (TRUST_PROXY) says. A key that is not live is 401, never a silent fall back to
 * the free tier.
 */
export function callerOf(req: Request, keys: KeyStore, o: KeyHeaders = {}, tokens?: AccessTokens): Caller {
  const presented = presentedKey(req, o);
  if (presented !== undefined) {
    const credential = typeof presented === 'string' ? presented.trim() : '';
    if (o.bearer && credential.startsWith(ACCESS_TOKEN) && req.headers[HEADER] === undefined) return tokenCaller(credential, tokens);
    const record = credential !== '' ? keys.verify(credential) : null;
    // Why, for the holder: revoked and when only to whoever holds the whole key (key-store.ts whyNotLive).
    if (!record) throw notLiveKey(credential !== '' ? (keys.whyNotLive(credential) ?? '') : '', o.bearer);
    let caller = keyCallers.get(record);
    if (!caller) {
      caller = {
        tier: record.tier,
        keyId: record.id,
        partition: keyPartition(record.id),
        quotas: quotasFor(record.tier, { daily: record.daily_limit, perMinute: record.per_minute_limit }),
      };
      keyCallers.set(record, caller);
    }
    return caller;
  }
  const ip = req.ip ?? req.socket.remoteAddress ?? 'unknown';
  return { tier: 'free', keyId: null, partition: `ip:${ipKeyGenerator(ip)}`, quotas: quotasFor('free') };
}

/**
 * The caller of an OAuth access token: the key the person chose when they consented, with its tier
 * and quotas, so an assistant's calls count against that person's key (never the vendor's address).
 * Only a token granted for this server is taken (RFC 8707; MCP 2026-07-28, Token Handling): one
 * whose grant names another resource is refused, however live.
 */
function tokenCaller(token: string, tokens: AccessTokens | undefined): Caller {
  if (!tokens)
    throw new ApiError(
      'UNAUTHORIZED',
      'The access token is not live. This server does not take OAuth access tokens (its operator has not set up sign-in).',
    );
  const c = tokens.checkAccess(token);
  if (!c.ok) throw new ApiError('UNAUTHORIZED', `The access token is not live. ${c.why}`);
  const { audience } = tokens;
  if (!audience.includes(c.resource))
    throw new ApiError(
      'UNAUTHORIZED',
      `The access token is for another resource (${c.resource}): this server takes tokens for ${audience.join(' or ')}. Sign in again.`,
    );
  const record = c.key;
  return {
    tier: record.tier,
    keyId: record.id,
    partition: keyPartition(record.id),
    quotas: quotasFor(record.tier, { daily: record.daily_limit, perMinute: record.per_minute_limit }),
  };
}

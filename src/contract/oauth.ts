/**
 * OAuth 2.1 for the MCP endpoint (docs/mcp.md "Sign in"): the paths and numbers the shim
 * answers with, the nginx front routes and the docs state. The shim is its own authorization server
 * (the MCP SDK's handlers over the keys database) and the resource server of /mcp.
 */
import { MCP_PATH } from './api-paths.js';

/** Where each part of OAuth is answered (RFC 8414 names them in the authorization server's metadata). */
export const OAUTH_PATHS = {
  /** RFC 9728: the protected resource metadata of the whole origin, and of /mcp (the path MCP clients derive). */
  resourceMetadata: '/.well-known/oauth-protected-resource',
  resourceMetadataMcp: `/.well-known/oauth-protected-resource${MCP_PATH}`,
  /** RFC 8414. */
  serverMetadata: '/.well-known/oauth-authorization-server',
  authorize: '/authorize',
  token: '/token',
  register: '/register',
  revoke: '/revoke',
  /** The pages a person meets: the e-mail form posts here, and the mailed link opens the consent page. */
  signIn: '/oauth/sign-in',
  consent: '/oauth/consent',
} as const;

/**
 * OAuth's endpoints a browser client calls across origins: their preflight allows `Authorization`
 * (headers.ts MCP_PREFLIGHT_HEADERS), from the shim and from the nginx front alike.
 */
export const OAUTH_CORS_PATHS: readonly string[] = [
  OAUTH_PATHS.token,
  OAUTH_PATHS.register,
  OAUTH_PATHS.revoke,
  OAUTH_PATHS.resourceMetadata,
  OAUTH_PATHS.resourceMetadataMcp,
  OAUTH_PATHS.serverMetadata,
];

/**
 * `/mcp?sign-in`: the same endpoint, but a call without a key or token is 401 with the challenge that
 * starts OAuth, instead of the free tier. A hosted assistant is given this address: without it,
 * its keyless calls would all share the free tier of the vendor's network address.
 */
export const MCP_SIGN_IN_PARAM = 'sign-in';

/** What the tokens look like: a prefix says which kind, so a key and a token never pass for each other. */
export const TOKEN_PREFIX = { access: 'esgat_', refresh: 'esgrt_' } as const;

const MINUTE_MS = 60_000;
/** How long each step lives. */
export const OAUTH_LIFETIMES = {
  /** From the sign-in page to the consent: the mailed link lasts as long. */
  requestMs: 15 * MINUTE_MS,
  /** A code goes from the redirect to the token endpoint in seconds; a minute more is slack. */
  codeMs: 2 * MINUTE_MS,
  /** Short-lived, so a leaked token is worth little; the client refreshes it without the person. */
  accessMs: 60 * MINUTE_MS,
  /** A month without use, then the person signs in again; every refresh rotates it. */
  refreshMs: 30 * 24 * 60 * MINUTE_MS,
} as const;

const DAY_MS = 24 * 60 * MINUTE_MS;
/**
 * How long OAuth's rows are kept, and how many at most (docs/keys-and-quotas.md "Limits and caps").
 * Registration needs no sign-in and /authorize no person, so neither may add rows without end: what
 * is over a lifetime is deleted every `pruneEveryMs` by every shim, and whenever a row of its kind is
 * written; past a cap, the oldest of its kind go first.
 */
export const OAUTH_RETENTION = {
  /** A pending authorization is kept this long past its link's 15 minutes (the page says "expired", not "unknown"), then deleted. */
  requestKeptMs: 60 * MINUTE_MS,
  /** At most this many authorizations are kept (pending, or answered within their life): the oldest go first. */
  maxRequests: 10_000,
  /** A registration never used at /authorize is deleted after a day: a real client registers and signs in at once. */
  unusedRegistrationMs: DAY_MS,
  /** At most this many registrations never used at /authorize: the oldest go first. */
  maxUnusedRegistrations: 10_000,
  /** A used registration is deleted once unused this long with no live grant (as long as a refresh token lives). */
  idleRegistrationMs: 30 * DAY_MS,
  /** A registration's metadata, as JSON, is at most this many bytes (mcp-remote's is about 400). */
  registrationBytes: 8 * 1024,
  pruneEveryMs: 10 * MINUTE_MS,
} as const;

/**
 * Requests a client address (an IPv6 address by its /56) may make to each OAuth endpoint per window:
 * the MCP SDK's own numbers, but counted in a bounded store (server/oauth/index.ts): in Redis where
 * REDIS_URL is set, else in memory for at most QUOTA_MEMORY_CLIENTS addresses, as metering counts.
 */
export const OAUTH_RATE_LIMITS = {
  authorize: { limit: 100, windowMs: 15 * MINUTE_MS },
  token: { limit: 50, windowMs: 15 * MINUTE_MS },
  register: { limit: 20, windowMs: 60 * MINUTE_MS },
  revoke: { limit: 50, windowMs: 15 * MINUTE_MS },
} as const;
export type OAuthLimiter = keyof typeof OAUTH_RATE_LIMITS;
export const OAUTH_LIMITERS = Object.keys(OAUTH_RATE_LIMITS) as OAuthLimiter[];

/** A client ID metadata document (draft-ietf-oauth-client-id-metadata-document) is small: at most this many bytes, fetched within this time. */
export const CLIENT_METADATA_LIMITS = { bytes: 5 * 1024, timeoutMs: 5_000, cacheMs: 60 * MINUTE_MS } as const;

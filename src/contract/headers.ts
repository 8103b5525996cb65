/** The wire's fixed headers (contract 1): the shim, the static host's rules and the nginx front all send these. */
import { API_KEY_HEADER } from './vocabulary.js';

/** Contract 1: CORS and exposed headers on every response. */
export const CORS_HEADERS: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'X-Request-Id, ETag, RateLimit, RateLimit-Policy, Retry-After',
};

export const PREFLIGHT_HEADERS: Record<string, string> = {
  'Access-Control-Allow-Methods': 'GET, HEAD, POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Content-Type, X-API-Key',
  'Access-Control-Max-Age': '86400',
};

/**
 * A preflight to /mcp and to OAuth's endpoints a browser client calls (src/contract/oauth.ts
 * OAUTH_CORS_PATHS): MCP clients in a browser also send their key as a Bearer token and name the
 * protocol version (2026-07-28 also routes by Mcp-Method and Mcp-Name); an OAuth client sends `Authorization` (Basic at /token, an initial access token at /register).
 */
export const MCP_PREFLIGHT_HEADERS: Record<string, string> = {
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
  'Access-Control-Allow-Headers': `Content-Type, Accept, ${API_KEY_HEADER}, Authorization, Mcp-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Session-Id, Last-Event-ID`,
  'Access-Control-Max-Age': '86400',
};

/** What a path that only reads takes (pages, /healthz, /readyz): its `Allow` on a 405. */
export const READ_ONLY_METHODS = 'GET, HEAD, OPTIONS';

export const JSON_TYPE = 'application/json; charset=utf-8';
/** The Atom feed's type (contract 10). */
export const ATOM_TYPE = 'application/atom+xml; charset=utf-8';
export const CACHE_PUBLIC = 'public, max-age=3600';
/**
 * Metered answers (contract 1: they carry RateLimit): a shared cache must neither serve one caller's
 * answer, with its quota state, to another, nor answer a metered call without it being counted.
 */
export const CACHE_PRIVATE = 'private, max-age=3600';

export const NO_STORE = 'no-store';

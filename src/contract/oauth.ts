/**
 * OAuth 2.1 for the MCP endpoint (issue 43, docs/mcp.md "Sign in"): the paths and numbers the shim
 * answers with, the nginx front routes and the docs state. The shim is its own authorization server
 * (the MCP SDK's handlers over the keys database) and the resource server of /mcp.
 */
import { MCP_PATH } from './urls.js';

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

/** A client ID metadata document (draft-ietf-oauth-client-id-metadata-document) is small: at most this many bytes, fetched within this time. */
export const CLIENT_METADATA_LIMITS = { bytes: 5 * 1024, timeoutMs: 5_000, cacheMs: 60 * MINUTE_MS } as const;

import { createHash } from 'node:crypto';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SECURITY_HEADERS } from './security.js';

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

/** What a path that only reads takes (pages, /healthz, /readyz): its `Allow` on a 405. */
export const READ_ONLY_METHODS = 'GET, HEAD, OPTIONS';

export const JSON_TYPE = 'application/json; charset=utf-8';
export const CACHE_PUBLIC = 'public, max-age=3600';
/**
 * Metered answers (contract 1: they carry RateLimit): a shared cache must neither serve one caller's
 * answer, with its quota state, to another, nor answer a metered call without it being counted.
 */
export const CACHE_PRIVATE = 'private, max-age=3600';

/** The caching a 200 GET gets: private when the call is metered (set by the app before the route), else public. */
export const cacheControlFor = (res: ServerResponse): string => (res.getHeader('Cache-Control') === CACHE_PRIVATE ? CACHE_PRIVATE : CACHE_PUBLIC);
export const NO_STORE = 'no-store';

/** A strong validator from the bytes themselves, so a static file and a computed body that are equal share it. */
export function etagOf(bytes: Buffer | string): string {
  return `"${createHash('sha1').update(bytes).digest('base64url')}"`;
}

/** Does an If-None-Match header name this ETag (or `*`)? */
export function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag === etag || tag === `W/${etag}`;
  });
}

/**
 * Sends a 200 body for GET/HEAD with the contract's caching: for an hour (public, or private when
 * metered), strong ETag, 304 when If-None-Match matches. POST answers go through sendPostBody: they are never cached.
 */
export function sendBody(req: IncomingMessage, res: ServerResponse, bytes: Buffer | string, contentType = JSON_TYPE, extra: Record<string, string> = {}, knownEtag?: string): void {
  res.statusCode = 200;
  res.setHeader('Content-Type', contentType);
  for (const [k, v] of Object.entries(extra)) res.setHeader(k, v);
  const etag = knownEtag ?? etagOf(bytes);
  res.setHeader('Cache-Control', cacheControlFor(res));
  res.setHeader('ETag', etag);
  if (matches(req.headers['if-none-match'], etag)) {
    res.statusCode = 304;
    res.end();
    return;
  }
  res.setHeader('Content-Length', typeof bytes === 'string' ? Buffer.byteLength(bytes) : bytes.length);
  if (req.method === 'HEAD') res.end();
  else res.end(bytes);
}

/**
 * A POST answer (never cached) written part by part: a body spliced from cached fragments goes out
 * without first being copied into one large buffer per request.
 */
export function sendPostBody(res: ServerResponse, parts: readonly Buffer[]): void {
  res.statusCode = 200;
  res.setHeader('Content-Type', JSON_TYPE);
  res.setHeader('Cache-Control', NO_STORE);
  res.setHeader('Content-Length', parts.reduce((n, p) => n + p.length, 0));
  res.cork(); // end() uncorks: the parts leave in one writev
  for (const p of parts) res.write(p);
  res.end();
}

export function sendJson(req: IncomingMessage, res: ServerResponse, body: unknown): void {
  sendBody(req, res, JSON.stringify(body));
}

/** Headers every response carries: a fresh request id, open CORS and the security headers. Returns the request id. */
export function setCommonHeaders(res: ServerResponse): string {
  const requestId = randomUUID();
  res.setHeader('X-Request-Id', requestId);
  for (const [k, v] of Object.entries(CORS_HEADERS)) res.setHeader(k, v);
  for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.setHeader(k, v);
  return requestId;
}

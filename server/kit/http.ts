import { createHash } from 'node:crypto';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiError } from '../../src/contract/errors.js';
import { requestTooLarge } from '../../src/contract/request-path.js';
import { SECURITY_HEADERS } from '../../src/contract/security.js';
import { CACHE_PRIVATE, CACHE_PUBLIC, CORS_HEADERS, JSON_TYPE, NO_STORE } from '../../src/contract/headers.js';

/** The caching a 200 GET gets: private when the call is metered (set by the app before the route), else public. */
export const cacheControlFor = (res: ServerResponse): string => (res.getHeader('Cache-Control') === CACHE_PRIVATE ? CACHE_PRIVATE : CACHE_PUBLIC);

/** A body as served, with its ETag (tree files, stored histories). */
export interface CachedFile {
  bytes: Buffer;
  etag: string;
}

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
export function sendBody(
  req: IncomingMessage,
  res: ServerResponse,
  bytes: Buffer | string,
  contentType = JSON_TYPE,
  extra: Record<string, string> = {},
  knownEtag?: string,
): void {
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
  res.setHeader(
    'Content-Length',
    parts.reduce((n, p) => n + p.length, 0),
  );
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

/** A response's locals (Express's `res.locals`), which Express creates only when the response has none. */
type WithLocals = ServerResponse & { locals?: Record<string, unknown> };

/**
 * The HTTP server's check of a request's URL and header sizes (request-path.ts requestTooLarge),
 * made before its fast path (server/serve.ts), left for the app in the response's locals: Express
 * keeps locals it finds (and would otherwise make the same object), so the check runs once per
 * request at no extra allocation.
 */
export function noteSizeChecked(res: ServerResponse, refusal: ApiError | null): void {
  const locals: Record<string, unknown> = Object.create(null);
  locals.sizeRefusal = refusal;
  (res as WithLocals).locals = locals;
}

/** The request's size refusal: the HTTP server's, else checked here (a request that did not come through that server: tests' own). */
export function sizeRefusal(req: IncomingMessage, res: ServerResponse): ApiError | null {
  const locals = (res as WithLocals).locals;
  if (locals && 'sizeRefusal' in locals) return locals.sizeRefusal as ApiError | null;
  return requestTooLarge(req.url ?? '', req.rawHeaders);
}

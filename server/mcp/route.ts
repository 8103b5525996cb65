import type { NextFunction, Request, RequestHandler, Response } from 'express';
import express from 'express';
import { API_KEY_HEADER, LIMITS, type ErrorCode } from '../../src/contract/vocabulary.js';
import { truncate } from '../../src/contract/params.js';
import type { Access } from '../access/index.js';
import { errorBody, toApiError } from '../kit/errors.js';
import { NO_STORE } from '../../src/contract/headers.js';
import type { Logger } from '../kit/logger.js';
import { isLoopback } from '../kit/settings.js';
import { MCP_PATH } from '../../src/contract/urls.js';
import { MCP_SIGN_IN_PARAM } from '../../src/contract/oauth.js';
import { bearerChallenge } from '../oauth/challenge.js';
import type { SnapshotSource } from '../kit/snapshot-source.js';
import { RPC } from './call.js';
import { revisionsAnswer } from './revisions.js';
import { requestScope } from './server.js';

export interface McpRouteOptions {
  snapshots: SnapshotSource;
  access?: Access;
  logger: Logger;
  /** Browser origins allowed (MCP_ALLOWED_ORIGINS); undefined: pages served from loopback only. */
  allowedOrigins?: readonly string[] | '*';
  /** /mcp's protected resource metadata (server/oauth), named by every 401; absent when sign-in is not set up. */
  resourceMetadataUrl?: string;
}

/**
 * Whether a request's `Origin` may call /mcp. None: not a browser, allowed (programs send none).
 * Otherwise it must be on the list; without a list, a page from this machine (loopback: a local
 * inspector), never a page from a name that merely resolves here (DNS rebinding).
 */
export function originAllowed(origin: string | undefined, allowed: McpRouteOptions['allowedOrigins']): boolean {
  if (origin === undefined) return true;
  if (allowed === '*') return true;
  if (allowed) return allowed.includes(origin.toLowerCase());
  try {
    const { hostname, protocol } = new URL(origin);
    return ['http:', 'https:'].includes(protocol) && isLoopback(hostname.replace(/^\[|\]$/g, ''));
  } catch {
    return false;
  }
}

/** Whether the URL asks for sign-in (`/mcp?sign-in`, any value). */
const signInAsked = (url: string) => {
  const q = url.indexOf('?');
  return q >= 0 && new URLSearchParams(url.slice(q + 1)).has(MCP_SIGN_IN_PARAM);
};

const isJson = (type: string | undefined) => /^application\/json\s*(;|$)/i.test(type ?? '');
const idOf = (body: unknown): string | number | null => {
  const id = (body as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
};

/**
 * A JSON-RPC error answered by the endpoint itself, before any MCP server sees the request: its
 * `data` is the API's error envelope (contract 2: code, message, request id, snapshot fields).
 */
function rpcError(
  res: Response,
  o: McpRouteOptions,
  status: number,
  rpcCode: number,
  apiCode: ErrorCode,
  message: string,
  id: string | number | null = null,
  headers: Record<string, string> = {},
): void {
  const requestId = res.locals.requestId as string;
  res
    .status(status)
    .set(headers)
    .json({ jsonrpc: '2.0', id, error: { code: rpcCode, message, data: errorBody(o.snapshots, apiCode, message, requestId) } });
}

/**
 * POST /mcp: the Model Context Protocol over Streamable HTTP, stateless (no session, no SSE stream:
 * a new server and transport per request, JSON answers), so any shim behind the front answers any
 * request. The endpoint checks what it can before the SDK: the method, the body's type and size
 * (64 KiB, as the API's POST bodies), one message per request (no JSON-RPC batch), and the key: one
 * that is not live is HTTP 401 on every message, as the API answers it, so a misconfigured client
 * learns it at `initialize`. Quotas are counted per tool call (server.ts); nothing else spends any.
 */
export function mcpRoute(o: McpRouteOptions): RequestHandler {
  const answer = revisionsAnswer(o.logger);
  const parseJson = express.json({ limit: LIMITS.bodyBytes, strict: false, type: () => true });
  return async (req: Request, res: Response, next: NextFunction) => {
    if (req.path !== MCP_PATH) return next(); // exactly /mcp: `/mcp/` is no endpoint (Express alone would take it)
    res.setHeader('Cache-Control', NO_STORE);
    if (!originAllowed(req.headers.origin, o.allowedOrigins)) {
      // An HTTP refusal before any JSON-RPC is read: the API's own error envelope, as any 403 of the API.
      const message = `Origin ${truncate(req.headers.origin ?? '', 80)} may not call /mcp: browser pages are allowed from the origins the operator lists in MCP_ALLOWED_ORIGINS.`;
      res.status(403).json(errorBody(o.snapshots, 'FORBIDDEN', message, res.locals.requestId as string));
      return;
    }
    if (req.method !== 'POST') {
      const message = `${req.method} is not allowed on /mcp: this server is stateless (no session, no server-sent event stream); send each JSON-RPC message with POST.`;
      return rpcError(res, o, 405, RPC.serverError, 'METHOD_NOT_ALLOWED', message, null, { Allow: 'POST, OPTIONS' });
    }
    if (!isJson(req.headers['content-type'])) {
      return rpcError(
        res,
        o,
        415,
        RPC.serverError,
        'BAD_REQUEST',
        'Unsupported Media Type: send the JSON-RPC message with Content-Type: application/json.',
      );
    }
    try {
      await new Promise<void>((resolve, reject) => parseJson(req, res, (err?: unknown) => (err ? reject(err) : resolve())));
    } catch (e) {
      const { error } = toApiError(e);
      if (error.code === 'PAYLOAD_TOO_LARGE')
        return rpcError(res, o, 413, RPC.invalidRequest, error.code, `The message is over ${LIMITS.bodyBytes / 1024} KiB.`);
      return rpcError(res, o, 400, RPC.parseError, 'BAD_REQUEST', `Parse error: ${error.message}`);
    }
    const body: unknown = req.body;
    if (Array.isArray(body)) {
      return rpcError(
        res,
        o,
        400,
        RPC.invalidRequest,
        'BAD_REQUEST',
        'JSON-RPC batches are not accepted: send one message per request (MCP 2025-06-18 dropped batching).',
      );
    }
    const credential = req.headers[API_KEY_HEADER.toLowerCase()] !== undefined || req.headers.authorization !== undefined;
    if (!credential && signInAsked(req.originalUrl)) {
      // `/mcp?sign-in`: the address a hosted assistant is given, so that its first call starts OAuth (RFC 6750 §3.1: no error code when none was sent).
      const message = o.resourceMetadataUrl
        ? 'Sign in: this address serves callers with a key or an access token; the resource metadata says where to get a token. (Call /mcp without ?sign-in for the free tier.)'
        : 'Sign-in is not set up on this server (its operator has not configured mail): send a key as X-API-Key or Authorization: Bearer, or call /mcp without ?sign-in for the free tier.';
      return rpcError(res, o, 401, RPC.serverError, 'UNAUTHORIZED', message, idOf(body), {
        'WWW-Authenticate': bearerChallenge({ resourceMetadata: o.resourceMetadataUrl }),
      });
    }
    try {
      o.access?.identify(req, res, { bearer: true });
    } catch (e) {
      const { error } = toApiError(e);
      // A credential that failed: the challenge says why, and where a client signs in (RFC 6750 §3, RFC 9728 §5.1).
      const challenge: Record<string, string> =
        error.status === 401
          ? { 'WWW-Authenticate': bearerChallenge({ resourceMetadata: o.resourceMetadataUrl, error: 'invalid_token', description: error.message }) }
          : {};
      return rpcError(res, o, error.status, RPC.serverError, error.code, error.message, idOf(body), challenge);
    }
    try {
      await requestScope.run({ req, res, snapshots: o.snapshots, access: o.access, logger: o.logger }, () => answer(req, res, body));
    } catch (e) {
      o.logger.error('unhandled error', {
        request_id: res.locals.requestId as string,
        path: '/mcp',
        error: e instanceof Error ? e.stack : String(e),
      });
      if (res.headersSent) res.destroy();
      else rpcError(res, o, 500, RPC.internalError, 'INTERNAL', 'Internal error. The request id identifies it in our logs.', idOf(body));
    }
  };
}

import { createServer, IncomingMessage, ServerResponse, type Server } from 'node:http';
import type { Express } from 'express';
import { LIMITS } from '../src/contract/vocabulary.js';
import { canonicalUrls, fullPath, type Operation } from '../src/contract/routes.js';
import { answerClientErrors } from './app.js';
import { requestTooLarge } from '../src/contract/request-path.js';
import { noteSizeChecked, sendBody, setCommonHeaders } from './kit/http.js';
import { holdIdleConnections } from './keep-alive.js';
import { KEEP_ALIVE } from '../src/contract/keep-alive.js';
import { observersOf, type Observe } from './kit/observe.js';
import { readTreeFile } from './routes/tree.js';
import { routerOf } from './router.js';
import type { SnapshotSource } from './kit/snapshot-source.js';

/**
 * The hottest requests, a static file of the route table asked for in its canonical spelling (a
 * company's summary or canonical view, mostly), are answered straight from the tree, without
 * Express's routing (which costs more than the file itself). Headers and body are those of the
 * Express path; anything else — other spellings (lower-case codes, `.json`, percent-encoding),
 * queries, misses, errors — falls through to Express, which owns every error envelope.
 */
function serveStaticFile(req: IncomingMessage, res: ServerResponse, snapshots: SnapshotSource, staticOp: StaticOp, observe?: Observe): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const url = req.url ?? '';
  const op = staticOp(url);
  if (!op) return false;
  let file;
  let store;
  try {
    store = snapshots.current();
    file = readTreeFile(store.dir, url);
  } catch {
    return false;
  }
  if (!file) return false;
  // Logged and measured like every request (same fields), with a lighter hook than Express's.
  observe?.(req, res, fullPath(op), store.meta.dataset_snapshot_id);
  setCommonHeaders(res);
  sendBody(req, res, file.bytes, op.ok.media, {}, file.etag);
  return true;
}
type StaticOp = (url: string) => Operation | null;

/**
 * How long a client may take to send a request: its headers, and the whole request with its body
 * (a POST body is at most 64 KiB). Past either, Node answers 408 and closes the connection, so a
 * slow or stalled client cannot hold a socket. Idle keep-alive connections are announced to last
 * `keepAliveMs` and kept `idleHoldMs`, so that the client always closes them first (server/keep-alive.ts).
 */
export const REQUEST_TIMEOUTS = { headersMs: 10_000, requestMs: 30_000, keepAliveMs: KEEP_ALIVE.announcedMs, idleHoldMs: KEEP_ALIVE.holdMs };
export type RequestTimeouts = typeof REQUEST_TIMEOUTS;

/**
 * Request and response classes whose objects are born with the app's own prototypes (we
 * decided to keep Express, through its public surface only). Express documents `app.request` and
 * `app.response` as the prototypes of the app's requests and responses ("Overriding the Express
 * API"), and sets them on each arrival with `Object.setPrototypeOf`; Node documents the
 * `IncomingMessage` and `ServerResponse` classes a server makes its objects with (`createServer`
 * options). Made with the app's prototypes, Express's `setPrototypeOf` changes nothing (setting an
 * object's prototype to the one it has is a no-op in ECMAScript itself), so no request leaves V8 a
 * fresh hidden class to collect: under load those filled the old generation and brought the
 * mark-compacts behind the tail measured (bench/results.md).
 */
export function appClasses(app: Express): { IncomingMessage: typeof IncomingMessage; ServerResponse: typeof ServerResponse } {
  // Node's own constructors are plain functions (`function IncomingMessage(socket)`), meant to be
  // called on a subclass's `this` exactly like this.
  function AppRequest(this: IncomingMessage, socket: ConstructorParameters<typeof IncomingMessage>[0]) {
    IncomingMessage.call(this, socket);
  }
  AppRequest.prototype = app.request;
  function AppResponse(this: ServerResponse, req: IncomingMessage, options?: unknown) {
    (ServerResponse as unknown as (this: ServerResponse, req: IncomingMessage, options?: unknown) => void).call(this, req, options);
  }
  AppResponse.prototype = app.response;
  return { IncomingMessage: AppRequest as unknown as typeof IncomingMessage, ServerResponse: AppResponse as unknown as typeof ServerResponse };
}

/** The HTTP server of the shim: the company-file fast path, then the Express app. */
export function createHttpServer(app: Express, snapshots: SnapshotSource, custom: Partial<RequestTimeouts> = {}): Server {
  const timeouts = { ...REQUEST_TIMEOUTS, ...custom };
  // The parser's own bound sits well above the contract's limits, so requests over those limits are
  // read whole and answered 414/431 by the app (request-path.ts), not cut off mid-request.
  const observers = observersOf(app);
  const router = routerOf(app);
  // The operations a GET of whose URL is its tree file alone, in their canonical spelling.
  const staticOp = canonicalUrls(router.matcher.table.filter((op) => op.method === 'GET' && router.servesFile(op)));
  const observe = observers?.request;
  const server = createServer(
    {
      ...appClasses(app),
      maxHeaderSize: 4 * (LIMITS.urlBytes + LIMITS.headerBytes),
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      keepAliveTimeout: timeouts.keepAliveMs,
      // How often Node checks the two timeouts above (default 30 s, longer than the headers' own).
      connectionsCheckingInterval: Math.min(1000, timeouts.headersMs),
    },
    (req, res) => {
      const refusal = requestTooLarge(req.url ?? '', req.rawHeaders);
      if (!refusal && serveStaticFile(req, res, snapshots, staticOp, observe)) return;
      noteSizeChecked(res, refusal);
      observe?.(req, res); // a line and metrics for every request the app answers
      app(req, res);
    },
  );
  answerClientErrors(server, snapshots, observers?.refused);
  holdIdleConnections(server, timeouts.idleHoldMs);
  return server;
}

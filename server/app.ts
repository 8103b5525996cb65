import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Socket } from 'node:net';
import express, { type NextFunction, type Request, type Response } from 'express';
import { LIMITS } from '../src/contract/vocabulary.js';
import { API_BASE } from '../src/contract/api-paths.js';
import type { Access } from './access/index.js';
import { DownloadSlots } from './kit/download-slots.js';
import { type DownloadLimits } from '../src/contract/downloads.js';
import { ApiError, badRequest, headersTooLarge, methodNotAllowed, uriTooLong } from '../src/contract/errors.js';
import { errorBody, toApiError } from './kit/errors.js';
import { CORS_HEADERS, JSON_TYPE, MCP_PREFLIGHT_HEADERS, NO_STORE, PREFLIGHT_HEADERS, READ_ONLY_METHODS } from '../src/contract/headers.js';
import { setCommonHeaders, sizeRefusal } from './kit/http.js';
import { silentLogger, type Logger } from './kit/logger.js';
import type { Metrics } from './kit/metrics.js';
import { mcpRoute } from './mcp/route.js';
import { MCP_PATH } from '../src/contract/api-paths.js';
import { observeRequests, type ObserveRejected } from './kit/observe.js';
import { Router, useRouter } from './router.js';
import { noSuchPath } from '../src/contract/named-errors.js';
import { pagesRoute } from './routes/pages.js';
import { keysRoute } from './routes/keys.js';
import type { KeyMailer } from './access/key-mail.js';
import { KeyRequests } from './access/key-requests.js';
import { openOAuth, withoutSignIn, type OAuthStore } from './oauth/index.js';
import { OAUTH_CORS_PATHS } from '../src/contract/oauth.js';
import type { SnapshotSource } from './kit/snapshot-source.js';

export interface AppOptions {
  snapshots: SnapshotSource;
  logger?: Logger;
  /** Express `trust proxy` value (hop count or addresses); never `true`. Default: trust none. */
  trustProxy?: number | string;
  /** Keys and quotas (contract 6). Without them every call is answered, uncounted. */
  access?: Access;
  /** Request metrics (server/kit/metrics.ts); without them none are kept. */
  metrics?: Metrics;
  /** True once a shutdown has begun (server/shutdown.ts): /readyz answers 503 from then on. */
  stopping?: () => boolean;
  /** Caps on downloads sent at once (server/kit/download-slots.ts); default DEFAULT_DOWNLOAD_LIMITS. */
  downloads?: DownloadLimits;
  /** The API's operations and how they are answered; default the route table (src/contract/routes.ts). */
  router?: Router;
  /** Browser origins allowed to call /mcp (MCP_ALLOWED_ORIGINS, server/kit/settings.ts); default: loopback pages only. */
  mcpAllowedOrigins?: readonly string[] | '*';
  /** Mails for the keys page (SMTP_URL, server/access/key-mail.ts); without it `/keys/` says keys come from the operator. */
  mailer?: KeyMailer;
  /** The keys page's requests and links; default: in the access's key store, on the real clock (tests pass their own clock). */
  keyRequests?: KeyRequests;
  /** OAuth's state (server/oauth/store.ts); default: in the access's key store. Sign-in is on when mail is (it needs the mailed link). */
  oauthStore?: OAuthStore;
  /** OAUTH_CLIENT_METADATA_PRIVATE: client metadata documents may be on private addresses (tests, closed networks). */
  oauthClientMetadataPrivate?: boolean;
}

/** OAuth's endpoints a browser client calls across origins (their preflight allows Authorization). */
const OAUTH_CORS = new Set<string>(OAUTH_CORS_PATHS);

/**
 * The shim: serves the current snapshot's static tree and computes what has a query string or a
 * body, with the contract's headers and one error envelope for every failure.
 */
export function createApp(o: AppOptions): express.Express {
  const logger = o.logger ?? silentLogger;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', false);
  app.set('trust proxy', o.trustProxy ?? false);
  // Fixed path words are case-sensitive everywhere, as on the static host serving the same tree.
  app.set('case sensitive routing', true);
  // A log line and metrics per request, started by the HTTP server (server/serve.ts), fast path included.
  const router = o.router ?? new Router();
  useRouter(app, router);
  observeRequests({ app, logger, metrics: o.metrics, snapshots: o.snapshots, routes: router.matcher });

  // Keys from the page and OAuth's sign-in both need mail (a person proves an address by a mailed link).
  const keyRequests = o.keyRequests ?? (o.mailer && o.access ? new KeyRequests(o.access.keys) : undefined);
  // OAuth's issuer is PUBLIC_URL, which must be https (RFC 8414; loopback for a machine's own use): over
  // plain http to another machine a token would cross the network in the clear, so sign-in stays off.
  const oauth =
    o.mailer && o.access && keyRequests && issuerAllowed(o.mailer.publicUrl, logger)
      ? openOAuth({
          snapshots: o.snapshots,
          keys: o.access.keys,
          requests: keyRequests,
          mailer: o.mailer,
          logger,
          store: o.oauthStore,
          clientMetadataPrivate: o.oauthClientMetadataPrivate,
          limiterStore: (name) => o.access!.limiterStore(name),
        })
      : undefined;
  if (oauth && o.access) o.access.tokens = oauth.tokens;

  app.use((req, res, next) => {
    res.locals.requestId = setCommonHeaders(res);
    const tooLarge = sizeRefusal(req, res);
    if (tooLarge) return next(tooLarge);
    if (req.method === 'OPTIONS') {
      // /mcp and OAuth's endpoints take Authorization from browser clients; the API takes X-API-Key.
      res
        .set(req.path === MCP_PATH || OAUTH_CORS.has(req.path) ? MCP_PREFLIGHT_HEADERS : PREFLIGHT_HEADERS)
        .status(204)
        .end();
      return;
    }
    next();
  });

  healthRoutes(app, o);

  // The Model Context Protocol (docs/mcp.md): tools over the same bodies as the API.
  app.all(
    MCP_PATH,
    mcpRoute({
      snapshots: o.snapshots,
      access: o.access,
      logger,
      allowedOrigins: o.mcpAllowedOrigins,
      resourceMetadataUrl: oauth?.resourceMetadataUrl,
    }),
  );

  const services = { snapshots: o.snapshots, access: o.access, downloads: new DownloadSlots(o.downloads) };
  app.use(API_BASE, (req: Request, res: Response, next: NextFunction) => router.dispatch(req, res, services).catch(next));

  // OAuth for /mcp (server/oauth): its metadata, endpoints and the sign-in and consent pages.
  app.use(oauth ? oauth.router : withoutSignIn(o.access?.keys));
  // The keys page's forms and mailed links, before the static pages they sit among.
  app.use(keysRoute({ snapshots: o.snapshots, access: o.access, mailer: o.mailer, requests: keyRequests, oauth: oauth?.store, logger }));
  app.use(pagesRoute(o.snapshots)); // pages for people, outside /api/v1

  app.use((req: Request, _res: Response, next: NextFunction) => next(noSuchPath(req.originalUrl.split('?')[0]!)));

  // Every failure, from any middleware, leaves through here in the one envelope.
  app.use(errorEnvelope(o.snapshots, logger));

  return app;
}

/** /healthz and /readyz, for the supervisor and the load balancer. */
function healthRoutes(app: express.Express, o: AppOptions): void {
  app.get('/healthz', (_req, res) => {
    res.setHeader('Cache-Control', NO_STORE);
    res.json({ ok: true });
  });
  // Ready: a snapshot is open and readable. Redis being down does not make the shim unready: it
  // fails open (serves metered calls uncounted), so the body says `redis: "down"` with a 200.
  app.get('/readyz', async (_req, res) => {
    res.setHeader('Cache-Control', NO_STORE);
    if (o.stopping?.()) {
      res.status(503).json({ ok: false, reason: 'shutting down' });
      return;
    }
    // Unready also while the database is damaged, or files the snapshot lists are missing (snapshot-source.ts).
    const reason = o.snapshots.unready();
    if (reason !== null) {
      res.status(503).json({ ok: false, reason });
      return;
    }
    const snapshot = o.snapshots.current().meta.dataset_snapshot_id;
    const body: Record<string, unknown> = { ok: true, dataset_snapshot_id: snapshot };
    if (o.access) {
      body.quota_counters = o.access.countersKind;
      if (o.access.countersKind === 'redis') body.redis = (await o.access.countersReachable()) ? 'up' : 'down';
    }
    res.json(body);
  });

  // The health paths only read: any other method is a 405 naming those they take (OPTIONS is answered above).
  app.all(['/healthz', '/readyz'], (req, _res, next) => next(methodNotAllowed(req.method, READ_ONLY_METHODS)));
}

/** The error middleware: any failure as the contract's envelope, with its status and headers (an unexpected one logged). */
function errorEnvelope(snapshots: SnapshotSource, logger: Logger) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const { error, unexpected } = toApiError(err);
    snapshots.readFailed(err); // a damaged database makes the shim unready until its file changes
    const requestId = (res.locals.requestId as string | undefined) ?? randomUUID();
    if (unexpected) logger.error('unhandled error', { request_id: requestId, path: req.path, error: err instanceof Error ? err.stack : String(err) });
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const body = errorBody(snapshots, error.code, error.message, requestId);
    res.status(error.status);
    res.set({ ...CORS_HEADERS, ...error.headers, 'X-Request-Id': requestId, 'Cache-Control': NO_STORE, 'Content-Type': JSON_TYPE });
    res.removeHeader('ETag');
    res.removeHeader('Content-Disposition');
    const bytes = Buffer.from(JSON.stringify(body), 'utf8');
    res.setHeader('Content-Length', bytes.length);
    res.end(req.method === 'HEAD' ? undefined : bytes);
  };
}

/** Whether PUBLIC_URL can be OAuth's issuer (https, or http to loopback); if not, says so once in the log. */
function issuerAllowed(publicUrl: string, logger: Logger): boolean {
  const { protocol, hostname } = new URL(publicUrl);
  if (protocol === 'https:' || ['localhost', '127.0.0.1'].includes(hostname)) return true;
  logger.warn('OAuth sign-in for /mcp is off: PUBLIC_URL must be https (or loopback) to be an issuer', { public_url: publicUrl });
  return false;
}

/** What Node's HTTP parser rejected, as the contract's error. */
function parserError(err: NodeJS.ErrnoException & { rawPacket?: Buffer }): ApiError {
  switch (err.code) {
    case 'HPE_INVALID_METHOD':
      // A well-formed request line with a method Node does not know (FOO) is a 405; other bytes are not HTTP.
      if (/^[A-Z]+ \S+ HTTP\/1\.[01]\r?\n/.test((err.rawPacket ?? Buffer.alloc(0)).subarray(0, LIMITS.urlBytes).toString('latin1'))) {
        return new ApiError('METHOD_NOT_ALLOWED', `Unknown method; the API takes ${ALLOWED_METHODS}.`, { Allow: ALLOWED_METHODS });
      }
      return badRequest('Malformed HTTP request.');
    case 'HPE_HEADER_OVERFLOW': {
      // Over the parser's own bound: an over-long request line is the URL's fault, else the headers'.
      // rawPacket is only the chunk the parser was reading, which may start anywhere in the request:
      // with the method (the request line is its first line), inside the URL (its first line ends in
      // the HTTP version), or inside the headers (neither; also when a chunk holds no line end).
      const packet = err.rawPacket ?? Buffer.alloc(0);
      const lineEnd = packet.indexOf('\r\n');
      const firstLine = packet.subarray(0, lineEnd < 0 ? packet.length : lineEnd).toString('latin1');
      const longUrl = /^[A-Z]+ /.test(firstLine.slice(0, 16))
        ? lineEnd < 0 || lineEnd > LIMITS.urlBytes
        : lineEnd >= 0 && / HTTP\/1\.[01]$/.test(firstLine);
      return longUrl ? uriTooLong() : headersTooLarge();
    }
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError('REQUEST_TIMEOUT', 'The request did not arrive in time: send its headers, then its body, without pausing.');
    default:
      return badRequest('Malformed HTTP request.');
  }
}
const ALLOWED_METHODS = 'GET, HEAD, POST, OPTIONS';

/**
 * Requests Node's HTTP parser rejects before Express sees them (unknown methods, oversized request
 * lines or headers, bytes that are not HTTP) get the same envelope instead of Node's bare response.
 * The connection is closed after the answer, but what the client is still sending is read and
 * dropped first: closing a socket with unread input resets it, and the client would lose the answer.
 */
export function answerClientErrors(server: Server, snapshots: SnapshotSource, observe?: ObserveRejected): void {
  server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
    if (!socket.writable || err.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const error = parserError(err);
    const requestId = randomUUID();
    const bytes = Buffer.from(JSON.stringify(errorBody(snapshots, error.code, error.message, requestId)), 'utf8');
    const headers = {
      ...CORS_HEADERS,
      ...error.headers,
      'X-Request-Id': requestId,
      'Cache-Control': NO_STORE,
      'Content-Type': JSON_TYPE,
      'Content-Length': String(bytes.length),
      Connection: 'close',
    };
    const answer = `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}\r\n${Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}`)
      .join('\r\n')}\r\n\r\n${bytes.toString('utf8')}`;
    socket.end(answer);
    observe?.({ status: error.status, requestId, socket: socket as Socket, bytes: Buffer.byteLength(answer) });
    socket.on('error', () => socket.destroy());
    socket.resume();
    setTimeout(() => socket.destroy(), 2000).unref();
  });
}

import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { ErrorBody } from '../src/contract/common.js';
import { API_BASE } from '../src/site/static-paths.js';
import { bucketsFor, type Access } from './access/index.js';
import type { RouteContext } from './context.js';
import { ApiError, badRequest, toApiError } from './errors.js';
import { CORS_HEADERS, JSON_TYPE, NO_STORE, PREFLIGHT_HEADERS, setCommonHeaders } from './http.js';
import { silentLogger, type Logger } from './logger.js';
import { resolveRoute, unknownPath } from './router.js';
import type { SnapshotSource } from './snapshot-source.js';

export interface AppOptions {
  snapshots: SnapshotSource;
  logger?: Logger;
  /** Express `trust proxy` value (hop count or addresses); never `true`. Default: trust none. */
  trustProxy?: number | string;
  /** Keys and quotas (contract 6). Without them every call is answered, uncounted. */
  access?: Access;
}

const MAX_BODY = '64kb';

/** The three snapshot fields for an error body, or nulls when no snapshot can be read. */
function snapshotFieldsFor(source: SnapshotSource): Pick<ErrorBody, 'methodology_version' | 'dataset_snapshot_id' | 'data_asof'> {
  try {
    const { meta } = source.current();
    return { methodology_version: meta.methodology_version, dataset_snapshot_id: meta.dataset_snapshot_id, data_asof: meta.data_asof };
  } catch {
    return { methodology_version: null, dataset_snapshot_id: null, data_asof: null };
  }
}

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

  app.use((req, res, next) => {
    res.locals.requestId = setCommonHeaders(res);
    if (req.method === 'OPTIONS') {
      res.set(PREFLIGHT_HEADERS).status(204).end();
      return;
    }
    next();
  });

  app.get('/healthz', (_req, res) => {
    res.setHeader('Cache-Control', NO_STORE);
    res.json({ ok: true });
  });
  app.get('/readyz', (_req, res) => {
    res.setHeader('Cache-Control', NO_STORE);
    try {
      const store = o.snapshots.current();
      store.db.prepare('SELECT 1 FROM meta LIMIT 1').get();
      res.json({ ok: true, dataset_snapshot_id: store.meta.dataset_snapshot_id });
    } catch (e) {
      res.status(503).json({ ok: false, reason: e instanceof ApiError ? e.message : 'snapshot unreadable' });
    }
  });

  const jsonBody = express.json({ limit: MAX_BODY, strict: false, type: () => true });

  app.use(API_BASE, async (req: Request, res: Response, next: NextFunction) => {
    try {
      const rawQuery = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?') + 1) : '';
      const segments = req.path.split('/').filter((s) => s !== '');
      // `.json` on the last segment names the same resource (how a static host serves the tree).
      if (segments[0] !== 'downloads' && segments.length > 0) segments[segments.length - 1] = segments.at(-1)!.replace(/\.json$/, '');
      const params: string[] = [];
      const route = resolveRoute(segments, params);
      if (!route) throw unknownPath(req.originalUrl.split('?')[0]!);
      const method = req.method === 'HEAD' ? 'GET' : req.method;
      if (!(route.methods as readonly string[]).includes(method)) {
        const allow = [...route.methods, ...(route.methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'].join(', ');
        throw new ApiError('METHOD_NOT_ALLOWED', `${req.method} is not allowed here; allowed: ${allow}.`, { Allow: allow });
      }
      await o.access?.meter(req, res, bucketsFor(method, segments, rawQuery));
      if (method === 'POST') {
        const type = req.headers['content-type'] ?? '';
        if (!/^application\/json\s*(;|$)/i.test(type)) throw badRequest('POST bodies must be sent with Content-Type: application/json.');
        await new Promise<void>((resolve, reject) => jsonBody(req, res, (err?: unknown) => (err ? reject(err) : resolve())));
      }
      const ctx: RouteContext = { req, res, store: o.snapshots.current(), source: o.snapshots, rawQuery, params, access: o.access };
      await route.handle(ctx);
    } catch (e) {
      next(e);
    }
  });

  app.use((req: Request, _res: Response, next: NextFunction) => next(unknownPath(req.originalUrl.split('?')[0]!)));

  // Every failure, from any middleware, leaves through here in the one envelope.
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const { error, unexpected } = toApiError(err);
    const requestId = (res.locals.requestId as string | undefined) ?? randomUUID();
    if (unexpected) logger.error('unhandled error', { request_id: requestId, path: req.path, error: err instanceof Error ? err.stack : String(err) });
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const body: ErrorBody = { ok: false, error: { code: error.code, message: error.message, request_id: requestId }, ...snapshotFieldsFor(o.snapshots) };
    res.status(error.status);
    res.set({ ...CORS_HEADERS, ...error.headers, 'X-Request-Id': requestId, 'Cache-Control': NO_STORE, 'Content-Type': JSON_TYPE });
    res.removeHeader('ETag');
    res.removeHeader('Content-Disposition');
    const bytes = Buffer.from(JSON.stringify(body), 'utf8');
    res.setHeader('Content-Length', bytes.length);
    res.end(req.method === 'HEAD' ? undefined : bytes);
  });

  return app;
}

/**
 * Requests Node's HTTP parser rejects before Express sees them (oversized headers, bytes that are not
 * HTTP) get the same envelope, as a 400, instead of Node's bare response.
 */
export function answerClientErrors(server: Server, snapshots: SnapshotSource): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || err.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const requestId = randomUUID();
    const message = err.code === 'HPE_HEADER_OVERFLOW' ? 'The request line or headers are too large.' : 'Malformed HTTP request.';
    const body: ErrorBody = { ok: false, error: { code: 'BAD_REQUEST', message, request_id: requestId }, ...snapshotFieldsFor(snapshots) };
    const bytes = Buffer.from(JSON.stringify(body), 'utf8');
    const headers = { ...CORS_HEADERS, 'X-Request-Id': requestId, 'Cache-Control': NO_STORE, 'Content-Type': JSON_TYPE, 'Content-Length': String(bytes.length), Connection: 'close' };
    socket.end(`HTTP/1.1 400 Bad Request\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n${bytes.toString('utf8')}`);
  });
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Express, Request } from 'express';
import { LOCALE_PREFIX, localeOfPath } from '../../src/site/i18n/locales.js';
import { FILTER_PARAM, pageUrls } from '../../src/site/i18n/paths.js';
import { RouteMatcher } from '../../src/contract/routes.js';
import { API_BASE, MCP_PATH, sameResource } from '../../src/contract/api-paths.js';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics.js';
import type { SnapshotSource } from './snapshot-source.js';

/** What is known of a request while it runs, kept on its response. */
interface Watch {
  req: IncomingMessage;
  start: number;
  /** The connection's bytes written when the request began (a keep-alive socket carries several). */
  sent: number;
  /** Taken from the URL as it arrived (Express rewrites `req.url` below a mount point). */
  route: string;
  snapshot: string | null;
  /** Read when the request arrives: a closed socket no longer knows its peer. */
  client: string | null;
  tier?: string;
  keyId?: string | null;
  /** An MCP request's tool, once the MCP route knows it (server/mcp/route.ts). */
  tool?: string;
}
const WATCH = Symbol('observe');
type Watched = ServerResponse & { [WATCH]?: Watch };

/** Who called, once the meter knows (server/access/meter.ts): the tier and the key's public id, never the key. */
export function noteCaller(res: ServerResponse, tier: string, keyId: string | null): void {
  const watch = (res as Watched)[WATCH];
  if (watch) {
    watch.tier = tier;
    watch.keyId = keyId;
  }
}

/** An MCP request's tool (a known tool's name, never what a client sent), for its log line. */
export function noteTool(res: ServerResponse, tool: string): void {
  const watch = (res as Watched)[WATCH];
  if (watch) watch.tool = tool;
}

/** Where the health checks answer (server/app.ts). */
const HEALTH_PATHS = ['/healthz', '/readyz'];
/** Pages and files whose path is their own label: the English page URLs (src/site/i18n/paths.ts) without a parameter. */
const PAGE_WORDS = new Set([
  pageUrls.home,
  pageUrls.etfList,
  pageUrls.ranking(),
  pageUrls.sources,
  pageUrls.methodology,
  pageUrls.downloads,
  pageUrls.research,
  pageUrls.docs,
  // The keys page and its flow (a mailed link's token is in its query string, never in the label).
  pageUrls.keys,
  pageUrls.keysAsk,
  pageUrls.keysManage,
  pageUrls.keysLink,
  pageUrls.favicon,
  pageUrls.searchIndex,
  pageUrls.notFound,
  ...HEALTH_PATHS,
]);

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const MARK = '\u0000';

/** A page URL with one parameter as a label (`/company/{ticker}/`) and a pattern matching it, its final slash optional. */
function pageTemplate(url: (value: string) => string, name: string): { label: string; pattern: RegExp } {
  const page = url(MARK);
  const pattern = escapeRegex(page).replace(MARK, '[^/]+');
  return { label: page.replace(MARK, `{${name}}`), pattern: new RegExp(`^${page.endsWith('/') ? `${pattern.slice(0, -1)}/?` : pattern}$`) };
}
const PAGE_TEMPLATES = [pageTemplate(pageUrls.company, 'ticker'), pageTemplate(pageUrls.etf, 'code')];
const ASSETS = pageUrls.asset('');
const ASSET_LABEL = pageUrls.asset('{file}');

/** A ranking page: the default one or a filter's (FILTER_PARAM's kinds), its first page or page N. */
const RANKING_BASE = pageUrls.ranking();
const RANKING_PAGE = new RegExp(`^${escapeRegex(RANKING_BASE)}(?:(${Object.keys(FILTER_PARAM).join('|')})/[^/]+/)?(?:page/[^/]+/?)?$`);

/**
 * A request's route as a pattern (`/api/v1/company/{ticker}`), never the raw path: a label with a
 * bounded set of values for metrics, and a log field to group by. Paths the service does not have
 * are `unknown`; other pages than those listed are `page`.
 */
export function routePattern(url: string, routes: RouteMatcher = DEFAULT_ROUTES): string {
  const query = url.indexOf('?');
  const path = query < 0 ? url : url.slice(0, query);
  if (path === API_BASE || path.startsWith(`${API_BASE}/`)) return apiPattern(path.slice(API_BASE.length + 1), routes);
  if (path === MCP_PATH) return path;
  // Another language's page is its English page's pattern under the language's prefix.
  const prefix = LOCALE_PREFIX[localeOfPath(path)];
  if (prefix !== '') {
    const english = pagePattern(path.slice(prefix.length) || '/');
    return english === 'page' ? english : `${prefix}${english}`;
  }
  return pagePattern(path);
}

function pagePattern(path: string): string {
  if (PAGE_WORDS.has(path)) return path;
  for (const t of PAGE_TEMPLATES) if (t.pattern.test(path)) return t.label;
  const ranking = RANKING_PAGE.exec(path);
  if (ranking) return `${RANKING_BASE}${ranking[1] ? `${ranking[1]}/{value}/` : ''}${path.includes('/page/') ? 'page/{page}/' : ''}`;
  if (path.startsWith(ASSETS)) return ASSET_LABEL;
  return 'page';
}

/** An API path's operation template (src/contract/routes.ts), matched by position: a malformed code is still its route. */
function apiPattern(rest: string, routes: RouteMatcher): string {
  return routes.match(sameResource(rest === '' ? [] : rest.split('/')))?.pattern ?? 'unknown';
}

const DEFAULT_ROUTES = new RouteMatcher();

/**
 * The client address as Express sees it (`req.ip`: `X-Forwarded-For` believed only as far as
 * TRUST_PROXY says), also for requests the fast path answers outside Express. Without TRUST_PROXY it
 * is the socket's peer, read directly.
 */
function clientAddressOf(app: Express): (req: IncomingMessage) => string | undefined {
  if (!app.get('trust proxy')) return (req) => req.socket.remoteAddress;
  return (req) =>
    'ip' in req ? (req as Request).ip : Reflect.get(app.request, 'ip', { app, headers: req.headers, socket: req.socket, connection: req.socket });
}

export interface ObserveOptions {
  app: Express;
  logger: Logger;
  metrics?: Metrics;
  snapshots: SnapshotSource;
  /** The API's operations, for the route label; default the route table. */
  routes?: RouteMatcher;
}

/**
 * Starts watching a request, called by the HTTP server (server/serve.ts) as it arrives: before
 * Express for the app's requests, just before answering for the company-file fast path, which
 * knows its route and snapshot already.
 */
export type Observe = (req: IncomingMessage, res: ServerResponse, route?: string, snapshot?: string) => void;

/**
 * A request Node's parser refused before there was a request object (a stalled or oversized
 * request, bytes that are not HTTP: 408, 414, 431, 400, 405), answered by server/app.ts
 * answerClientErrors: logged and counted like any other, its route `unknown` (its URL, if any, is
 * not to be trusted), its method null.
 */
export type ObserveRejected = (o: { status: number; requestId: string; socket: Socket; bytes: number }) => void;

/** What the HTTP server calls for an app's requests, answered and refused. */
export interface Observers {
  request: Observe;
  refused: ObserveRejected;
}
const observers = new WeakMap<Express, Observers>();

/** The observers createApp made for its app; none when nothing is watched. */
export function observersOf(app: Express): Observers | undefined {
  return observers.get(app);
}

/**
 * Watches the app's requests: a request line (pino) when the logger has pino behind it and `info`
 * is on (LOG_LEVEL=warn turns them off, at no cost per request), metrics when given: one shared
 * `close` listener per request (a response emits it once, when finished or when its connection
 * closed first), one line. The HTTP server calls it (not an Express middleware: a layer of
 * Express's router costs a request more than the line itself).
 *
 * Not pino-http: its middleware adds seven properties to each request and response and makes a
 * child logger per request, which cost a request through Express several times this line's CPU (bench/results.md, "Figures
 * behind code comments").
 */
export function observeRequests(o: ObserveOptions): void {
  const metrics = o.metrics;
  const writeLine = o.logger.request;
  if (!writeLine && !metrics) return;
  const clientAddress = clientAddressOf(o.app);

  const snapshotId = () => {
    try {
      return o.snapshots.current().meta.dataset_snapshot_id;
    } catch {
      return null;
    }
  };

  /** Written when the response has finished or its connection closed, whichever comes first. */
  function onClose(this: Watched): void {
    const watch = this[WATCH]!;
    const req = watch.req;
    const ms = performance.now() - watch.start;
    // A request whose connection closed before any answer has no status (nginx would say 499).
    // Headers handed to a socket the client had already closed never left: no status either.
    const status = this.headersSent && (this.writableFinished || req.socket.bytesWritten > watch.sent) ? this.statusCode : null;
    if (writeLine) {
      const id = this.getHeader('X-Request-Id');
      writeLine(
        {
          request_id: typeof id === 'string' ? id : null,
          method: req.method ?? null,
          route: watch.route,
          status,
          duration_ms: Math.round(ms * 1000) / 1000,
          bytes: req.socket.bytesWritten - watch.sent,
          tier: watch.tier ?? null,
          key_id: watch.keyId ?? null,
          client: watch.client,
          snapshot: watch.snapshot,
          tool: watch.tool,
        },
        this.writableFinished ? 'request' : 'request aborted',
      );
    }
    metrics?.request(watch.route, status, ms / 1000);
  }

  const request: Observe = (req, res, route, snapshot) => {
    (res as Watched)[WATCH] = {
      req,
      start: performance.now(),
      sent: req.socket.bytesWritten,
      route: route ?? routePattern(req.url ?? '/', o.routes),
      snapshot: writeLine ? (snapshot ?? snapshotId()) : null,
      client: writeLine ? (clientAddress(req) ?? null) : null,
    };
    res.on('close', onClose);
  };

  const refused: ObserveRejected = ({ status, requestId, socket, bytes }) => {
    if (writeLine) {
      writeLine(
        {
          request_id: requestId,
          method: null,
          route: 'unknown',
          status,
          duration_ms: 0,
          bytes,
          tier: null,
          key_id: null,
          // The socket's peer: no headers were read, so X-Forwarded-For cannot say otherwise.
          client: socket.remoteAddress ?? null,
          snapshot: snapshotId(),
        },
        'request refused',
      );
    }
    metrics?.request('unknown', status, 0);
  };
  observers.set(o.app, { request, refused });
}

import { parseCode } from '../src/contract/params.js';
import { parseBody, parseQuery } from '../src/contract/parse-request.js';
import { noQuerySchema, pageSegmentSchema } from '../src/contract/queries.js';
import { urls } from '../src/contract/urls.js';
import { usage } from './access/usage.js';
import type { RouteContext } from './context.js';
import { ApiError, badRequest, notFound } from '../src/contract/errors.js';
import { batch } from './routes/batch.js';
import { packs } from './routes/packs.js';
import { canonicalWithFields } from './routes/canonical.js';
import { compare } from './routes/compare.js';
import { download, downloadFolderRedirect } from './routes/downloads.js';
import { rankingQuery } from './routes/ranking.js';
import { filteredRegistry } from './routes/registry.js';
import { serveTreeFile, type Listed } from './routes/tree.js';
import { pinnedRead } from './routes/pinned.js';
import { filteredChanges } from './routes/changes.js';
import { serveFeed } from './routes/feed.js';

type Handler = (ctx: RouteContext) => void | Promise<void>;

/** A resolved route: the methods it takes and its handler. GET routes also answer HEAD. */
export interface Route {
  methods: readonly ('GET' | 'POST')[];
  handle: Handler;
  /** The static file a GET without a query answers, if any (what a pinned read serves). */
  file?: string;
}

const GET_ONLY: Route['methods'] = Object.freeze(['GET'] as const);
const POST_ONLY: Route['methods'] = Object.freeze(['POST'] as const);
/**
 * A GET route, with the static file it answers when there is one. A route is made per request: as
 * one literal, always of the same shape (a spread of a route followed by `file` was a copy that V8
 * made in the old generation, a few hundred bytes a request for a mark-compact to take back).
 */
const get = (handle: Handler, file?: string): Route => ({ methods: GET_ONLY, handle, file });

/** A code in the path, upper-cased; a malformed one is a 400 (contract 1.1). */
function code(raw: string, what: 'ticker' | 'fund code'): string {
  const parsed = parseCode(raw, what);
  if (typeof parsed !== 'string') throw badRequest(parsed.error);
  return parsed;
}

/**
 * A static file; with a query string, the dynamic handler if there is one, else 400 (no parameters).
 * `listed`: whether the snapshot has the file's resource, so that its file missing is a 502, not a 404.
 */
function fileOr(url: string, missing: string, endpoint: string, dynamic?: Handler, listed?: Listed): Route {
  return get((ctx) => {
    if (ctx.rawQuery !== '') {
      if (dynamic) return dynamic(ctx);
      parseQuery(noQuerySchema, ctx.rawQuery, endpoint);
    }
    return serveTreeFile(ctx, url, missing, listed);
  }, url);
}

const companyListed = (ticker: string): Listed => (store) => store.company(ticker) !== undefined;

/** /snapshots/{id}/<static path>: the rest of the path resolves as usual, then is read from snapshot {id}. */
function pinned(id: string, rest: string[]): Route {
  const path = rest.length === 1 && rest[0] === '' ? [] : rest;
  return get((ctx) => pinnedRead(ctx, id, () => resolveRoute(path, [])?.file ?? null));
}

/**
 * Maps the path below /api/v1 (already split, `.json` stripped from the last segment) onto a route.
 * Codes are validated here, so handlers only ever see well-formed, upper-case codes. Returns null
 * for a path the API does not have.
 */
export function resolveRoute(segments: string[], params: string[]): Route | null {
  const [a, b, c] = segments;
  switch (segments.length) {
    case 0:
      return fileOr(urls.index, 'The index is missing from this snapshot.', '/');
    case 1:
      switch (a) {
        case 'index': // the index's own file, as a static host serves it
          return fileOr(urls.index, 'The index is missing from this snapshot.', '/');
        case 'company':
          return null;
        case 'etf':
          return fileOr(urls.etfList, 'The ETF list is missing from this snapshot.', '/etf');
        case 'ranking':
          return fileOr(urls.ranking, 'The ranking is missing from this snapshot.', '/ranking', rankingQuery);
        case 'methodology':
          return fileOr(urls.methodology, 'The methodology is missing from this snapshot.', '/methodology');
        case 'snapshots':
          return fileOr(urls.snapshots, 'The snapshot list is missing from this snapshot.', '/snapshots');
        case 'openapi':
          return fileOr(urls.openapi, 'The OpenAPI document is missing from this snapshot.', '/openapi.json');
        case 'feed.atom':
          return get(serveFeed, urls.feed);
        case 'changes':
          return fileOr(urls.changes, 'The changes are missing from this snapshot.', '/changes', filteredChanges);
        case 'compare':
          return get(compare);
        case 'batch':
          return { methods: POST_ONLY, handle: batch };
        case 'packs':
          return { methods: POST_ONLY, handle: packs };
        case 'usage':
          return get(usage);
      }
      return null;
    case 2:
      if (a === 'company') {
        const t = code(b!, 'ticker');
        params.push(t);
        return fileOr(urls.company(t), `Unknown ticker: ${t}`, '/company/{ticker}', undefined, companyListed(t));
      }
      if (a === 'etf') {
        const fund = code(b!, 'fund code');
        return fileOr(urls.etf(fund), `Unknown fund code: ${fund}`, '/etf/{code}', undefined, (store) => store.etf(fund) !== undefined);
      }
      if (a === 'snapshots') return pinned(b!, []);
      if (a === 'downloads') return get((ctx) => downloadFolderRedirect(ctx, b!)); // the folder, its slash missing
      if (a === 'sources' && b === 'registry') {
        return fileOr(urls.registry, 'The registry is missing from this snapshot.', '/sources/registry', filteredRegistry);
      }
      return null;
    case 3:
      if (a === 'company' && c === 'canonical') {
        const t = code(b!, 'ticker');
        params.push(t);
        return fileOr(urls.canonical(t), `Unknown ticker: ${t}`, '/company/{ticker}/canonical', canonicalWithFields, companyListed(t));
      }
      if (a === 'company' && c === 'history') {
        const t = code(b!, 'ticker');
        params.push(t);
        return fileOr(urls.history(t), `Unknown ticker: ${t}`, '/company/{ticker}/history', undefined, companyListed(t));
      }
      if (a === 'ranking' && b === 'page') {
        const page = parseBody(pageSegmentSchema, c);
        // Pages past the end are not files; the dynamic ranking answers them with an empty page.
        return get((ctx) => {
          if (ctx.rawQuery !== '') parseQuery(noQuerySchema, ctx.rawQuery, '/ranking/page/{page}');
          return serveTreeFile(ctx, urls.rankingPage(page), `Page ${page} is past the end of the default ranking; see /api/v1/ranking?page=${page}.`);
        }, urls.rankingPage(page));
      }
      if (a === 'changes' && b === 'page') {
        const page = parseBody(pageSegmentSchema, c);
        return get((ctx) => {
          if (ctx.rawQuery !== '') parseQuery(noQuerySchema, ctx.rawQuery, '/changes/page/{page}');
          return serveTreeFile(ctx, urls.changesPage(page), `Page ${page} is past the end of the changes; see /api/v1/changes?page=${page}.`);
        }, urls.changesPage(page));
      }
      if (a === 'downloads') return get((ctx) => download(ctx, b!, c!)); // c '' is the folder's page
      if (a === 'snapshots') return pinned(b!, segments.slice(2));
      return null;
    default:
      if (a === 'snapshots') return pinned(b!, segments.slice(2));
      return null;
  }
}

export function unknownPath(path: string): ApiError {
  return notFound(`No such path: ${path.length > 80 ? `${path.slice(0, 80)}…` : path}. See /api/v1/ for the endpoints.`);
}

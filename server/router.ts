import { notFound, type ApiError } from '../src/contract/errors.js';
import { parseQuery } from '../src/contract/parse-request.js';
import { noQuerySchema } from '../src/contract/queries.js';
import {
  readParams,
  ROUTES,
  RouteMatcher,
  urlOf,
  type Operation,
  type OperationId,
  type PathParam,
  type RouteTable,
} from '../src/contract/routes.js';
import { usage } from './routes/usage.js';
import type { RouteContext } from './routes/context.js';
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

export type Handler = (ctx: RouteContext) => void | Promise<void>;

/**
 * How the shim answers what the route table declares. An operation with a static file needs nothing
 * here: a GET without a query string is its file. `computed` answers the same operation's query
 * strings; `handlers` answer operations the tree has no file for, or that do more than read one.
 */
export interface Handlers {
  computed: Partial<Record<string, Handler>>;
  handlers: Partial<Record<string, Handler>>;
}

export const HANDLERS = {
  computed: {
    canonical: canonicalWithFields,
    ranking: rankingQuery,
    registry: filteredRegistry,
    changes: filteredChanges,
  },
  handlers: {
    compare,
    batch,
    packs,
    usage,
    download: (ctx) => download(ctx, ctx.params.id!, ctx.params.file!),
    downloadFolder: (ctx) => downloadFolderRedirect(ctx, ctx.params.id!),
    pinned: (ctx) => pinnedRead(ctx, ctx.params.id!, () => ctx.staticFile(ctx.rest)),
  },
} satisfies { computed: Partial<Record<OperationId, Handler>>; handlers: Partial<Record<OperationId, Handler>> };

/**
 * Whether the snapshot's database has the resource a path parameter names, so that its file
 * missing is a 502 (the tree lost it), not a 404 (routes/tree.ts `absentFile`).
 */
const LISTED: Partial<Record<PathParam, (value: string) => Listed>> = {
  ticker: (t) => (store) => store.company(t) !== undefined,
  code: (c) => (store) => store.etf(c) !== undefined,
};

/** A resolved path: the operations at it (one per method), the parameter values read, and a rest path. */
export interface Resolved {
  readonly ops: readonly Operation[];
  readonly params: Readonly<Record<string, string>>;
  readonly rest: readonly string[];
}

export class Router {
  readonly matcher: RouteMatcher;
  /** Each operation's handler, made once. */
  private readonly handlers = new Map<string, Handler>();

  constructor(
    table: RouteTable = ROUTES,
    private readonly answer: Handlers = HANDLERS,
  ) {
    this.matcher = new RouteMatcher(table);
    for (const op of table) {
      if (!op.file && !answer.handlers[op.id]) throw new Error(`Route ${op.id} has neither a static file nor a handler (server/router.ts)`);
      this.handlers.set(op.id, this.makeHandler(op));
    }
  }

  /**
   * The operations a path below /api/v1 names (already split, `.json` stripped from the last
   * segment), with its parameters read: a malformed code or page is a 400 here, so handlers only
   * ever see well-formed, upper-case codes. Null for a path the API does not have.
   */
  resolve(segments: readonly string[]): Resolved | null {
    const match = this.matcher.match(segments);
    if (!match) return null;
    return { ops: match.ops, params: readParams(match), rest: match.rest };
  }

  /** What answers `op`. */
  handlerOf(op: Operation): Handler {
    return this.handlers.get(op.id)!;
  }

  private makeHandler(op: Operation): Handler {
    const own = this.answer.handlers[op.id];
    if (own) return own;
    const computed = this.answer.computed[op.id];
    return (ctx) => {
      if (ctx.rawQuery !== '') {
        if (computed) return computed(ctx);
        parseQuery(noQuerySchema, ctx.rawQuery, op.path);
      }
      return serveTreeFile(ctx, urlOf(op, ctx.params), op.file!.missing(ctx.params), listedOf(ctx.params), op.ok.media);
    };
  }

  /** Whether a GET of `op` without a query string is its tree file and nothing else (no handler of its own). */
  servesFile(op: Operation): boolean {
    return op.file !== undefined && this.answer.handlers[op.id] === undefined;
  }

  /** The static file a GET of this path answers without a query string, if any (what a pinned read serves). */
  fileOf(segments: readonly string[]): { url: string; media?: string } | null {
    const resolved = this.resolve(segments);
    const op = resolved?.ops.find((o) => o.method === 'GET' && o.file);
    return op ? { url: urlOf(op, resolved!.params), media: op.ok.media } : null;
  }
}

function listedOf(params: Readonly<Record<string, string>>): Listed | undefined {
  for (const [name, value] of Object.entries(params)) {
    const listed = LISTED[name as PathParam];
    if (listed) return listed(value);
  }
  return undefined;
}

const routers = new WeakMap<object, Router>();

/** The router an app was made with (server/app.ts), for the HTTP server's fast path; the default table's if none. */
export function routerOf(app: object): Router {
  return routers.get(app) ?? new Router();
}

/** Records the router an app answers with. */
export function useRouter(app: object, router: Router): void {
  routers.set(app, router);
}

export function unknownPath(path: string): ApiError {
  return notFound(`No such path: ${path.length > 80 ? `${path.slice(0, 80)}…` : path}. See /api/v1/ for the endpoints.`);
}

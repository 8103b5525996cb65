import express, { type Request, type Response } from 'express';
import { badRequest, methodNotAllowed } from '../src/contract/errors.js';
import { CACHE_PRIVATE } from '../src/contract/headers.js';
import { noSuchPath } from '../src/contract/named-errors.js';
import { parseBody, parseQuery } from '../src/contract/parse-request.js';
import { noQuerySchema } from '../src/contract/queries.js';
import { apiSegments } from '../src/contract/request-path.js';
import {
  bucketsFor,
  endpointName,
  readParams,
  ROUTES,
  RouteMatcher,
  urlOf,
  type InputOf,
  type Operation,
  type OperationId,
  type OperationInput,
  type PathParam,
  type RouteTable,
} from '../src/contract/routes.js';
import { LIMITS } from '../src/contract/vocabulary.js';
import type { Access } from './access/index.js';
import { usage } from './routes/usage.js';
import type { RouteContext } from './routes/context.js';
import type { DownloadSlots } from './kit/download-slots.js';
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
import type { SnapshotSource } from './kit/snapshot-source.js';

/** What answers one operation of the table: its input typed by the operation's declaration. */
export type Handler<Id extends OperationId = OperationId> = (input: InputOf<Id>, ctx: RouteContext) => void | Promise<void>;

/** A handler of any operation, a table's own included (a method signature: its input is the operation's). */
interface AnyHandler {
  answer(input: OperationInput, ctx: RouteContext): void | Promise<void>;
}
type Answer = AnyHandler['answer'];

/**
 * How the shim answers what the route table declares. An operation with a static file needs nothing
 * here: a GET without a query string is its file. `computed` answers the same operation's query
 * strings; `handlers` answer operations the tree has no file for, or that do more than read one.
 */
export interface Handlers {
  computed: Partial<Record<string, Answer>>;
  handlers: Partial<Record<string, Answer>>;
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
    download,
    downloadFolder: downloadFolderRedirect,
    pinned: pinnedRead,
  },
} satisfies { computed: { [Id in OperationId]?: Handler<Id> }; handlers: { [Id in OperationId]?: Handler<Id> } };

/**
 * Whether the snapshot's database has the resource a path parameter names, so that its file
 * missing is a 502 (the tree lost it), not a 404 (routes/tree.ts `absentFile`).
 */
const LISTED: Partial<Record<PathParam, (value: string) => Listed>> = {
  ticker: (t) => (store) => store.company(t) !== undefined,
  code: (c) => (store) => store.etf(c) !== undefined,
};

const UNREAD = Symbol('unread');

/**
 * A request's input, read by its operation's declaration. The query and the body are parsed when
 * the handler first reads them, once: where the contract checks something else first (a pinned
 * read's snapshot, a download's slot), that stays first. A handler that reads neither answers
 * whatever the query string: a download (`queryIgnored`: the front serves it, query and all) and the
 * redirect of its folder.
 */
class RequestInput implements OperationInput {
  #query: unknown = UNREAD;
  #body: unknown = UNREAD;

  constructor(
    private readonly op: Operation,
    /** How the operation's 400s name it (`endpointName`), made once per operation. */
    private readonly endpoint: string,
    readonly params: Readonly<Record<string, string>>,
    private readonly rawQuery: string,
    private readonly rawBody: unknown,
  ) {}

  get query(): unknown {
    if (this.#query === UNREAD) this.#query = parseQuery(this.op.query ?? noQuerySchema, this.rawQuery, this.endpoint);
    return this.#query;
  }

  get body(): unknown {
    if (this.#body === UNREAD) this.#body = this.op.body ? parseBody(this.op.body, this.rawBody) : undefined;
    return this.#body;
  }
}

/** A resolved path: the operations at it (one per method), the parameter values read, and a rest path. */
export interface Resolved {
  readonly ops: readonly Operation[];
  readonly params: Readonly<Record<string, string>>;
  readonly rest: readonly string[];
}

/** What a dispatch answers with besides the request: the snapshot, the meter and the download slots. */
export interface Services {
  snapshots: SnapshotSource;
  access?: Access;
  downloads: DownloadSlots;
}

const jsonBody = express.json({ limit: LIMITS.bodyBytes, strict: false, type: () => true });

export class Router {
  readonly matcher: RouteMatcher;
  /** Each operation's handler and the name its 400s give it, made once. */
  private readonly handlers = new Map<string, { answer: Answer; endpoint: string }>();
  private readonly staticFile = (segments: readonly string[]) => this.fileOf(segments);

  constructor(
    table: RouteTable = ROUTES,
    private readonly answer: Handlers = HANDLERS,
  ) {
    this.matcher = new RouteMatcher(table);
    for (const op of table) {
      if (!op.file && !answer.handlers[op.id]) throw new Error(`Route ${op.id} has neither a static file nor a handler (server/router.ts)`);
      this.handlers.set(op.id, { answer: this.makeHandler(op), endpoint: endpointName(op) });
    }
  }

  /**
   * Answers a request below /api/v1: the operation its path and method name (else 404 or 405), the
   * quota it counts toward, its JSON body read, then its handler with its input.
   */
  async dispatch(req: Request, res: Response, services: Services): Promise<void> {
    const url = req.originalUrl;
    const q = url.indexOf('?');
    const rawPath = q < 0 ? url : url.slice(0, q);
    const rawQuery = q < 0 ? '' : url.slice(q + 1);
    const segments = apiSegments(rawPath);
    const resolved = segments && this.resolve(segments);
    if (!resolved) throw noSuchPath(rawPath);
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    const op = resolved.ops.find((o) => o.method === method);
    if (!op) {
      const methods = resolved.ops.map((o) => o.method);
      const allow = [...methods, ...(methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'].join(', ');
      throw methodNotAllowed(req.method, allow);
    }
    const buckets = bucketsFor(op, method, rawQuery);
    // A metered answer is private to its caller (contract 1), with or without quotas switched on.
    if (buckets.length > 0) res.setHeader('Cache-Control', CACHE_PRIVATE);
    await services.access?.meter(req, res, buckets);
    if (method === 'POST') {
      const type = req.headers['content-type'] ?? '';
      if (!/^application\/json\s*(;|$)/i.test(type)) throw badRequest('POST bodies must be sent with Content-Type: application/json.');
      await new Promise<void>((resolve, reject) => jsonBody(req, res, (err?: unknown) => (err ? reject(err) : resolve())));
    }
    const ctx: RouteContext = {
      req,
      res,
      store: services.snapshots.current(),
      source: services.snapshots,
      rawQuery,
      rest: resolved.rest,
      staticFile: this.staticFile,
      access: services.access,
      downloads: services.downloads,
    };
    const { answer, endpoint } = this.handlers.get(op.id)!;
    await answer(new RequestInput(op, endpoint, resolved.params, rawQuery, req.body), ctx);
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

  /** A request's input as its handler gets it: read by `op`'s declaration (what bench/router.ts measures). */
  inputOf(op: Operation, params: Readonly<Record<string, string>>, rawQuery: string, rawBody: unknown): OperationInput {
    return new RequestInput(op, this.handlers.get(op.id)!.endpoint, params, rawQuery, rawBody);
  }

  private makeHandler(op: Operation): Answer {
    const own = this.answer.handlers[op.id];
    if (own) return own;
    const computed = this.answer.computed[op.id];
    return (input, ctx) => {
      if (ctx.rawQuery !== '') {
        if (computed) return computed(input, ctx);
        void input.query; // declares none: a query string is a 400 naming the path
      }
      const { params } = input;
      return serveTreeFile(ctx, urlOf(op, params), op.file!.missing(params), listedOf(params), op.ok.media);
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

import { z } from 'zod';
import { indexResponseSchema } from './api-index.js';
import { batchResponseSchema } from './batch.js';
import { canonicalViewSchema, fullCanonicalViewSchema } from './canonical.js';
import { changesQuerySchema, changesResponseSchema } from './changes.js';
import { snapshotId } from './common.js';
import { companyResponseSchema } from './company.js';
import { compareResponseSchema } from './compare.js';
import { DOWNLOAD_NAME } from './downloads.js';
import { badRequest } from './errors.js';
import { ATOM_TYPE } from './headers.js';
import { etfListResponseSchema, etfResponseSchema } from './etf.js';
import { historyResponseSchema } from './history.js';
import { methodologyResponseSchema } from './methodology.js';
import { codeSchema, pageSegmentSchema, parseCode } from './params.js';
import { parseBody } from './parse-request.js';
import { batchBodySchema, canonicalQuerySchema, compareQuerySchema, packsBodySchema, rankingQuerySchema, registryQuerySchema } from './queries.js';
import { rankingResponseSchema } from './ranking.js';
import { registryResponseSchema } from './registry.js';
import { snapshotsResponseSchema } from './snapshots.js';
import { API_BASE, sameResource } from './api-paths.js';
import { unknownFund, unknownTickers } from './named-errors.js';
import { usageResponseSchema } from './usage.js';
import { CANONICAL_SECTIONS, LIMITS, SNAPSHOT_ID_PATTERN, UPPER_CODE_PATTERN, type QuotaBucket } from './vocabulary.js';

/**
 * The route table: every operation of the API, once. The shim's router, the OpenAPI document, the
 * API index, the docs page and its Chinese names, metric labels, metering, the shim's fast path and
 * the nginx front's map all read it; adding an endpoint is one entry here, its view, and its cases
 * (README, "Adding things").
 */

/** The groups of the OpenAPI document (its tags), in the order a reader meets them. */
export const OPERATION_GROUPS = {
  companies: { name: 'Companies', description: 'One company: its summary, its six sourced sections and its history across snapshots.' },
  several: { name: 'Several companies', description: 'Side by side, many summaries in one call, and evidence packs to cite.' },
  rankings: { name: 'Rankings', description: 'The market ranked by credibility score, filtered and sorted.' },
  etfs: { name: 'ETFs', description: 'ESG funds rated by their holdings.' },
  changes: { name: 'Changes', description: 'What moved between snapshots, cause by cause.' },
  sources: { name: 'Sources and methodology', description: 'Where every fact comes from, and how scores are computed.' },
  snapshots: { name: 'Snapshots and downloads', description: 'Every published snapshot, its files, and reads pinned to one snapshot.' },
  api: { name: 'The API itself', description: 'Its index, this document, and your quota.' },
} as const;
export type OperationGroup = keyof typeof OPERATION_GROUPS;

/** Error statuses an operation describes itself (405, 414 and 431 any request may get: openapi-errors.ts). */
export type OperationErrorStatus = '400' | '403' | '404' | '410' | '413' | '429' | '502';

export interface Operation {
  /** Its name: the OpenAPI operationId, the key of its translations and of its examples. */
  readonly id: string;
  readonly method: 'GET' | 'POST';
  /** Below API_BASE, with `{name}` for each path parameter (PATH_PARAMS). */
  readonly path: string;
  readonly group: OperationGroup;
  /** One line: the OpenAPI summary, the index's and the docs page's description. */
  readonly summary: string;
  /** More, for the OpenAPI document only. */
  readonly description?: string;
  /** The query parameters that make a GET computed; without, a query string is a 400. */
  readonly query?: z.ZodObject;
  /** A POST's JSON body. */
  readonly body?: z.ZodType;
  /** The 200 answer: its JSON schema (or other media type) and what it says beyond "OK". */
  readonly ok: { readonly schema?: z.ZodType; readonly media?: string; readonly description?: string };
  /** Error answers this operation gives, by status; null removes one a GET or POST otherwise describes. */
  readonly errors?: Partial<Record<OperationErrorStatus, string | null>>;
  /**
   * A GET without a query string answers the static tree's file at its URL (what a CDN, the nginx
   * front and a pinned read serve); `missing` is the 404 when the snapshot has no such file.
   */
  readonly file?: { readonly missing: (params: Readonly<Record<string, string>>) => string };
  /** `?page=N` alone is the static page `{path}/page/N` (contract 4 and 10): never metered, served by the front. */
  readonly pages?: true;
  /** Never counted (GET /usage); it still reads the caller's key. */
  readonly uncounted?: true;
  /**
   * A file whatever the query string, which is ignored and counts toward nothing: the nginx front
   * serves it itself, query and all (downloads), so a shim answering it must not count it.
   */
  readonly queryIgnored?: true;
  /** Buckets a counted call takes beside calls/day and calls/min (contract 6), from its raw query. */
  readonly buckets?: (rawQuery: string) => readonly QuotaBucket[];
  /** False for a path that is only a redirect to another (not in the index nor the document). */
  readonly listed?: false;
  /** The query string of the index's runnable example; `{ticker}` and `{other}` are two example tickers. */
  readonly example?: string;
}

/** An anchored pattern's body, its groups made non-capturing, to build a larger pattern with it. */
const inner = (re: RegExp) => re.source.replace(/^\^|\$$/g, '').replace(/\((?!\?)/g, '(?:');

/**
 * Path parameters: how each is read from its (decoded) segment, and described; `canonical` is the
 * spelling `read` gives (an upper-case code, a page without leading zeros), as a pattern.
 */
export const PATH_PARAMS = {
  ticker: { schema: codeSchema('ticker'), read: (raw: string) => code(raw, 'ticker'), canonical: inner(UPPER_CODE_PATTERN) },
  code: { schema: codeSchema('fund code'), read: (raw: string) => code(raw, 'fund code'), canonical: inner(UPPER_CODE_PATTERN) },
  page: { schema: pageSegmentSchema, read: (raw: string) => String(parseBody(pageSegmentSchema, raw)), canonical: '[1-9][0-9]{0,8}' },
  id: { schema: snapshotId, read: (raw: string) => raw, canonical: inner(SNAPSHOT_ID_PATTERN) },
  file: { schema: z.string().regex(DOWNLOAD_NAME), read: (raw: string) => raw, canonical: inner(DOWNLOAD_NAME) },
  /** The rest of the path, any number of segments (a pinned read's static path). */
  path: { schema: z.string(), read: (raw: string) => raw, canonical: '.*' },
} as const;
export type PathParam = keyof typeof PATH_PARAMS;
const REST_PARAM: PathParam = 'path';

/** A code in the path, upper-cased; a malformed one is a 400 (contract 1.1). */
function code(raw: string, what: 'ticker' | 'fund code'): string {
  const parsed = parseCode(raw, what);
  if (typeof parsed !== 'string') throw badRequest(parsed.error);
  return parsed;
}

const GET = 'GET' as const;
const POST = 'POST' as const;
const missing = (what: string) => ({ missing: () => `The ${what} is missing from this snapshot.` });
const unknownTicker = { missing: (p: Readonly<Record<string, string>>) => unknownTickers([p.ticker!]).message };
const pastTheEnd = (what: string, list: string) => ({
  missing: (p: Readonly<Record<string, string>>) => `Page ${p.page} is past the end of ${what}; see ${API_BASE}${list}?page=${p.page}.`,
});
const pagedAlias = (what: string, list: string) => `Page N of ${what} (static alias of ${list}?page=N)`;

const TABLE = [
  {
    id: 'index',
    method: GET,
    path: '/',
    group: 'api',
    summary: 'This index: every endpoint with a runnable example',
    ok: { schema: indexResponseSchema },
    file: missing('index'),
  },
  {
    id: 'company',
    method: GET,
    path: '/company/{ticker}',
    group: 'companies',
    summary: 'Company summary: score, verdict, rank, flags, breakdown',
    ok: { schema: companyResponseSchema },
    file: unknownTicker,
  },
  {
    id: 'canonical',
    method: GET,
    path: '/company/{ticker}/canonical',
    group: 'companies',
    summary: 'Canonical view: the five sourced sections; ?fields= selects some (computed)',
    description: `Without a query string the static file, with all ${CANONICAL_SECTIONS.length} sections (${Object.keys(fullCanonicalViewSchema.shape).length} keys).`,
    query: canonicalQuerySchema,
    ok: { schema: canonicalViewSchema },
    file: unknownTicker,
    example: '?fields=penalties,carbon',
  },
  {
    id: 'history',
    method: GET,
    path: '/company/{ticker}/history',
    group: 'companies',
    summary: 'A company’s entry in every published snapshot that held it, newest first: by data_asof, then publish time (pruned snapshots included)',
    ok: { schema: historyResponseSchema },
    file: unknownTicker,
  },
  {
    id: 'ranking',
    method: GET,
    path: '/ranking',
    group: 'rankings',
    summary: 'Market ranking; query parameters filter and page it (computed)',
    query: rankingQuerySchema,
    ok: { schema: rankingResponseSchema },
    file: missing('ranking'),
    pages: true,
    // Counted as an export even when another parameter then makes it a 400: 4xx calls count.
    buckets: (rawQuery) => (new URLSearchParams(rawQuery).getAll('format').some((v) => v.trim() === 'csv') ? ['csv/day'] : []),
    example: '?industry=%E6%B0%B4%E6%B3%A5%E5%B7%A5%E6%A5%AD&limit=10',
  },
  {
    id: 'rankingPage',
    method: GET,
    path: '/ranking/page/{page}',
    group: 'rankings',
    summary: pagedAlias('the default ranking', '/ranking'),
    ok: { schema: rankingResponseSchema },
    file: pastTheEnd('the default ranking', '/ranking'),
  },
  {
    id: 'compare',
    method: GET,
    path: '/compare',
    group: 'several',
    summary: `Canonical views of ${LIMITS.compareMin}–${LIMITS.compareMax} companies side by side (computed)`,
    query: compareQuerySchema,
    ok: { schema: compareResponseSchema },
    example: '?tickers={ticker},{other}',
  },
  {
    id: 'etfList',
    method: GET,
    path: '/etf',
    group: 'etfs',
    summary: 'ESG ETFs covered',
    ok: { schema: etfListResponseSchema },
    file: missing('ETF list'),
  },
  {
    id: 'etf',
    method: GET,
    path: '/etf/{code}',
    group: 'etfs',
    summary: 'An ETF’s holdings scored',
    ok: { schema: etfResponseSchema },
    file: { missing: (p) => unknownFund(p.code!).message },
  },
  {
    id: 'registry',
    method: GET,
    path: '/sources/registry',
    group: 'sources',
    summary: 'Every data source behind the facts; ?gov_only, ?owner_org filter (computed)',
    query: registryQuerySchema,
    ok: { schema: registryResponseSchema },
    file: missing('registry'),
    example: '?gov_only=true',
  },
  {
    id: 'methodology',
    method: GET,
    path: '/methodology',
    group: 'sources',
    summary: 'Methodology as data',
    ok: { schema: methodologyResponseSchema },
    file: missing('methodology'),
  },
  {
    id: 'snapshots',
    method: GET,
    path: '/snapshots',
    group: 'snapshots',
    summary: 'Published snapshots, newest first (by data_asof, then publish time), and their download files',
    ok: { schema: snapshotsResponseSchema },
    file: missing('snapshot list'),
  },
  {
    id: 'pinned',
    method: GET,
    path: '/snapshots/{id}/{path}',
    group: 'snapshots',
    summary:
      'Pinned read: a static path as snapshot {id} served it, byte for byte (path may hold slashes, e.g. company/D1101/canonical; 410 once pruned)',
    ok: { description: 'The body that path had in that snapshot' },
    errors: {
      '404': 'Unknown snapshot (named in the message) or a path with no static file',
      '410': 'The snapshot was published and has since been pruned (SNAPSHOTS_KEEP)',
    },
  },
  {
    id: 'changes',
    method: GET,
    path: '/changes',
    group: 'changes',
    summary: 'What changed since the previous snapshot, cause by cause; ?cause, ?industry, ?min_abs_delta filter (computed)',
    description: `Without a query string the static first page (${LIMITS.changesPerPage} per page). With one, computed and metered: filters by cause kind, industry and |score_delta|.`,
    query: changesQuerySchema,
    ok: { schema: changesResponseSchema },
    file: missing('changes'),
    pages: true,
    example: '?min_abs_delta=10',
  },
  {
    id: 'changesPage',
    method: GET,
    path: '/changes/page/{page}',
    group: 'changes',
    summary: pagedAlias('the changes', '/changes'),
    ok: { schema: changesResponseSchema },
    file: pastTheEnd('the changes', '/changes'),
  },
  {
    id: 'feed',
    method: GET,
    path: '/feed.atom',
    group: 'changes',
    summary: 'Atom 1.0 feed: one entry per snapshot for the last 12, with the largest moves and their causes',
    ok: { media: ATOM_TYPE },
    file: missing('feed'),
  },
  {
    id: 'download',
    method: GET,
    path: '/downloads/{id}/{file}',
    group: 'snapshots',
    summary: 'A file of a snapshot’s download folder (CSV, Data Package, SQLite, archive, SHA256SUMS); /snapshots lists them with size and sha256',
    ok: { description: 'The file (CSV, JSON, SQLite, gzip, YAML or text); ETag is its sha256' },
    errors: {
      '400': 'Malformed snapshot id',
      '404': 'Unknown snapshot or file',
      '410': 'The snapshot was published and has since been pruned (SNAPSHOTS_KEEP)',
      '429': 'Too many downloads at once from this client (DOWNLOADS_PER_CLIENT); Retry-After says when to try again',
      '502': null,
    },
    queryIgnored: true,
  },
  {
    id: 'downloadFolder',
    method: GET,
    path: '/downloads/{id}',
    group: 'snapshots',
    summary: 'A download folder, its slash missing: redirected to the folder’s page',
    ok: {},
    listed: false,
  },
  {
    id: 'openapi',
    method: GET,
    path: '/openapi.json',
    group: 'api',
    summary: 'This OpenAPI 3.1 document',
    ok: { description: 'OpenAPI 3.1 document' },
    file: missing('OpenAPI document'),
  },
  {
    id: 'batch',
    method: POST,
    path: '/batch',
    group: 'several',
    summary: `Summaries of 1–${LIMITS.batchMax} tickers (computed)`,
    body: batchBodySchema,
    ok: { schema: batchResponseSchema, description: 'One item per distinct code, in request order' },
    buckets: () => ['batch/day'],
  },
  {
    id: 'packs',
    method: POST,
    path: '/packs',
    group: 'several',
    summary: `Evidence pack: a zip of 1–${LIMITS.packMax} companies with their sources, history, methodology and SHA256SUMS (computed; developer and commercial keys)`,
    description:
      'Per company its summary, canonical view and history as JSON; one CSV of the summaries; the registry entries ' +
      'of exactly the sources its facts cite, with the sha256 of the publisher files they came from; the ' +
      'methodology; CITATION.cff; a README naming the snapshot and how to verify; SHA256SUMS (`sha256sum -c`). Same ' +
      'snapshot and codes (any order or case) give the same bytes. Counts against packs/day; the free and academic ' +
      'tiers get 403.',
    body: packsBodySchema,
    ok: {
      media: 'application/zip',
      schema: z.string().meta({ format: 'binary' }),
      description: 'The pack (Content-Disposition: attachment; filename names the snapshot; Cache-Control: no-store)',
    },
    errors: {
      '400': 'Not JSON, wrong Content-Type, a malformed code, or a body outside the contract',
      '403': 'The caller’s tier does not include this feature; the message names the tiers that do',
      '404': 'Unknown ticker(s); the message names every one',
    },
    buckets: () => ['packs/day'],
  },
  {
    id: 'usage',
    method: GET,
    path: '/usage',
    group: 'api',
    summary: 'Your quota: tier, and every bucket’s limit, used, remaining and reset (key from X-API-Key, else your IP; not itself counted)',
    ok: { schema: usageResponseSchema, description: 'The caller’s quota state (Cache-Control: no-store)' },
    errors: { '400': 'A query parameter (it takes none)', '404': null, '502': null },
    uncounted: true,
  },
] as const satisfies readonly Operation[];

/** An operation of the table as declared (its literal id, path and schemas). */
export type TableOperation = (typeof TABLE)[number];
export type OperationId = TableOperation['id'];
export type RouteTable = readonly Operation[];
/** The operations whose 200 is a JSON body (the OpenAPI document shows an example of each). */
export type JsonOperationId = Exclude<Extract<TableOperation, { ok: { schema: z.ZodType } }>, { ok: { media: string } }>['id'];
/** The operations whose GET without a query string is a file of the static tree. */
export type FileOperationId = Extract<TableOperation, { file: object }>['id'];
/** The operations that take a JSON body. */
export type BodyOperationId = Extract<TableOperation, { body: z.ZodType }>['id'];
/** The route table, in the order of the index and the document. */
export const ROUTES: RouteTable = TABLE;
/** The same, each operation with its literal types (urls.ts, the router's typed input). */
export const ROUTE_TABLE: readonly TableOperation[] = TABLE;

/** The names of a path's `{parameters}`. */
type ParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | ParamNames<Rest> : never;
type OperationOf<Id extends OperationId> = Extract<TableOperation, { id: Id }>;

/** A request as its operation declares it: path parameters read, query string and body parsed by their schemas. */
export interface OperationInput<Params = Readonly<Record<string, string>>, Query = unknown, Body = unknown> {
  readonly params: Params;
  /** The query parsed by the operation's `query` (none declared: any query string is a 400). */
  readonly query: Query;
  /** The body parsed by the operation's `body` (undefined when it declares none). */
  readonly body: Body;
}

/** The input of one operation of the table, typed by its declaration. */
export type InputOf<Id extends OperationId> = OperationInput<
  Readonly<Record<ParamNames<OperationOf<Id>['path']>, string>>,
  OperationOf<Id> extends { query: infer S extends z.ZodType } ? z.output<S> : Record<string, never>,
  OperationOf<Id> extends { body: infer S extends z.ZodType } ? z.output<S> : undefined
>;

/** How a 400 names the operation (`/ranking accepts: …`): its path, a rest parameter as `…`. */
export const endpointName = (op: Operation): string => op.path.replace(`{${REST_PARAM}}`, '…');

/** An operation of the table by its id. */
export function operation(id: OperationId, table: RouteTable = ROUTES): Operation {
  return table.find((o) => o.id === id)!;
}

/** The full path template, `/api/v1/company/{ticker}`: the operation's name in the document, the index and metric labels. */
export const fullPath = (op: Operation): string => `${API_BASE}${op.path}`;

/** The URL of an operation for these parameter values (each already well-formed). */
export function urlOf(op: Operation, values: Readonly<Record<string, string | number>> = {}): string {
  return fullPath(op).replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`${op.id}: no value for {${name}}`);
    return String(value);
  });
}

// ——— Matching a path against the table ———

interface Template {
  readonly op: Operation;
  /** The operations at this template (one per method), and its full path: found once, not per request. */
  readonly group: Operation[];
  readonly pattern: string;
  /** Literal words (a trailing `.json` dropped, as it is from requests) or parameter names. */
  readonly parts: readonly ({ literal: string } | { param: PathParam })[];
  readonly rest: boolean;
}

function templateOf(op: Operation): Template {
  // The same path rule as requests: `.json` on the last word names the same resource.
  const words = sameResource(op.path === '/' ? [] : op.path.slice(1).split('/'));
  const parts = words.map((w) => {
    const param = /^\{(\w+)\}$/.exec(w)?.[1];
    if (param === undefined) return { literal: w };
    if (!(param in PATH_PARAMS)) throw new Error(`${op.id}: unknown path parameter {${param}}`);
    return { param: param as PathParam };
  });
  const rest = parts.at(-1) !== undefined && 'param' in parts.at(-1)! && (parts.at(-1) as { param: PathParam }).param === REST_PARAM;
  return { op, parts, rest, group: [op], pattern: fullPath(op) };
}

/** What a path matched: the operations at that template (one per method) and the raw parameter segments. */
export interface PathMatch {
  readonly ops: readonly Operation[];
  /** The template, `/api/v1/company/{ticker}`. */
  readonly pattern: string;
  /** Parameter segments by name, as sent (a rest parameter holds its segments joined by `/`). */
  readonly raw: Readonly<Record<string, string>>;
  /** A rest parameter's segments (a pinned read's path), else empty. */
  readonly rest: readonly string[];
}

/** A compiled table: templates indexed by their first word, for the router and the metric labels. */
export class RouteMatcher {
  private readonly byFirst = new Map<string, Template[]>();
  private readonly root: Template[] = [];

  constructor(readonly table: RouteTable = ROUTES) {
    const byKey = new Map<string, Template>();
    for (const op of table) {
      const t = templateOf(op);
      const key = t.parts.map((p) => ('literal' in p ? p.literal : `{${p.param}}`)).join('/');
      const same = byKey.get(key);
      if (same) {
        same.group.push(op);
        continue;
      }
      byKey.set(key, t);
      const first = t.parts[0];
      if (first === undefined) this.root.push(t);
      else if ('literal' in first) this.byFirst.set(first.literal, [...(this.byFirst.get(first.literal) ?? []), t]);
      else throw new Error(`${op.id}: a path starts with a word, not a parameter`);
    }
  }

  /**
   * The operations a path below API_BASE names (split, each segment decoded, `.json` dropped from the
   * last as request-path.ts does), or null. Parameters are matched by position only; `read` checks them.
   */
  match(segments: readonly string[]): PathMatch | null {
    // `/api/v1/index` is the index's own file, as a static host serves `/api/v1/`.
    const s = segments.length === 1 && segments[0] === 'index' ? [] : segments;
    const candidates = s.length === 0 ? this.root : this.byFirst.get(s[0]!);
    if (!candidates) return null;
    for (const t of candidates) {
      const fixed = t.rest ? t.parts.length - 1 : t.parts.length;
      if (t.rest ? s.length < fixed : s.length !== fixed) continue;
      const raw: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < fixed && ok; i++) {
        const part = t.parts[i]!;
        if ('literal' in part) ok = part.literal === s[i];
        else raw[part.param] = s[i]!;
      }
      if (!ok) continue;
      const rest = t.rest ? s.slice(fixed) : [];
      // A folder URL's trailing slash leaves one empty segment: the pinned snapshot's index.
      const restPath = rest.length === 1 && rest[0] === '' ? [] : rest;
      if (t.rest) raw[REST_PARAM] = restPath.join('/');
      return { ops: t.group, pattern: t.pattern, raw, rest: restPath };
    }
    return null;
  }
}

/** The parameter values of a match, each read by its rule (a malformed code or page is a 400). */
export function readParams(match: PathMatch): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, raw] of Object.entries(match.raw)) values[name] = PATH_PARAMS[name as PathParam].read(raw);
  return values;
}

/**
 * Which of `ops` a URL names in its canonical spelling (every parameter as `read` gives it, no
 * `.json`, no query string, no percent-encoding), by one pattern made from their templates: what the
 * shim's fast path answers without routing (server/serve.ts). Null for any other URL.
 */
export function canonicalUrls(ops: readonly Operation[]): (url: string) => Operation | null {
  const alternatives = ops.map((op) => {
    const escaped = fullPath(op).replace(/[.*+?^$()|[\]\\]/g, '\\$&');
    return `(${escaped.replace(/\{(\w+)\}/g, (_, name: string) => `(?:${PATH_PARAMS[name as PathParam].canonical})`)})`;
  });
  const pattern = new RegExp(`^(?:${alternatives.join('|')})$`);
  return (url) => {
    const m = pattern.exec(url);
    if (!m) return null;
    for (let i = 1; i < m.length; i++) if (m[i] !== undefined) return ops[i - 1]!;
    return null;
  };
}

// ——— Metering (contract 0 and 6) ———

/** A query of `page` alone: on an operation with `pages`, the page the tree renders. */
const PAGE_ONLY = /^page=[0-9]+$/;

/**
 * Which quota buckets a call counts toward. A static file — no query string, not a POST — counts
 * toward nothing, as a CDN would serve it, nor does a download whatever its query (nginx serves
 * those too); neither does an uncounted operation (/usage). Nor does
 * `?page=N` alone where the tree renders those pages: the nginx front serves them as files, so a
 * shim answering them must not count them either (docs/api-decisions.md), past the last page included.
 */
export function bucketsFor(op: Operation, method: string, rawQuery: string): QuotaBucket[] {
  if (op.uncounted) return [];
  if (method !== 'POST' && (rawQuery === '' || op.queryIgnored)) return [];
  if (method !== 'POST' && op.pages && PAGE_ONLY.test(rawQuery)) return [];
  return ['calls/day', 'calls/min', ...(op.buckets?.(rawQuery) ?? [])];
}

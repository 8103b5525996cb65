import type { ErrorBody } from '../../src/contract/common.js';
import { parseCode } from '../../src/contract/params.js';
import { parseBody, parseQuery, RequestRuleError } from '../../src/contract/parse-request.js';
import { noQuerySchema, pageSegmentSchema } from '../../src/contract/queries.js';
import { endpointName, ROUTES, urlOf, type Operation, type OperationId, type RouteTable } from '../../src/contract/routes.js';
import { malformedSnapshotId, noDownload, noSuchPath, notInSnapshot, snapshotGone, unknownTickers } from '../../src/contract/named-errors.js';
import { urls } from '../../src/contract/urls.js';
import { API_KEY_HEADER, LIMITS, type ErrorCode } from '../../src/contract/vocabulary.js';
import { API_BASE } from '../../src/contract/api-paths.js';
import type { SnapshotMeta } from '../../src/snapshot/schema.js';
// The contract's tier table and windows, and the shim's answers to oversized requests: pure functions.
import { TIER_QUOTAS, tiersIncluding, windowOf } from '../../src/contract/tiers.js';
import { requestTooLarge } from '../../src/contract/request-path.js';
import { bodyTooLarge, MALFORMED_KEY, notLiveKey } from '../../src/contract/errors.js';
import { DEFAULT_DOWNLOAD_LIMITS, tooManyDownloads } from '../../src/contract/downloads.js';

/**
 * The error examples of the OpenAPI document, one per operation and status: each is the shim's
 * answer to a real request against the snapshot being built, named beside it (`request`), so the
 * tests can send that request and compare (test/server/openapi-examples.test.ts). Messages come
 * from the contract's own parsers where the shim uses them (every 400), else as the shim words them.
 */

/** A request the shim answers with the error; null where no demo snapshot can show it (410, 502). */
export interface ErrorRequest {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path and query, as sent. */
  url: string;
  headers?: Record<string, string>;
  body?: string;
  /** Only a shim with keys and quotas answers it (401, 403, 429): keyless, after the minute's calls for 429. */
  metered?: boolean;
}

export interface ErrorExample {
  request: ErrorRequest | null;
  body: ErrorBody;
}

/** What the requests name: real codes and page counts of the snapshot. */
export interface ErrorExampleFacts {
  meta: SnapshotMeta;
  tickers: [string, string];
  etfCode: string | undefined;
  rankingPages: number;
  changesPages: number;
  /** Oldest snapshot /snapshots lists. */
  oldestSnapshotId: string;
}

/** A fixed request id: examples must not change between two builds of the same snapshot. */
export const EXAMPLE_REQUEST_ID = '00000000-0000-4000-8000-000000000000';
const UNKNOWN_TICKER = 'ZZ9999';
const MALFORMED_TICKER = 'D11!01';
const JSON_TYPE = { 'Content-Type': 'application/json' };

/** The message a 400 carries when `parse` throws (the contract's parsers, as the shim calls them). */
function ruleBroken(parse: () => unknown): string {
  try {
    parse();
  } catch (e) {
    if (e instanceof RequestRuleError) return e.message;
    throw e;
  }
  throw new Error('OpenAPI error examples: a request meant to be refused was accepted');
}
const codeError = (raw: string, what: 'ticker' | 'fund code') => {
  const parsed = parseCode(raw, what);
  if (typeof parsed === 'string') throw new Error(`OpenAPI error examples: ${raw} is a well-formed ${what}`);
  return parsed.error;
};

/**
 * A request each operation answers with 200, the successful call the access errors are made on: its
 * JSON body of two tickers, else the index's runnable example of it (`example`), else its bare path.
 */
function successful(op: Operation, f: ErrorExampleFacts, path: string): { url: string; body?: string } {
  if (op.body) return { url: path, body: JSON.stringify({ tickers: f.tickers }) };
  const example = op.example?.replace('{ticker}', f.tickers[0]).replace('{other}', f.tickers[1]);
  return { url: example ? `${path}${example}` : path };
}

/** The operation's URL with real values for its parameters. */
function filled(op: Operation, f: ErrorExampleFacts): string {
  return urlOf(op, {
    ticker: f.tickers[0],
    code: f.etfCode ?? 'ZZ9',
    page: '1',
    id: f.meta.dataset_snapshot_id,
    file: 'SHA256SUMS',
    path: 'methodology',
  });
}

/** The query strings the 400 examples send where a bare unknown parameter (`x=1`) would say less. */
const BAD_QUERY: Partial<Record<OperationId, (f: ErrorExampleFacts) => string>> = {
  ranking: () => 'limit=0',
  compare: (f) => `tickers=${f.tickers[0]}`,
  registry: () => 'gov_only=maybe',
  changes: () => 'limit=0',
};

/** What the shim answers to a 400 request of this operation, and the request. */
function badRequest(op: Operation, path: string, f: ErrorExampleFacts): [ErrorRequest, string] {
  const { method } = op;
  if (op.body) {
    const body = op.body;
    return [{ method, url: path, headers: JSON_TYPE, body: '{"tickers":[]}' }, ruleBroken(() => parseBody(body, { tickers: [] }))];
  }
  if (op.path.includes('{ticker}')) return [{ method, url: path.replace(f.tickers[0], MALFORMED_TICKER) }, codeError(MALFORMED_TICKER, 'ticker')];
  if (op.path.includes('{code}')) return [{ method, url: urlOf(op, { code: 'ZZ!9' }) }, codeError('ZZ!9', 'fund code')];
  if (op.path.includes('{page}')) return [{ method, url: path.replace(/\/1$/, '/0') }, ruleBroken(() => parseBody(pageSegmentSchema, '0'))];
  if (op.path.includes('{id}')) {
    const id = '2026-13';
    return [{ method, url: path.replace(f.meta.dataset_snapshot_id, id) }, malformedSnapshotId(id).message];
  }
  const query = BAD_QUERY[op.id as OperationId]?.(f) ?? 'x=1';
  return [{ method, url: `${path}?${query}` }, ruleBroken(() => parseQuery(op.query ?? noQuerySchema, query, endpointName(op)))];
}

/** A 404 of this operation: an unknown code where it takes one, else a path word in the wrong case. */
function notFound(op: Operation, path: string, f: ErrorExampleFacts): [ErrorRequest, string] {
  const { method } = op;
  const id = f.meta.dataset_snapshot_id;
  const unknown = unknownTickers([UNKNOWN_TICKER]).message;
  if (op.body) return [{ method, url: path, headers: JSON_TYPE, body: JSON.stringify({ tickers: [f.tickers[0], UNKNOWN_TICKER] }) }, unknown];
  if (op.id === 'compare') return [{ method, url: `${path}?tickers=${f.tickers[0]},${UNKNOWN_TICKER}` }, unknown];
  if (op.path.includes('{file}')) return [{ method, url: path.replace(/SHA256SUMS$/, 'report.pdf') }, noDownload('report.pdf', id).message];
  if (op.path.includes('{path}')) {
    const url = urls.company(UNKNOWN_TICKER);
    return [{ method, url: `${API_BASE}/snapshots/${id}/company/${UNKNOWN_TICKER}` }, notInSnapshot(id, url).message];
  }
  // A static file's resource the snapshot does not have: the table's own message for it.
  const absent: Record<string, string> | undefined = op.path.includes('{page}')
    ? { page: String((op.id === 'rankingPage' ? f.rankingPages : Math.max(1, f.changesPages)) + 1) }
    : op.path.includes('{ticker}')
      ? { ticker: UNKNOWN_TICKER }
      : op.path.includes('{code}')
        ? { code: 'ZZ9' }
        : undefined;
  if (op.file && absent) return [{ method, url: urlOf(op, absent) }, op.file.missing(absent)];
  // Fixed path words are case-sensitive, as on any static host.
  const rest = path.slice(API_BASE.length + 1) || 'index';
  const typo = `${API_BASE}/${rest[0]!.toUpperCase()}${rest.slice(1)}`;
  return [{ method, url: typo }, noSuchPath(typo).message];
}

/**
 * The example for `status` of the operation `id` of `table`, or of any operation when `id` is null
 * (the shared responses of the components).
 */
export function errorExample(id: string | null, status: string, f: ErrorExampleFacts, table: RouteTable = ROUTES): ErrorExample | undefined {
  const { meta } = f;
  const op = table.find((o) => o.id === (id ?? (status === '403' ? 'packs' : 'ranking')));
  if (!op) throw new Error(`OpenAPI error examples: no operation ${id}`);
  const { method } = op;
  const path = filled(op, f);
  const ok = successful(op, f, path);
  const okRequest: ErrorRequest = { method, url: ok.url, ...(ok.body ? { headers: JSON_TYPE, body: ok.body } : {}) };
  const answer = (code: ErrorCode, message: string, request: ErrorRequest | null, snapshot = true): ErrorExample => ({
    request,
    body: {
      ok: false,
      error: { code, message, request_id: EXAMPLE_REQUEST_ID },
      methodology_version: snapshot ? meta.methodology_version : null,
      dataset_snapshot_id: snapshot ? meta.dataset_snapshot_id : null,
      data_asof: snapshot ? meta.data_asof : null,
    },
  });
  switch (status) {
    case '400': {
      const [request, message] = badRequest(op, path, f);
      return answer('BAD_REQUEST', message, request);
    }
    case '401':
      return answer('UNAUTHORIZED', notLiveKey(MALFORMED_KEY).message, {
        ...okRequest,
        headers: { ...okRequest.headers, [API_KEY_HEADER]: 'not-a-live-key' },
        metered: true,
      });
    case '403':
      return answer('FORBIDDEN', `The free tier does not include evidence packs; the tiers that do: ${tiersIncluding('packs/day').join(', ')}.`, {
        ...okRequest,
        metered: true,
      });
    case '404': {
      const [request, message] = notFound(op, path, f);
      return answer('NOT_FOUND', message, request);
    }
    case '405': {
      const wrong = method === 'POST' ? 'GET' : 'DELETE';
      const allowed = method === 'POST' ? 'POST, OPTIONS' : 'GET, HEAD, OPTIONS';
      return answer('METHOD_NOT_ALLOWED', `${wrong} is not allowed here; allowed: ${allowed}.`, { method: wrong, url: path });
    }
    case '410': {
      // A demo prunes nothing: the id one a pruned snapshot would have, a month before the oldest kept.
      const [y, m] = f.oldestSnapshotId.split('-').map(Number) as [number, number];
      const gone = m === 1 ? `${y - 1}-12-01` : `${y}-${String(m - 1).padStart(2, '0')}-01`;
      return answer('GONE', snapshotGone(gone).message, null);
    }
    case '413': {
      const body = JSON.stringify({ tickers: [f.tickers[0].padEnd(LIMITS.bodyBytes + 1, '0')] });
      return answer('PAYLOAD_TOO_LARGE', bodyTooLarge().message, { method: 'POST', url: path, headers: JSON_TYPE, body });
    }
    case '414': {
      const url = `${path}?q=${'a'.repeat(LIMITS.urlBytes)}`;
      return answer('URI_TOO_LONG', requestTooLarge(url, [])!.message, { method, url });
    }
    case '429': {
      // A download refused: the client already has its cap of downloads running (server/kit/download-slots.ts).
      if (op.id === 'download') return answer('RATE_LIMITED', tooManyDownloads(DEFAULT_DOWNLOAD_LIMITS.perClient), null);
      // A keyless caller's sixth call in the minute the snapshot was published.
      const resets = new Date(windowOf('calls/min', Date.parse(meta.published_at)).endMs).toISOString().replace('.000Z', 'Z');
      const limit = TIER_QUOTAS.free['calls/min'];
      return answer('RATE_LIMITED', `Quota calls/min is spent (${limit} per minute for the free tier); it resets at ${resets}.`, {
        ...okRequest,
        metered: true,
      });
    }
    case '431': {
      const headers = { 'X-Padding': 'a'.repeat(LIMITS.headerBytes) };
      return answer('HEADERS_TOO_LARGE', requestTooLarge(path, Object.entries(headers).flat())!.message, { method, url: path, headers });
    }
    case '502':
      // No snapshot can be read: there is none to name.
      return answer('UPSTREAM_FAILURE', 'The current snapshot cannot be read.', null, false);
  }
  return undefined;
}

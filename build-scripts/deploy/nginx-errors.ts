/**
 * The answers nginx writes itself (build-scripts/deploy/nginx-config.ts): every one is the API's
 * error envelope (contract 2), never nginx's HTML page, with the shim's error headers and a request
 * id in the shim's form. The snapshot fields are null: nginx cannot read the snapshot.
 */
import { DOWNLOAD_RETRY_AFTER_S, tooManyDownloads } from '../../src/contract/downloads.js';
import { ERROR_STATUS, LIMITS, type ErrorCode } from '../../src/contract/vocabulary.js';
import { ERROR_HEADERS, JSON_TYPE } from './headers.js';

interface OwnError {
  /** nginx's own status codes that lead here: the first names the location. */
  statuses: number[];
  /** The contract's code; the answer's status is the code's, as the shim would answer the same failure. */
  code: ErrorCode;
  message: string;
  headers?: Record<string, string>;
}

/**
 * nginx's statuses that have no code of their own in the contract take the code the shim answers
 * the same failure with: 494 (nginx's "headers too large") is 431; 501 (a Transfer-Encoding nginx
 * does not implement, which Node's parser refuses as malformed) is 400; 503 and 504 (no shim
 * answered, or none in time) are 502 UPSTREAM_FAILURE.
 */
export function ownErrors(o: { perClientDownloads: number; upstreamTimeoutS: number }): OwnError[] {
  return [
    { statuses: [400], code: 'BAD_REQUEST', message: 'Malformed HTTP request.' },
    {
      statuses: [501],
      code: 'BAD_REQUEST',
      message: 'The request has a Transfer-Encoding this server does not take: send chunked, or a Content-Length.',
    },
    { statuses: [413], code: 'PAYLOAD_TOO_LARGE', message: `The request body is over ${LIMITS.bodyBytes / 1024} KiB.` },
    { statuses: [414], code: 'URI_TOO_LONG', message: `The URL is longer than ${LIMITS.urlBytes} bytes.` },
    { statuses: [494], code: 'HEADERS_TOO_LARGE', message: `The request headers are larger than ${LIMITS.headerBytes} bytes together.` },
    // Only `limit_conn` on the downloads makes nginx answer 429 itself (the shims' 429s pass through).
    {
      statuses: [429],
      code: 'RATE_LIMITED',
      message: tooManyDownloads(o.perClientDownloads),
      headers: { 'Retry-After': String(DOWNLOAD_RETRY_AFTER_S) },
    },
    { statuses: [500], code: 'INTERNAL', message: 'Internal error. The request id identifies it in our logs.' },
    { statuses: [502, 503], code: 'UPSTREAM_FAILURE', message: 'No API server answered; try again shortly.' },
    { statuses: [504], code: 'UPSTREAM_FAILURE', message: `No API server answered within ${o.upstreamTimeoutS} s; try again shortly.` },
  ];
}

/**
 * Where an error is answered: an internal URI, not a named location, since nginx cannot redirect a
 * request whose request line it could not read (400, 414) to a named location ("empty URI").
 */
const uriOf = (e: OwnError) => `/.esg-error/${e.statuses[0]}`;

/** A header value as a literal: no variable, no escape, no quote. */
export function literal(value: string): string {
  if (/["\\$\n]/.test(value)) throw new Error(`a header value nginx would not send as written: ${value}`);
  return `"${value}"`;
}

export const addHeaders = (headers: Readonly<Record<string, string>>, always: boolean) =>
  Object.entries(headers).map(([k, v]) => `add_header ${k} ${literal(v)}${always ? ' always' : ''};`);

/**
 * `error_page` lines, for the server and for each location that declares its own (a location with
 * any `error_page` inherits none from the server).
 */
export const errorPages = (errors: OwnError[]) => errors.map((e) => `error_page ${e.statuses.join(' ')} = ${uriOf(e)};`);

/**
 * One location per error: its envelope as a literal body with `$esg_request_id` in it. Reached only
 * as an error page (`internal`); asked for from outside, it is a miss like any other, the shim's.
 */
export function errorLocations(errors: OwnError[]): string[] {
  return errors.flatMap((e) => {
    const body = JSON.stringify({
      ok: false,
      error: { code: e.code, message: e.message, request_id: '@ID@' },
      methodology_version: null,
      dataset_snapshot_id: null,
      data_asof: null,
    }).replace('@ID@', '$esg_request_id');
    if (body.includes("'")) throw new Error('error body cannot hold a single quote');
    return [
      `location = ${uriOf(e)} {`,
      '    internal;',
      '    error_page 404 = @esg_shim;',
      // nginx checks the body's size again on the way in: an answer to 413 must not be refused for it.
      '    client_max_body_size 0;',
      // No types: the envelope is JSON whatever the URL's extension (`.html`, `.atom`, `.csv`).
      '    types { }',
      `    default_type ${literal(JSON_TYPE)};`,
      '    add_header X-Request-Id $esg_request_id always;',
      ...addHeaders({ ...ERROR_HEADERS, ...e.headers }, true).map((l) => `    ${l}`),
      `    return ${ERROR_STATUS[e.code]} '${body}';`,
      '}',
    ];
  });
}

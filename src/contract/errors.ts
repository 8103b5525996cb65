import { API_KEY_HEADER, ERROR_STATUS, LIMITS, type ErrorCode } from './vocabulary.js';

/** An error a client should see, with the contract's code and a message safe to show. */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = ERROR_STATUS[code];
  }
}

export const badRequest = (message: string) => new ApiError('BAD_REQUEST', message);
export const notFound = (message: string) => new ApiError('NOT_FOUND', message);
/** 405 naming the methods the path takes, in the message and in `Allow` (contract 2). */
export const methodNotAllowed = (method: string, allow: string) =>
  new ApiError('METHOD_NOT_ALLOWED', `${method} is not allowed here; allowed: ${allow}.`, { Allow: allow });

/** 413: a body over the contract's limit (body-parser's refusal, and the front's own). */
export const bodyTooLarge = () => new ApiError('PAYLOAD_TOO_LARGE', `The request body is over ${LIMITS.bodyBytes / 1024} KiB.`);
/** 414: the request line's URL over the limit. */
export const uriTooLong = () => new ApiError('URI_TOO_LONG', `The URL is longer than ${LIMITS.urlBytes} bytes.`);
/** 431: the header lines over the limit, together. */
export const headersTooLarge = () => new ApiError('HEADERS_TOO_LARGE', `The request headers are larger than ${LIMITS.headerBytes} bytes together.`);

/** Why a presented credential is no key at all (the holder of a real key learns more: server/access/key-store.ts whyNotLive). */
export const MALFORMED_KEY = 'The credential is not a key of this server (keys look like esg_<10 hex>_<43 characters>).';

/**
 * The 401 of a key that is not live (contract 6): where it was looked for, why (`why`, said to its
 * holder), and the two ways on. `bearer`: /mcp, which also reads `Authorization: Bearer`.
 */
export function notLiveKey(why: string, bearer = false): ApiError {
  const where = bearer ? `${API_KEY_HEADER} header (or Authorization: Bearer token)` : `${API_KEY_HEADER} header`;
  const none = bearer ? 'neither header' : `no ${API_KEY_HEADER} header`;
  return new ApiError(
    'UNAUTHORIZED',
    `The ${where} is not a live key (unknown or revoked).${why ? ` ${why}` : ''} Send a live key, or ${none} for the free tier.`,
  );
}

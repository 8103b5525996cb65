import type { ErrorCode } from '../src/contract/common.js';

const STATUS: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UPSTREAM_FAILURE: 502,
};

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
    this.status = STATUS[code];
  }
}

export const badRequest = (message: string) => new ApiError('BAD_REQUEST', message);
export const notFound = (message: string) => new ApiError('NOT_FOUND', message);

/** Maps anything thrown (ours, body-parser's, a bug) onto an ApiError; bugs get a generic message. */
export function toApiError(err: unknown): { error: ApiError; unexpected: boolean } {
  if (err instanceof ApiError) return { error: err, unexpected: false };
  const e = err as { type?: string; status?: number; statusCode?: number } | null;
  switch (e?.type) {
    case 'entity.too.large':
      return { error: new ApiError('PAYLOAD_TOO_LARGE', 'The request body is over 64 KiB.'), unexpected: false };
    case 'entity.parse.failed':
      return { error: badRequest('The request body is not valid JSON.'), unexpected: false };
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return { error: badRequest('The request body must be UTF-8 JSON.'), unexpected: false };
    case 'request.aborted':
    case 'request.size.invalid':
      return { error: badRequest('The request body was incomplete.'), unexpected: false };
  }
  const status = e?.status ?? e?.statusCode;
  if (status === 400) return { error: badRequest('Malformed request.'), unexpected: false };
  return { error: new ApiError('INTERNAL', 'Internal error. The request id identifies it in our logs.'), unexpected: true };
}

import { z } from 'zod';
import type { ZodOpenApiComponentsObject, ZodOpenApiOperationObject } from 'zod-openapi';
import { errorResponse } from './openapi-errors.js';
import { TIER_QUOTAS } from './tiers.js';
import { API_KEY_HEADER } from './vocabulary.js';

/**
 * Contract 6 in the OpenAPI document, kept apart from the resources: the optional `X-API-Key`
 * scheme, the RateLimit headers and 401/429 answers of every counted operation (one that takes a
 * query string or a body), and the 401 of GET /usage.
 */
const SCHEME = 'ApiKey';

const rateLimitHeaders = z.object({
  // Absent on a static file (no query string) and while shared counters are unreachable.
  RateLimit: z.string().optional().meta({
    description: 'IETF draft-8 state of the bucket nearest to running out, e.g. `"calls/min";r=12;t=42` (r: calls remaining, t: seconds to reset)',
  }),
  'RateLimit-Policy': z
    .string()
    .optional()
    .meta({ description: 'IETF draft-8 policy of that bucket, e.g. `"calls/min";q=30;w=60;pk=:…:` (q: calls per window, w: window in seconds)' }),
});

const error = errorResponse;

const unauthorized = error('The X-API-Key header is not a live key (unknown or revoked)');
const rateLimited = error(
  'A quota is spent; the message names the bucket and when it resets',
  z.object({
    'Retry-After': z.string().meta({ description: 'Seconds until the spent bucket resets' }),
    ...rateLimitHeaders.shape,
  }),
);

/** 403, for operations a tier may not include (POST /packs on free and academic, contract 4.7). */
export const forbidden = error('The caller’s tier does not include this feature; the message names the tiers that do');

export const accessComponents: Pick<ZodOpenApiComponentsObject, 'securitySchemes' | 'responses'> = {
  responses: { Unauthorized: unauthorized, Forbidden: forbidden, RateLimited: rateLimited },
  securitySchemes: {
    [SCHEME]: {
      type: 'apiKey',
      in: 'header',
      name: API_KEY_HEADER,
      description:
        `Optional. Without a key, computed calls are counted per client IP on the free tier (` +
        `${TIER_QUOTAS.free['calls/day']} a day, ${TIER_QUOTAS.free['calls/min']} a minute). Static files need no key ` +
        `and are never counted.`,
    },
  },
};

/** The key is optional: `{}` is the keyless free tier. */
const security: Record<string, string[]>[] = [{}, { [SCHEME]: [] }];

/** A counted operation (a query string or a body): the optional key, the RateLimit headers on its 200, 401 and 429. */
export function counted(op: ZodOpenApiOperationObject): ZodOpenApiOperationObject {
  const ok = op.responses?.['200'];
  return {
    ...op,
    security,
    responses: {
      ...op.responses,
      ...(ok && !('$ref' in ok) ? { '200': { ...ok, headers: rateLimitHeaders } } : {}),
      '401': unauthorized,
      '429': rateLimited,
    },
  };
}

/** An operation that counts nothing but reads the caller's key (GET /usage): the optional key and 401. */
export function identified(op: ZodOpenApiOperationObject): ZodOpenApiOperationObject {
  return { ...op, security, responses: { ...op.responses, '401': unauthorized } };
}

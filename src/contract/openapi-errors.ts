import type { ZodOpenApiResponseObject } from 'zod-openapi';
import { errorBodySchema } from './common.js';
import { LIMITS } from './vocabulary.js';

/** An error answer in the OpenAPI document: the one envelope (contract 2), optionally with headers. */
export const errorResponse = (description: string, headers?: ZodOpenApiResponseObject['headers']): ZodOpenApiResponseObject => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/json': { schema: errorBodySchema } },
});

/** Answers any request may get before it reaches its endpoint (contract 2; docs/api-decisions.md, "Paths"). */
export const requestLimits = {
  '405': errorResponse('A method the path does not take; the Allow header lists those it does'),
  '414': errorResponse(`The URL is longer than ${LIMITS.urlBytes} bytes`),
  '431': errorResponse(`The request headers are larger than ${LIMITS.headerBytes} bytes together`),
};

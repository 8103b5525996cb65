import { z } from 'zod';
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from 'zod-openapi';
import { indexResponseSchema } from './api-index.js';
import { batchResponseSchema } from './batch.js';
import { fullCanonicalViewSchema, canonicalViewSchema } from './canonical.js';
import { errorBodySchema, snapshotId } from './common.js';
import { LIMITS } from './vocabulary.js';
import { companyResponseSchema } from './company.js';
import { compareResponseSchema } from './compare.js';
import { etfListResponseSchema, etfResponseSchema } from './etf.js';
import { methodologyResponseSchema } from './methodology.js';
import {
  batchBodySchema, packsBodySchema, canonicalQuerySchema, compareQuerySchema, fundPathSchema, pagePathSchema, rankingQuerySchema, registryQuerySchema, tickerPathSchema,
} from './queries.js';
import { accessComponents, forbidden, withAccess } from './openapi-access.js';
import { addExamples, type OpenApiExamples } from './openapi-examples.js';
import { tidyForRenderers } from './openapi-for-renderers.js';
import { tagOperations } from './openapi-tags.js';
import { errorResponse, requestLimits } from './openapi-errors.js';
import { rankingResponseSchema } from './ranking.js';
import { registryResponseSchema } from './registry.js';
import { snapshotsResponseSchema } from './snapshots.js';
import { historyPaths } from './history-openapi.js';

const json = (schema: z.ZodType) => ({ content: { 'application/json': { schema } } });
const error = (description: string) => errorResponse(description);

function get(summary: string, schema: z.ZodType, extra: Partial<ZodOpenApiOperationObject> = {}): { get: ZodOpenApiOperationObject } {
  return {
    get: {
      summary,
      ...extra,
      responses: {
        '200': { description: 'OK (Cache-Control: public, max-age=3600; strong ETag; 304 on If-None-Match)', ...json(schema) },
        '304': { description: 'Not modified' },
        '400': error('Bad request: malformed code, unknown, repeated or out-of-range parameter'),
        '404': error('Unknown code or path'),
        ...requestLimits,
        '502': error('The snapshot cannot be read'),
      },
    },
  };
}

const paths: ZodOpenApiPathsObject = {
  '/api/v1/': get('Index of the API', indexResponseSchema),
  '/api/v1/company/{ticker}': get('Company summary', companyResponseSchema, { requestParams: { path: tickerPathSchema } }),
  '/api/v1/company/{ticker}/canonical': get('Canonical view: five sourced sections', canonicalViewSchema, {
    description: `Without a query string the static file, with all five sections (${Object.keys(fullCanonicalViewSchema.shape).length} keys).`,
    requestParams: { path: tickerPathSchema, query: canonicalQuerySchema },
  }),
  '/api/v1/ranking': get('Market ranking', rankingResponseSchema, { requestParams: { query: rankingQuerySchema } }),
  '/api/v1/ranking/page/{page}': get('Page N of the default ranking (static alias of /ranking?page=N)', rankingResponseSchema, {
    requestParams: { path: pagePathSchema },
  }),
  '/api/v1/compare': get('Compare 2–5 companies', compareResponseSchema, { requestParams: { query: compareQuerySchema } }),
  '/api/v1/etf': get('ESG ETFs covered', etfListResponseSchema),
  '/api/v1/etf/{code}': get('ETF holdings scored', etfResponseSchema, { requestParams: { path: fundPathSchema } }),
  '/api/v1/sources/registry': get('Source registry', registryResponseSchema, { requestParams: { query: registryQuerySchema } }),
  '/api/v1/methodology': get('Methodology as data', methodologyResponseSchema),
  '/api/v1/snapshots': get('Published snapshots and downloads', snapshotsResponseSchema),
  '/api/v1/downloads/{id}/{file}': {
    get: {
      summary: 'A file of a snapshot’s download folder; /snapshots lists them with size and sha256',
      requestParams: { path: z.object({ id: snapshotId, file: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/) }) },
      responses: {
        '200': { description: 'The file (CSV, JSON, SQLite, gzip, YAML or text); ETag is its sha256' },
        '304': { description: 'Not modified' },
        '400': error('Malformed snapshot id'),
        '404': error('Unknown snapshot or file'),
        ...requestLimits,
      },
    },
  },
  ...historyPaths,
  '/api/v1/openapi.json': { get: { summary: 'This document', responses: { '200': { description: 'OpenAPI 3.1 document' } } } },
  '/api/v1/batch': {
    post: {
      summary: 'Summaries of 1–100 tickers',
      requestBody: { required: true, ...json(batchBodySchema) },
      responses: {
        '200': { description: 'One item per distinct code, in request order', ...json(batchResponseSchema) },
        '400': error('Not JSON, wrong Content-Type, or a body outside the contract'),
        '413': error(`Body over ${LIMITS.bodyBytes / 1024} KiB`),
        ...requestLimits,
        '502': error('The snapshot cannot be read'),
      },
    },
  },
  '/api/v1/packs': {
    post: {
      summary: `Evidence pack: a zip of 1–${LIMITS.packMax} companies with their sources, methodology and checksums`,
      description:
        'Per company its summary, canonical view and history as JSON; one CSV of the summaries; the registry entries of exactly the sources its facts cite, with the sha256 of the publisher files they came from; the methodology; CITATION.cff; a README naming the snapshot and how to verify; SHA256SUMS (`sha256sum -c`). Same snapshot and codes (any order or case) give the same bytes. Counts against packs/day; the free and academic tiers get 403.',
      requestBody: { required: true, ...json(packsBodySchema) },
      responses: {
        '200': {
          description: 'The pack (Content-Disposition: attachment; filename names the snapshot; Cache-Control: no-store)',
          content: { 'application/zip': { schema: z.string().meta({ format: 'binary' }) } },
        },
        '400': error('Not JSON, wrong Content-Type, a malformed code, or a body outside the contract'),
        '403': forbidden,
        '404': error('Unknown ticker(s); the message names every one'),
        '413': error(`Body over ${LIMITS.bodyBytes / 1024} KiB`),
        ...requestLimits,
        '502': error('The snapshot cannot be read'),
      },
    },
  },
};

/**
 * The OpenAPI 3.1 document, generated from the same zod schemas that validate every response; with
 * `examples`, every schema and body carries a real value from the snapshot it is published with.
 */
export function openApiDocument(version: string, examples?: OpenApiExamples): ReturnType<typeof createDocument> {
  const doc = createDocument({
    openapi: '3.1.0',
    info: {
      title: 'ESG disclosure credibility API (Taiwan)',
      version,
      description: 'Every body carries methodology_version, dataset_snapshot_id and data_asof. Errors use one envelope. CORS is open.',
    },
    paths: withAccess(paths),
    components: { schemas: { Error: errorBodySchema }, ...accessComponents },
  });
  // A copy of its own: zod-openapi keeps the objects it was given (shared responses, operations),
  // and each example belongs to one operation and one status.
  const own = JSON.parse(JSON.stringify(doc)) as typeof doc;
  tidyForRenderers(own);
  tagOperations(own);
  if (examples) addExamples(own, examples);
  return own;
}


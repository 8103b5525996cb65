import { z } from 'zod';
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject, type ZodOpenApiResponsesObject } from 'zod-openapi';
import { errorBodySchema } from './common.js';
import { accessComponents, counted, identified } from './openapi-access.js';
import { addExamples, type OpenApiExamples } from './openapi-examples.js';
import { tidyForRenderers } from './openapi-for-renderers.js';
import { errorResponse, requestLimits } from './openapi-errors.js';
import {
  fullPath,
  OPERATION_GROUPS,
  PATH_PARAMS,
  ROUTES,
  type Operation,
  type OperationErrorStatus,
  type PathParam,
  type RouteTable,
} from './routes.js';
import { LIMITS } from './vocabulary.js';

/** What a GET or a POST may answer besides 200, unless the operation says otherwise. */
const DEFAULT_ERRORS: Record<Operation['method'], Partial<Record<OperationErrorStatus, string>>> = {
  GET: {
    '400': 'Bad request: malformed code, unknown, repeated or out-of-range parameter',
    '404': 'Unknown code or path',
    '502': 'The snapshot cannot be read',
  },
  POST: {
    '400': 'Not JSON, wrong Content-Type, or a body outside the contract',
    '413': `Body over ${LIMITS.bodyBytes / 1024} KiB`,
    '502': 'The snapshot cannot be read',
  },
};
const CACHED_OK = 'OK (Cache-Control: public, max-age=3600; strong ETag; 304 on If-None-Match)';

function responses(op: Operation): ZodOpenApiResponsesObject {
  const { schema, media, description } = op.ok;
  const type = media?.split(';')[0] ?? 'application/json';
  const ok = { description: description ?? (media && !schema ? media : CACHED_OK), ...(schema ? { content: { [type]: { schema } } } : {}) };
  const errors: ZodOpenApiResponsesObject = {};
  const described = { ...DEFAULT_ERRORS[op.method], ...op.errors };
  for (const status of Object.keys(described).sort() as OperationErrorStatus[]) {
    const text = described[status];
    if (text) errors[status] = errorResponse(text);
  }
  // Every GET carries an ETag and answers If-None-Match, but a caller's own state (no-store).
  const out: ZodOpenApiResponsesObject = { '200': ok };
  if (op.method === 'GET' && !op.uncounted) out['304'] = { description: 'Not modified' };
  return { ...out, ...errors, ...requestLimits };
}

function pathParams(op: Operation): z.ZodObject | undefined {
  const names = [...op.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name as PathParam);
  return names.length ? z.object(Object.fromEntries(names.map((n) => [n, PATH_PARAMS[n].schema]))) : undefined;
}

function operationObject(op: Operation): ZodOpenApiOperationObject {
  const path = pathParams(op);
  const item: ZodOpenApiOperationObject = {
    operationId: op.id,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: [OPERATION_GROUPS[op.group].name],
    ...(path || op.query ? { requestParams: { ...(path ? { path } : {}), ...(op.query ? { query: op.query } : {}) } } : {}),
    ...(op.body ? { requestBody: { required: true, content: { 'application/json': { schema: op.body } } } } : {}),
    responses: responses(op),
  };
  // Contract 6: a call with a query string or a body is counted; /usage is not, but reads the key.
  if (op.uncounted) return identified(item);
  return op.method === 'POST' || op.query ? counted(item) : item;
}

/** The document's paths: every listed operation of the table. */
function paths(table: RouteTable): ZodOpenApiPathsObject {
  const out: ZodOpenApiPathsObject = {};
  for (const op of table) {
    if (op.listed === false) continue;
    out[fullPath(op)] = { ...out[fullPath(op)], [op.method.toLowerCase()]: operationObject(op) };
  }
  return out;
}

/**
 * The OpenAPI 3.1 document, generated from the route table and the same zod schemas that validate
 * every response; with `examples`, every schema and body carries a real value from the snapshot it
 * is published with.
 */
export function openApiDocument(version: string, examples?: OpenApiExamples, table: RouteTable = ROUTES): ReturnType<typeof createDocument> {
  const doc = createDocument({
    openapi: '3.1.0',
    info: {
      title: 'ESG disclosure credibility API (Taiwan)',
      version,
      description: 'Every body carries methodology_version, dataset_snapshot_id and data_asof. Errors use one envelope. CORS is open.',
    },
    // The groups in the order a reader meets them. Beyond the sidebar's grouping this keeps /docs/
    // quick: Scalar renders the first group and lists the others' operations until opened.
    tags: Object.values(OPERATION_GROUPS).map(({ name, description }) => ({ name, description })),
    paths: paths(table),
    components: { schemas: { Error: errorBodySchema }, ...accessComponents },
  });
  // A copy of its own: zod-openapi keeps the objects it was given (shared responses, operations),
  // and each example belongs to one operation and one status.
  const own = JSON.parse(JSON.stringify(doc)) as typeof doc;
  tidyForRenderers(own);
  if (examples) addExamples(own, examples);
  return own;
}

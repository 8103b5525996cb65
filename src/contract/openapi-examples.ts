import type { BodyOperationId, JsonOperationId } from './routes.js';

/**
 * Examples in the OpenAPI document (what Scalar shows on /docs/ instead of `"string"`
 * placeholders): each named schema, each operation's JSON bodies (200 and every error) and each
 * JSON request body gets a real value, built from the snapshot the document is published with
 * (build-scripts/tree/openapi-examples.ts). The schemas themselves are untouched.
 */
export interface OpenApiExamples {
  /** By component schema name (`CompanySummary`, `Penalty`, `Error`, …). */
  schemas: Record<string, unknown>;
  /** 200 bodies, by operation: every operation that answers JSON has one. */
  responses: Record<JsonOperationId, unknown>;
  /** Request bodies, by operation: every operation that takes one. */
  requests: Record<BodyOperationId, unknown>;
  /**
   * The error body an operation (by id) answers with a status (`'404'`); `operation` is null for
   * the shared responses of the components (Unauthorized, Forbidden, RateLimited).
   */
  errors(operation: string | null, status: string): unknown;
}

type Json = Record<string, any>;

const isError = (status: string) => /^[45]\d\d$/.test(status);
const SHARED_STATUS: Record<string, string> = { Unauthorized: '401', Forbidden: '403', RateLimited: '429' };

/**
 * Writes the examples into `doc`, which must be the caller's own copy: zod-openapi hands the same
 * response object to every operation that shares it (405, 414, …) and keeps the objects it was given.
 */
export function addExamples(doc: Json, examples: OpenApiExamples): void {
  const components: Json = doc.components ?? {};
  const schemas: Json = components.schemas ?? {};
  for (const [name, example] of Object.entries(examples.schemas)) if (schemas[name] && example !== undefined) schemas[name].example = example;
  /** A JSON media type's example: its own, else its named schema's (a static alias shows its resource's). */
  const set = (media: Json | undefined, example: unknown) => {
    if (!media?.schema) return;
    const named = typeof media.schema.$ref === 'string' ? schemas[media.schema.$ref.split('/').pop()]?.example : undefined;
    const value = example ?? named;
    if (value !== undefined) media.example = value;
  };
  for (const [name, response] of Object.entries<Json>(components.responses ?? {})) {
    const status = SHARED_STATUS[name];
    if (status) set(response.content?.['application/json'], examples.errors(null, status));
  }
  for (const item of Object.values<Json>(doc.paths ?? {})) {
    for (const op of Object.values<Json>(item)) {
      const id: string = op.operationId;
      for (const [status, response] of Object.entries<Json>(op.responses ?? {})) {
        const media = response.content?.['application/json'];
        if (status === '200') set(media, (examples.responses as Record<string, unknown>)[id]);
        else if (isError(status)) set(media, examples.errors(id, status));
      }
      set(op.requestBody?.content?.['application/json'], (examples.requests as Record<string, unknown>)[id]);
    }
  }
}

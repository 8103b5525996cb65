/**
 * Examples in the OpenAPI document (what Scalar shows on /docs/ instead of `"string"`
 * placeholders): each named schema, each operation's 200 JSON body and each JSON request body
 * gets a real value, built from the snapshot the document is published with
 * (build-scripts/tree/openapi-examples.ts). The schemas themselves are untouched.
 */
export interface OpenApiExamples {
  /** By component schema name (`CompanySummary`, `Penalty`, `Error`, …). */
  schemas: Record<string, unknown>;
  /** 200 bodies, by `METHOD path` as in the document (`GET /api/v1/company/{ticker}`). */
  responses: Record<string, unknown>;
  /** Request bodies, by `METHOD path`. */
  requests: Record<string, unknown>;
}

type Json = Record<string, any>;

export function addExamples(doc: Json, examples: OpenApiExamples): void {
  const schemas: Json = doc.components?.schemas ?? {};
  for (const [name, example] of Object.entries(examples.schemas)) if (schemas[name] && example !== undefined) schemas[name].example = example;
  for (const [path, item] of Object.entries<Json>(doc.paths ?? {})) {
    for (const [method, op] of Object.entries<Json>(item)) {
      const key = `${method.toUpperCase()} ${path}`;
      const ok = op.responses?.['200']?.content?.['application/json'];
      if (ok && examples.responses[key] !== undefined) ok.example = examples.responses[key];
      const body = op.requestBody?.content?.['application/json'];
      if (body && examples.requests[key] !== undefined) body.example = examples.requests[key];
    }
  }
}

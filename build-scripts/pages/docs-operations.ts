import { openApiDocument } from '../../src/contract/openapi.js';
import type { SnapshotMeta } from '../../src/snapshot/schema.js';
import { apiIndexView } from '../../src/views/api-index.js';

/**
 * Every operation of the OpenAPI document with a curl example: the runnable examples of the API
 * index (GET /api/v1/), and a body for the one POST. The examples name `https://<service host>`.
 */
export function docsOperations(meta: SnapshotMeta, exampleTickers: string[], exampleEtf: string | undefined) {
  const doc = openApiDocument(meta.methodology_version);
  const index = apiIndexView(meta, exampleTickers, exampleEtf);
  const host = `https://${meta.service_host}`;
  const examples = new Map(index.endpoints.map((e) => [`${e.method} ${e.path.replace(/<(\w+)>/g, '{$1}')}`, e.example]));
  const ops: { method: string; path: string; summary: string; curl: string | null }[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of ['get', 'post'] as const) {
      const op = item?.[method];
      if (!op) continue;
      const upper = method.toUpperCase();
      const example = examples.get(`${upper} ${path}`);
      let curl: string | null = null;
      if (upper === 'POST') {
        const body = JSON.stringify({ tickers: exampleTickers });
        curl = `curl -X POST '${host}${path}' -H 'Content-Type: application/json' -d '${body}'`;
      } else if (example) curl = `curl '${host}${example}'`;
      ops.push({ method: upper, path, summary: op.summary ?? '', curl });
    }
  }
  return ops;
}

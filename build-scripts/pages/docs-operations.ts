import { fullPath, ROUTES } from '../../src/contract/routes.js';
import type { SnapshotMeta } from '../../src/snapshot/schema.js';
import { apiIndexView } from '../../src/views/api-index.js';

/**
 * Every listed operation of the route table with a curl example: the runnable examples of the API
 * index (GET /api/v1/), and a body for the POSTs. The examples name `https://<service host>`.
 */
export function docsOperations(meta: SnapshotMeta, exampleTickers: string[], exampleEtf: string | undefined) {
  const index = apiIndexView(meta, exampleTickers, exampleEtf);
  const host = `https://${meta.service_host}`;
  const examples = new Map(index.endpoints.map((e) => [`${e.method} ${e.path.replace(/<(\w+)>/g, '{$1}')}`, e.example]));
  return ROUTES.filter((op) => op.listed !== false).map((op) => {
    const path = fullPath(op);
    const example = examples.get(`${op.method} ${path}`);
    let curl: string | null = null;
    if (op.method === 'POST') {
      const body = JSON.stringify({ tickers: exampleTickers });
      curl = `curl -X POST '${host}${path}' -H 'Content-Type: application/json' -d '${body}'`;
    } else if (example) curl = `curl '${host}${example}'`;
    return { id: op.id, method: op.method, path, summary: op.summary, curl };
  });
}

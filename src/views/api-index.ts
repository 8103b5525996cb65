import type { IndexResponse } from '../contract/api-index.js';
import type { SnapshotMeta } from '../snapshot/schema.js';
import { disclaimerFor, withEnvelope } from './envelope.js';
import { fullPath, ROUTES } from '../contract/routes.js';

/**
 * GET /api/v1/: every endpoint with a runnable example. Paths are shown with `<name>` placeholders,
 * not OpenAPI's `{name}`, because no string in a response may look like an unexpanded template.
 */
export function apiIndexView(meta: SnapshotMeta, exampleTickers: string[], exampleEtf: string | undefined): IndexResponse {
  const [exampleTicker, otherTicker] = exampleTickers;
  const values: Record<string, string | undefined> = {
    ticker: exampleTicker,
    code: exampleEtf,
    page: '2',
    id: meta.dataset_snapshot_id,
    file: 'SHA256SUMS',
    path: 'methodology',
  };
  return withEnvelope(meta, {
    name: 'ESG disclosure credibility API (Taiwan)',
    description: 'Credibility of the ESG and carbon disclosures of Taiwan-listed companies; every fact traced to its source.',
    disclaimer: disclaimerFor(meta),
    endpoints: ROUTES.filter((op) => op.listed !== false).map((op) => {
      const template = fullPath(op);
      const e = { method: op.method, path: template.replace(/\{(\w+)\}/g, '<$1>'), description: op.summary };
      const query = (op.example ?? '').replace('{ticker}', exampleTicker ?? '').replace('{other}', otherTicker ?? '');
      const missing =
        [...template.matchAll(/\{(\w+)\}/g)].some(([, name]) => values[name!] === undefined) || (op.example?.includes('{other}') && !otherTicker);
      if (missing || op.method === 'POST') return e;
      // Page 1 of the changes always exists (a first snapshot has no other).
      const value = (name: string) => (name === 'page' && op.id === 'changesPage' ? '1' : values[name]!);
      return { ...e, example: template.replace(/\{(\w+)\}/g, (_, name: string) => value(name)) + query };
    }),
  });
}

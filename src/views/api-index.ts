import type { IndexResponse } from '../contract/api-index.js';
import type { SnapshotMeta } from '../snapshot/schema.js';
import { disclaimerFor, withEnvelope } from './envelope.js';

export interface EndpointDoc {
  method: 'GET' | 'POST';
  path: string;
  description: string;
  example?: string;
}

/** Every endpoint of the API, in one list: the index, the OpenAPI document and the README table agree. */
export const ENDPOINTS: readonly EndpointDoc[] = [
  { method: 'GET', path: '/api/v1/', description: 'This index' },
  { method: 'GET', path: '/api/v1/company/{ticker}', description: 'Company summary: score, verdict, rank, flags, breakdown' },
  { method: 'GET', path: '/api/v1/company/{ticker}/canonical', description: 'The five sourced sections; ?fields= selects some (computed)' },
  { method: 'GET', path: '/api/v1/company/{ticker}/history', description: 'The company in every published snapshot that held it, newest first' },
  { method: 'GET', path: '/api/v1/ranking', description: 'Market ranking; query parameters filter and page it (computed)' },
  { method: 'GET', path: '/api/v1/ranking/page/{page}', description: 'Page N of the default ranking (static alias of /ranking?page=N)' },
  { method: 'GET', path: '/api/v1/compare', description: 'Canonical views of 2–5 companies side by side (computed)' },
  { method: 'GET', path: '/api/v1/etf', description: 'ESG ETFs covered' },
  { method: 'GET', path: '/api/v1/etf/{code}', description: 'An ETF’s holdings scored' },
  { method: 'GET', path: '/api/v1/sources/registry', description: 'Every data source behind the facts; ?gov_only, ?owner_org filter (computed)' },
  { method: 'GET', path: '/api/v1/methodology', description: 'Methodology as data' },
  { method: 'GET', path: '/api/v1/snapshots', description: 'Published snapshots, newest first (by data_asof, then publish time), and their download files' },
  { method: 'GET', path: '/api/v1/snapshots/{id}/{path}', description: 'Pinned read: any static path as snapshot <id> served it, byte for byte (410 once pruned)' },
  { method: 'GET', path: '/api/v1/changes', description: 'What changed since the previous snapshot, cause by cause; ?cause, ?industry, ?min_abs_delta filter (computed)' },
  { method: 'GET', path: '/api/v1/changes/page/{page}', description: 'Page N of the changes (static alias of /changes?page=N)' },
  { method: 'GET', path: '/api/v1/feed.atom', description: 'Atom feed of the last 12 snapshots’ changes' },
  { method: 'GET', path: '/api/v1/downloads/{id}/{file}', description: 'A file of a snapshot’s download folder (CSV, Data Package, SQLite, archive, SHA256SUMS)' },
  { method: 'GET', path: '/api/v1/openapi.json', description: 'OpenAPI 3.1 description' },
  { method: 'POST', path: '/api/v1/batch', description: 'Summaries of up to 100 tickers (computed)' },
  { method: 'POST', path: '/api/v1/packs', description: 'Evidence pack: a zip of up to 50 companies with their sources, history, methodology and SHA256SUMS (computed; developer and commercial keys)' },
  { method: 'GET', path: '/api/v1/usage', description: 'Your quota: tier and each bucket’s limit, used, remaining and reset (key from X-API-Key, else your IP; not counted)' },
];

/**
 * GET /api/v1/: every endpoint with a runnable example. Paths are shown with `<name>` placeholders,
 * not OpenAPI's `{name}`, because no string in a response may look like an unexpanded template.
 */
export function apiIndexView(meta: SnapshotMeta, exampleTickers: string[], exampleEtf: string | undefined): IndexResponse {
  const [exampleTicker, otherTicker] = exampleTickers;
  const values: Record<string, string | undefined> = { ticker: exampleTicker, code: exampleEtf, page: '2', id: meta.dataset_snapshot_id, file: 'SHA256SUMS', path: 'methodology' };
  const queries: Record<string, string> = {
    '/api/v1/company/{ticker}/canonical': '?fields=penalties,carbon',
    '/api/v1/ranking': '?industry=%E6%B0%B4%E6%B3%A5%E5%B7%A5%E6%A5%AD&limit=10',
    '/api/v1/compare': otherTicker ? `?tickers=${exampleTicker},${otherTicker}` : '',
    '/api/v1/sources/registry': '?gov_only=true',
    '/api/v1/changes': '?min_abs_delta=10',
  };
  return withEnvelope(meta, {
    name: 'ESG disclosure credibility API (Taiwan)',
    description: 'Credibility of the ESG and carbon disclosures of Taiwan-listed companies; every fact traced to its source.',
    disclaimer: disclaimerFor(meta),
    endpoints: ENDPOINTS.map((e) => {
      const missing = [...e.path.matchAll(/\{(\w+)\}/g)].some(([, name]) => values[name!] === undefined) || (e.path === '/api/v1/compare' && !otherTicker);
      const path = e.path.replace(/\{(\w+)\}/g, '<$1>');
      if (missing || e.method === 'POST') return { ...e, path };
      // Page 1 of the changes always exists (a first snapshot has no other).
      const value = (name: string) => (name === 'page' && e.path.startsWith('/api/v1/changes/') ? '1' : values[name]!);
      return { ...e, path, example: e.path.replace(/\{(\w+)\}/g, (_, name: string) => value(name)) + (queries[e.path] ?? '') };
    }),
  });
}

import type { IndexResponse } from '../contract/api-index.js';
import type { SnapshotMeta } from '../snapshot/schema.js';
import { disclaimerFor, successEnvelope } from './envelope.js';

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
  { method: 'GET', path: '/api/v1/ranking', description: 'Market ranking; query parameters filter and page it (computed)' },
  { method: 'GET', path: '/api/v1/ranking/page/{page}', description: 'Page N of the default ranking (static alias of /ranking?page=N)' },
  { method: 'GET', path: '/api/v1/compare', description: 'Canonical views of 2–5 companies side by side (computed)' },
  { method: 'GET', path: '/api/v1/etf', description: 'ESG ETFs covered' },
  { method: 'GET', path: '/api/v1/etf/{code}', description: 'An ETF’s holdings scored' },
  { method: 'GET', path: '/api/v1/sources/registry', description: 'Every data source behind the facts; ?gov_only, ?owner_org filter (computed)' },
  { method: 'GET', path: '/api/v1/methodology', description: 'Methodology as data' },
  { method: 'GET', path: '/api/v1/snapshots', description: 'Published snapshots and their download files' },
  { method: 'GET', path: '/api/v1/openapi.json', description: 'OpenAPI 3.1 description' },
  { method: 'POST', path: '/api/v1/batch', description: 'Summaries of up to 100 tickers (computed)' },
];

export function apiIndexView(meta: SnapshotMeta, exampleTicker: string | undefined, exampleEtf: string | undefined): IndexResponse {
  return {
    ...successEnvelope(meta),
    name: 'ESG disclosure credibility API (Taiwan)',
    description: 'Credibility of the ESG and carbon disclosures of Taiwan-listed companies; every fact traced to its source.',
    disclaimer: disclaimerFor(meta),
    endpoints: ENDPOINTS.map((e) => {
      const example = e.path
        .replace('{ticker}', exampleTicker ?? '')
        .replace('{code}', exampleEtf ?? '')
        .replace('{page}', '2');
      return example.includes('{') || example.endsWith('/') && e.path !== '/api/v1/' ? { ...e } : { ...e, example };
    }),
  };
}

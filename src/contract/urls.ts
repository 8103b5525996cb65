/**
 * How URL paths map onto files of the static tree, shared by the tree writer and the shim (and
 * described for nginx in docs/snapshots.md): `/api/v1/x/y` is `api/v1/x/y.json`; a folder URL ending in
 * `/` is its `index.json`. A `.json` suffix on the request is the same resource.
 */
export const API_BASE = '/api/v1';

/** The MCP endpoint (server/mcp/route.ts), beside the API rather than under it. */
export const MCP_PATH = '/mcp';

export function fileForUrlPath(urlPath: string): string {
  const rel = urlPath.replace(/^\/+/, '');
  if (rel === '' || rel.endsWith('/')) return `${rel}index.json`;
  // The Atom feed keeps its own extension (a static host types it by that).
  return rel.endsWith('.json') || rel.endsWith('.atom') ? rel : `${rel}.json`;
}

/** Tree folder holding one download folder per snapshot (`<DOWNLOADS_DIR>/<id>/…`). */
export const DOWNLOADS_DIR = 'api/v1/downloads';

/**
 * Tree files the snapshot's archive of its own tree leaves out: the two that name the archive's
 * hash (/snapshots, and the OpenAPI document, whose examples include /snapshots), and the download
 * folders themselves.
 */
export function outsideTreeArchive(rel: string): boolean {
  return rel === fileForUrlPath(urls.snapshots) || rel === fileForUrlPath(urls.openapi) || rel.startsWith(`${DOWNLOADS_DIR}/`);
}

export const urls = {
  index: `${API_BASE}/`,
  company: (t: string) => `${API_BASE}/company/${t}`,
  canonical: (t: string) => `${API_BASE}/company/${t}/canonical`,
  history: (t: string) => `${API_BASE}/company/${t}/history`,
  changes: `${API_BASE}/changes`,
  changesPage: (n: number) => `${API_BASE}/changes/page/${n}`,
  feed: `${API_BASE}/feed.atom`,
  etfList: `${API_BASE}/etf`,
  etf: (c: string) => `${API_BASE}/etf/${c}`,
  ranking: `${API_BASE}/ranking`,
  rankingPage: (n: number) => `${API_BASE}/ranking/page/${n}`,
  registry: `${API_BASE}/sources/registry`,
  methodology: `${API_BASE}/methodology`,
  snapshots: `${API_BASE}/snapshots`,
  openapi: `${API_BASE}/openapi.json`,
  downloads: (id: string) => `${API_BASE}/downloads/${id}`,
};

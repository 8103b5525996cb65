/**
 * How URL paths map onto files of the static tree, shared by the tree writer and the shim (and
 * described for nginx in docs/snapshots.md): `/api/v1/x/y` is `api/v1/x/y.json`; a folder URL ending in
 * `/` is its `index.json`. A `.json` suffix on the request is the same resource (`sameResource`).
 * The URLs of the operations themselves are the route table's (urls.ts).
 */
export const API_BASE = '/api/v1';

/** The MCP endpoint (server/mcp/route.ts), beside the API rather than under it. */
export const MCP_PATH = '/mcp';

/** The first path word below API_BASE of the download folders, whose files keep their own names. */
const DOWNLOADS_WORD = 'downloads';

/** Tree folder holding one download folder per snapshot (`<DOWNLOADS_DIR>/<id>/…`). */
export const DOWNLOADS_DIR = `${API_BASE.slice(1)}/${DOWNLOADS_WORD}`;

export function fileForUrlPath(urlPath: string): string {
  const rel = urlPath.replace(/^\/+/, '');
  if (rel === '' || rel.endsWith('/')) return `${rel}index.json`;
  // The Atom feed keeps its own extension (a static host types it by that).
  return rel.endsWith('.json') || rel.endsWith('.atom') ? rel : `${rel}.json`;
}

/**
 * The path words below API_BASE with `.json` dropped from the last one: it names the same resource
 * (contract 1.1), except in the download folders, whose files keep their names. Changes `words`.
 * The one rule for requests (request-path.ts), the route table's templates and the metric labels.
 */
export function sameResource(words: string[]): string[] {
  const last = words.length - 1;
  if (last >= 0 && words[0] !== DOWNLOADS_WORD && words[last]!.endsWith('.json')) words[last] = words[last]!.slice(0, -'.json'.length);
  return words;
}

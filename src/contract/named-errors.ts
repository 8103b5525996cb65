import { API_BASE } from './api-paths.js';
import { ApiError, badRequest, notFound } from './errors.js';

/**
 * The API's errors that name what was asked for, each worded once: the shim's handlers, the MCP
 * tools, the route table's missing files and the OpenAPI document's examples all throw or show these.
 */

/** 404: codes the snapshot does not have, every one named in the order asked. */
export const unknownTickers = (codes: readonly string[]) => notFound(`Unknown ${codes.length === 1 ? 'ticker' : 'tickers'}: ${codes.join(', ')}`);

/** 404: a fund code the snapshot does not have. */
export const unknownFund = (code: string) => notFound(`Unknown fund code: ${code}`);

/** 400: a snapshot id that is not one (contract 10). */
export const malformedSnapshotId = (id: string) => badRequest(`Malformed snapshot id "${id.slice(0, 24)}": a date YYYY-MM-DD, optionally .N.`);

/** 404: a well-formed snapshot id never published. */
export const unknownSnapshot = (id: string) => notFound(`Unknown snapshot: ${id}`);

/** 410: a snapshot published and since pruned (SNAPSHOTS_KEEP). */
export const snapshotGone = (id: string) =>
  new ApiError('GONE', `Snapshot ${id} was published and has since been pruned; see ${API_BASE}/snapshots for the kept ones.`);

/** 404: no download of that name (outside the names a download may have, or not in snapshot `id`). */
export const noDownload = (name: string, id?: string) =>
  notFound(id === undefined ? `No download named "${name.slice(0, 40)}".` : `No download named "${name}" in snapshot ${id}.`);

/** 404: a path the service does not have. */
export const noSuchPath = (path: string) =>
  notFound(`No such path: ${path.length > 80 ? `${path.slice(0, 80)}…` : path}. See ${API_BASE}/ for the endpoints.`);

/** 404: a pinned read of a static path the snapshot did not have. */
export const notInSnapshot = (id: string, url: string) => notFound(`Snapshot ${id} has no ${url}.`);

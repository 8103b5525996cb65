import type { ListResourcesResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { urls } from '../../src/contract/urls.js';
import type { SnapshotStore } from '../../src/snapshot/store.js';
import { ApiError } from '../../src/contract/errors.js';
import { readTreeFile } from '../routes/tree.js';
import { JsonRpcError, RPC } from './call.js';

/**
 * Read-only MCP resources: the API's static documents every answer refers to, each the exact body
 * of its API path in the current snapshot (a static file, so reading one counts toward no quota,
 * as the file itself would not).
 */
const RESOURCES = [
  {
    uri: 'esg://methodology',
    name: 'methodology',
    title: 'Methodology',
    description: 'How the credibility score, verdicts and red flags are computed (the body of GET /api/v1/methodology).',
    url: urls.methodology,
  },
  {
    uri: 'esg://sources/registry',
    name: 'source-registry',
    title: 'Source registry',
    description:
      'Every data source behind the facts, by source_id: publisher, licence, update frequency, the files read (GET /api/v1/sources/registry).',
    url: urls.registry,
  },
  {
    uri: 'esg://snapshots',
    name: 'snapshots',
    title: 'Published snapshots',
    description:
      'Every published snapshot, newest first, with its as-of date, methodology version, counts and download files (GET /api/v1/snapshots).',
    url: urls.snapshots,
  },
] as const;

const MIME_TYPE = 'application/json';

const listed: ListResourcesResult = { resources: RESOURCES.map(({ url: _url, ...r }) => ({ ...r, mimeType: MIME_TYPE })) };
export const resourceList = (): ListResourcesResult => listed;

export function readResource(store: SnapshotStore, uri: string): ReadResourceResult {
  const resource = RESOURCES.find((r) => r.uri === uri);
  if (!resource)
    throw new JsonRpcError(
      RPC.resourceNotFound,
      `Resource not found: ${uri.slice(0, 80)}; the resources are ${RESOURCES.map((r) => r.uri).join(', ')}.`,
      { uri: uri.slice(0, 200) },
    );
  const file = readTreeFile(store.dir, resource.url);
  if (!file) throw new ApiError('UPSTREAM_FAILURE', `The snapshot has no ${resource.url}.`);
  return { contents: [{ uri: resource.uri, mimeType: MIME_TYPE, text: file.bytes.toString('utf8') }] };
}

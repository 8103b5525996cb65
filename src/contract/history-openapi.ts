import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { changesQuerySchema, changesResponseSchema } from './changes.js';
import { errorBodySchema, snapshotId } from './common.js';
import { historyResponseSchema } from './history.js';
import { pagePathSchema, tickerPathSchema } from './queries.js';
import { LIMITS } from './vocabulary.js';

/** OpenAPI paths of contract section 10 (history, changes, feed, pinned reads), merged into openapi.ts's document. */
const json = (schema: z.ZodType) => ({ content: { 'application/json': { schema } } });
const error = (description: string) => ({ description, ...json(errorBodySchema) });
const common = {
  '304': { description: 'Not modified' },
  '400': error('Bad request: malformed code, unknown, repeated or out-of-range parameter'),
  '404': error('Unknown code or path'),
  '405': error('A method the path does not take; the Allow header lists those it does'),
  '414': error(`The URL is longer than ${LIMITS.urlBytes} bytes`),
  '431': error(`The request headers are larger than ${LIMITS.headerBytes} bytes together`),
  '502': error('The snapshot cannot be read'),
};
const ok = (schema: z.ZodType) => ({ '200': { description: 'OK (Cache-Control: public, max-age=3600; strong ETag; 304 on If-None-Match)', ...json(schema) } });

export const historyPaths: ZodOpenApiPathsObject = {
  '/api/v1/company/{ticker}/history': {
    get: {
      summary: 'A company’s entry in every published snapshot that held it, newest first: by data_asof, then publish time (pruned snapshots included)',
      requestParams: { path: tickerPathSchema },
      responses: { ...ok(historyResponseSchema), ...common },
    },
  },
  '/api/v1/changes': {
    get: {
      summary: 'What changed since the previous snapshot, cause by cause',
      description: `Without a query string the static first page (${LIMITS.changesPerPage} per page). With one, computed and metered: filters by cause kind, industry and |score_delta|.`,
      requestParams: { query: changesQuerySchema },
      responses: { ...ok(changesResponseSchema), ...common },
    },
  },
  '/api/v1/changes/page/{page}': {
    get: { summary: 'Page N of the changes (static alias of /changes?page=N)', requestParams: { path: pagePathSchema }, responses: { ...ok(changesResponseSchema), ...common } },
  },
  '/api/v1/feed.atom': {
    get: {
      summary: 'Atom 1.0 feed: one entry per snapshot for the last 12, with the largest moves and their causes',
      responses: { '200': { description: 'application/atom+xml; charset=utf-8' }, ...common },
    },
  },
  '/api/v1/snapshots/{id}/{path}': {
    get: {
      summary: 'Pinned read: a static path as snapshot {id} served it, byte for byte (path may hold slashes, e.g. company/D1101/canonical)',
      requestParams: { path: z.object({ id: snapshotId, path: z.string() }) },
      responses: {
        '200': { description: 'The body that path had in that snapshot' },
        ...common,
        '404': error('Unknown snapshot (named in the message) or a path with no static file'),
        '410': error('The snapshot was published and has since been pruned (SNAPSHOTS_KEEP)'),
      },
    },
  },
};

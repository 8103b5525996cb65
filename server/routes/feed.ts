import { parseQuery } from '../../src/contract/parse-request.js';
import { noQuerySchema } from '../../src/contract/queries.js';
import { urls } from '../../src/contract/urls.js';
import { ATOM_TYPE } from '../../src/views/feed.js';
import type { RouteContext } from '../context.js';
import { notFound } from '../../src/contract/errors.js';
import { sendBody } from '../http.js';
import { readTreeFile } from './tree.js';

/** GET /feed.atom (contract 10): the current snapshot's Atom feed, a static file typed as Atom. */
export function serveFeed(ctx: RouteContext): void {
  if (ctx.rawQuery !== '') parseQuery(noQuerySchema, ctx.rawQuery, '/feed.atom');
  const file = readTreeFile(ctx.store.dir, urls.feed);
  if (!file) throw notFound('The feed is missing from this snapshot.');
  sendBody(ctx.req, ctx.res, file.bytes, ATOM_TYPE, {}, file.etag);
}

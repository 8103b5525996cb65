import { parseQuery } from '../../src/contract/parse-request.js';
import { registryQuerySchema } from '../../src/contract/queries.js';
import { registryView } from '../../src/views/registry.js';
import type { RouteContext } from './context.js';
import { sendJson } from '../kit/http.js';

/** GET /sources/registry?gov_only=…&owner_org=… (contract 4.5). */
export function filteredRegistry(ctx: RouteContext): void {
  const query = parseQuery(registryQuerySchema, ctx.rawQuery, '/sources/registry');
  sendJson(ctx.req, ctx.res, registryView(ctx.store.meta, ctx.store.sources(), { govOnly: query.gov_only, ownerOrg: query.owner_org }));
}

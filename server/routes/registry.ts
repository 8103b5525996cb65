import { registryView } from '../../src/views/registry.js';
import type { RouteContext } from '../context.js';
import { badRequest } from '../errors.js';
import { sendJson } from '../http.js';
import { oneOf, parseQuery } from '../query.js';

/** GET /sources/registry?gov_only=…&owner_org=… (contract 4.5). */
export function filteredRegistry(ctx: RouteContext): void {
  const query = parseQuery(ctx.rawQuery, ['gov_only', 'owner_org'], '/sources/registry');
  const govOnly = oneOf(query, 'gov_only', ['true', 'false'] as const) === 'true';
  const ownerOrg = query.get('owner_org');
  if (ownerOrg === '') throw badRequest('Query parameter "owner_org" is empty; give an org code such as MOENV, TWSE, TPEX or MOPS.');
  sendJson(ctx.req, ctx.res, registryView(ctx.store.meta, ctx.store.sources(), { govOnly, ownerOrg }));
}

import type { InputOf } from '../../src/contract/routes.js';
import { registryView } from '../../src/views/registry.js';
import type { RouteContext } from './context.js';
import { sendJson } from '../kit/http.js';

/** GET /sources/registry?gov_only=…&owner_org=… (contract 4.5). */
export function filteredRegistry({ query }: InputOf<'registry'>, ctx: RouteContext): void {
  sendJson(ctx.req, ctx.res, registryView(ctx.store.meta, ctx.store.sources(), { govOnly: query.gov_only, ownerOrg: query.owner_org }));
}

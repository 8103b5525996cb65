import { parseQuery } from '../../src/contract/parse-request.js';
import { canonicalQuerySchema } from '../../src/contract/queries.js';
import { canonicalView } from '../../src/views/canonical.js';
import { sourceNames, type RouteContext } from '../context.js';
import { notFound } from '../errors.js';
import { sendJson } from '../http.js';

/** GET /company/{ticker}/canonical?fields=… (contract 4.1). */
export function canonicalWithFields(ctx: RouteContext): void {
  const { fields } = parseQuery(canonicalQuerySchema, ctx.rawQuery, '/company/{ticker}/canonical');
  const ticker = ctx.params[0]!;
  const facts = ctx.store.facts(ticker);
  if (!facts) throw notFound(`Unknown ticker: ${ticker}`);
  sendJson(ctx.req, ctx.res, canonicalView(ctx.store.meta, facts, sourceNames(ctx.store), fields));
}

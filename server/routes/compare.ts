import { parseQuery } from '../../src/contract/parse-request.js';
import { compareQuerySchema } from '../../src/contract/queries.js';
import { compareView } from '../../src/views/compare.js';
import { sourceNames, type RouteContext } from '../context.js';
import { notFound } from '../errors.js';
import { sendJson } from '../http.js';

/** GET /compare?tickers=…[&fields=…] (contract 4.4). */
export function compare(ctx: RouteContext): void {
  const { tickers, fields } = parseQuery(compareQuerySchema, ctx.rawQuery, '/compare');
  const facts = tickers.map((t) => ctx.store.facts(t));
  const unknown = tickers.filter((_, i) => !facts[i]);
  if (unknown.length > 0) throw notFound(`Unknown ticker${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`);
  sendJson(ctx.req, ctx.res, compareView(ctx.store.meta, facts.map((f) => f!), sourceNames(ctx.store), fields));
}

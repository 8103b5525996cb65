import type { CompareResponse } from '../../src/contract/compare.js';
import { parseQuery } from '../../src/contract/parse-request.js';
import { compareQuerySchema } from '../../src/contract/queries.js';
import { canonicalView } from '../../src/views/canonical.js';
import { companySummary } from '../../src/views/company.js';
import { withEnvelope } from '../../src/views/envelope.js';
import { sourceNames, type RouteContext } from '../context.js';
import { notFound } from '../errors.js';
import { sendJson } from '../http.js';

/** GET /compare?tickers=…[&fields=…] (contract 4.4). */
export function compare(ctx: RouteContext): void {
  const { tickers, fields } = parseQuery(compareQuerySchema, ctx.rawQuery, '/compare');
  const facts = tickers.map((t) => ctx.store.facts(t));
  const unknown = tickers.filter((_, i) => !facts[i]);
  if (unknown.length > 0) throw notFound(`Unknown ticker${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`);
  const { meta } = ctx.store;
  const names = sourceNames(ctx.store);
  const body: CompareResponse = withEnvelope(meta, {
    data: facts.map((f) => {
      const { ok: _ok, generated_at: _g, methodology_version: _m, dataset_snapshot_id: _d, data_asof: _a, ...view } = canonicalView(meta, f!, names, fields);
      return { ...view, company: companySummary(meta, f!.company) };
    }),
  });
  sendJson(ctx.req, ctx.res, body);
}

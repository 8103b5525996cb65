import type { CompareResponse } from '../../src/contract/compare.js';
import { canonicalView } from '../../src/views/canonical.js';
import { companySummary } from '../../src/views/company.js';
import { withEnvelope } from '../../src/views/envelope.js';
import { parseCode } from '../codes.js';
import { helpersOf, type RouteContext } from '../context.js';
import { badRequest, notFound } from '../errors.js';
import { sendJson } from '../http.js';
import { parseQuery } from '../query.js';
import { parseSections } from './canonical.js';

const MIN = 2;
const MAX = 5;

/** GET /compare?tickers=…[&fields=…] (contract 4.4). */
export function compare(ctx: RouteContext): void {
  const query = parseQuery(ctx.rawQuery, ['tickers', 'fields'], '/compare');
  const raw = query.get('tickers');
  if (raw === undefined) throw badRequest(`Query parameter "tickers" is required: ${MIN} to ${MAX} comma-separated tickers.`);
  const sections = parseSections(query.get('fields'));
  const tickers = [
    ...new Set(
      raw.split(',').map((s) => {
        try {
          return parseCode(s.trim(), 'ticker');
        } catch (e) {
          throw badRequest(`Query parameter "tickers": ${(e as Error).message}`);
        }
      }),
    ),
  ];
  if (tickers.length < MIN || tickers.length > MAX) {
    throw badRequest(`Query parameter "tickers" must name ${MIN} to ${MAX} distinct tickers; got ${tickers.length}.`);
  }
  const facts = tickers.map((t) => ctx.store.facts(t));
  const unknown = tickers.filter((_, i) => !facts[i]);
  if (unknown.length > 0) throw notFound(`Unknown ticker${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`);
  const { meta } = ctx.store;
  const names = helpersOf(ctx.store).sourceNames;
  const body: CompareResponse = withEnvelope(meta, {
    data: facts.map((f) => {
      const { ok: _ok, generated_at: _g, methodology_version: _m, dataset_snapshot_id: _d, data_asof: _a, ...view } = canonicalView(meta, f!, names, sections);
      return { ...view, company: companySummary(meta, f!.company) };
    }),
  });
  sendJson(ctx.req, ctx.res, body);
}

import type { CompareResponse } from '../../src/contract/compare.js';
import type { InputOf } from '../../src/contract/routes.js';
import type { CanonicalSection } from '../../src/contract/vocabulary.js';
import type { SnapshotStore } from '../../src/snapshot/store.js';
import { compareView } from '../../src/views/compare.js';
import { sourceNames, type RouteContext } from './context.js';
import { unknownTickers } from '../../src/contract/named-errors.js';
import { sendJson } from '../kit/http.js';

/** The comparison of 2–5 companies: the body of the route below and of the MCP tool. */
export function compareBody(store: SnapshotStore, tickers: readonly string[], fields?: ReadonlySet<CanonicalSection>): CompareResponse {
  const facts = tickers.map((t) => store.facts(t));
  const unknown = tickers.filter((_, i) => !facts[i]);
  if (unknown.length > 0) throw unknownTickers(unknown);
  return compareView(
    store.meta,
    facts.map((f) => f!),
    sourceNames(store),
    fields,
  );
}

/** GET /compare?tickers=…[&fields=…] (contract 4.4). */
export function compare({ query }: InputOf<'compare'>, ctx: RouteContext): void {
  const { tickers, fields } = query;
  sendJson(ctx.req, ctx.res, compareBody(ctx.store, tickers, fields));
}

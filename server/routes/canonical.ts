import type { CanonicalView } from '../../src/contract/canonical.js';
import type { InputOf } from '../../src/contract/routes.js';
import type { CanonicalSection } from '../../src/contract/vocabulary.js';
import type { SnapshotStore } from '../../src/snapshot/store.js';
import { canonicalView } from '../../src/views/canonical.js';
import { sourceNames, type RouteContext } from './context.js';
import { unknownTickers } from '../../src/contract/named-errors.js';
import { sendJson } from '../kit/http.js';

/** A company's canonical view, some sections or all: the body of the route below and of the MCP tool. */
export function canonicalBody(store: SnapshotStore, ticker: string, fields?: ReadonlySet<CanonicalSection>): CanonicalView {
  const facts = store.facts(ticker);
  if (!facts) throw unknownTickers([ticker]);
  return canonicalView(store.meta, facts, sourceNames(store), fields);
}

/** GET /company/{ticker}/canonical?fields=… (contract 4.1). */
export function canonicalWithFields({ params, query }: InputOf<'canonical'>, ctx: RouteContext): void {
  sendJson(ctx.req, ctx.res, canonicalBody(ctx.store, params.ticker, query.fields));
}

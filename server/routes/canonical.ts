import { parseQuery } from '../../src/contract/parse-request.js';
import type { CanonicalView } from '../../src/contract/canonical.js';
import { canonicalQuerySchema } from '../../src/contract/queries.js';
import type { CanonicalSection } from '../../src/contract/vocabulary.js';
import type { SnapshotStore } from '../../src/snapshot/store.js';
import { canonicalView } from '../../src/views/canonical.js';
import { sourceNames, type RouteContext } from './context.js';
import { notFound } from '../../src/contract/errors.js';
import { sendJson } from '../kit/http.js';

/** A company's canonical view, some sections or all: the body of the route below and of the MCP tool. */
export function canonicalBody(store: SnapshotStore, ticker: string, fields?: ReadonlySet<CanonicalSection>): CanonicalView {
  const facts = store.facts(ticker);
  if (!facts) throw notFound(`Unknown ticker: ${ticker}`);
  return canonicalView(store.meta, facts, sourceNames(store), fields);
}

/** GET /company/{ticker}/canonical?fields=… (contract 4.1). */
export function canonicalWithFields(ctx: RouteContext): void {
  const { fields } = parseQuery(canonicalQuerySchema, ctx.rawQuery, '/company/{ticker}/canonical');
  sendJson(ctx.req, ctx.res, canonicalBody(ctx.store, ctx.params.ticker!, fields));
}

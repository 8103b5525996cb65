import { createHash } from 'node:crypto';
import type { RankingQuery } from '../../src/contract/queries.js';
import type { InputOf } from '../../src/contract/routes.js';
import type { RankingResponse } from '../../src/contract/ranking.js';
import type { RankingFilter } from '../../src/snapshot/ranking-index.js';
import type { SnapshotStore } from '../../src/snapshot/store.js';
import { rankingCsvFilename, rankingCsvHeader, rankingCsvLine } from '../../src/views/ranking-csv.js';
import { rankingView } from '../../src/views/ranking.js';
import { rankingIndex, type RouteContext } from './context.js';
import { cacheControlFor, matches, sendJson } from '../kit/http.js';

const filterOf = (q: Omit<RankingQuery, 'format'>): RankingFilter => ({
  industry: q.industry,
  assuranceLevel: q.assurance_level,
  marketType: q.market_type,
  gf: q.gf,
  q: q.q,
});

/** One page of a filtered ranking as JSON (the CSV export aside): the body of the route below and of the MCP tool. */
export function rankingBody(store: SnapshotStore, query: Omit<RankingQuery, 'format'>): RankingResponse {
  const { limit, page, mode } = query;
  const { rows, total } = rankingIndex(store).page(filterOf(query), query.sort, limit, (page - 1) * limit);
  const meta = store.meta;
  return mode === 'full'
    ? rankingView(meta, { mode, rows: rows.map((r) => store.company(r.ticker)!), total, page, perPage: limit })
    : rankingView(meta, { mode, rows, total, page, perPage: limit });
}

/** GET /ranking with a query (contract 4.2): filters, paging, modes, CSV. */
export async function rankingQuery({ query }: InputOf<'ranking'>, ctx: RouteContext): Promise<void> {
  if (query.format === 'csv') return rankingCsv(ctx, filterOf(query), query);
  sendJson(ctx.req, ctx.res, rankingBody(ctx.store, query));
}

/**
 * CSV export: every matching row (page and limit ignored), streamed with backpressure. The body is a
 * pure function of (snapshot, filter, sort), so its ETag is a hash of those and a 304 costs no query.
 */
async function rankingCsv(ctx: RouteContext, filter: RankingFilter, query: RankingQuery): Promise<void> {
  const { req, res, store } = ctx;
  const meta = store.meta;
  const etag = `"csv-${createHash('sha1')
    .update(JSON.stringify([meta.dataset_snapshot_id, filter, query.sort]))
    .digest('base64url')}"`;
  res.status(200);
  res.setHeader('Content-Type', 'text/csv; charset=utf-8');
  res.setHeader('Content-Disposition', `attachment; filename="${rankingCsvFilename(meta)}"`);
  res.setHeader('Cache-Control', cacheControlFor(res));
  res.setHeader('ETag', etag);
  if (matches(req.headers['if-none-match'], etag)) {
    res.status(304).end();
    return;
  }
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  let chunk = rankingCsvHeader();
  let lines = 0;
  const flush = async () => {
    const ok = res.write(chunk);
    chunk = '';
    lines = 0;
    if (!ok && !res.destroyed)
      await new Promise<void>((resolve) => {
        res.once('drain', resolve);
        res.once('close', resolve);
      });
  };
  for (const ticker of rankingIndex(store).tickers(filter, query.sort)) {
    if (res.destroyed) return;
    chunk += rankingCsvLine(meta, store.company(ticker)!, store.conductSummary(ticker));
    if (++lines >= 500) await flush();
  }
  if (chunk !== '') await flush();
  res.end();
}

import { createHash } from 'node:crypto';
import type { RankingFilter, RankingSort } from '../../src/snapshot/ranking-index.js';
import { companySummary } from '../../src/views/company.js';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE, rankingView } from '../../src/views/ranking.js';
import { helpersOf, type RouteContext } from '../context.js';
import { badRequest } from '../errors.js';
import { CACHE_PUBLIC, matches, sendJson } from '../http.js';
import { oneOf, parseQuery, positiveInt, type Query } from '../query.js';

export const RANKING_PARAMS = ['limit', 'page', 'sort', 'industry', 'assurance_level', 'market_type', 'gf', 'q', 'mode', 'format'] as const;
const MAX_Q = 100;

function parseFilter(query: Query): RankingFilter {
  const filter: RankingFilter = {
    assuranceLevel: oneOf(query, 'assurance_level', ['none', 'limited', 'reasonable'] as const),
    marketType: oneOf(query, 'market_type', ['listed', 'otc'] as const),
  };
  const industry = query.get('industry');
  if (industry !== undefined) {
    if (industry === '') throw badRequest('Query parameter "industry" is empty; give a TWSE industry name in Chinese, e.g. 半導體業.');
    filter.industry = industry;
  }
  const gf = query.get('gf');
  if (gf !== undefined) {
    if (!/^GF-[A-Z0-9]+$/i.test(gf)) throw badRequest('Query parameter "gf" must look like GF- followed by letters or digits, e.g. GF-P01.');
    filter.gf = gf.toUpperCase();
  }
  const q = query.get('q');
  if (q !== undefined) {
    if ([...q].length > MAX_Q) throw badRequest(`Query parameter "q" is longer than ${MAX_Q} characters.`);
    // Control characters cannot occur in a name or code, and the search index separates fields with one.
    if (/\p{Cc}/u.test(q)) throw badRequest('Query parameter "q" must not contain control characters.');
    if (q !== '') filter.q = q;
  }
  return filter;
}

/** GET /ranking with a query (contract 4.2): filters, paging, modes, CSV. */
export async function rankingQuery(ctx: RouteContext): Promise<void> {
  const query = parseQuery(ctx.rawQuery, RANKING_PARAMS, '/ranking');
  const limit = positiveInt(query, 'limit', DEFAULT_PER_PAGE, MAX_PER_PAGE);
  const page = positiveInt(query, 'page', 1);
  const sort = oneOf(query, 'sort', ['score_desc', 'score_asc'] as const, 'score_desc')!;
  const mode = oneOf(query, 'mode', ['compact', 'full'] as const, 'compact')!;
  const format = oneOf(query, 'format', ['json', 'csv'] as const, 'json')!;
  const filter = parseFilter(query);
  if (format === 'csv') return rankingCsv(ctx, filter, sort);
  const { rows, total } = helpersOf(ctx.store).ranking.page(filter, sort, limit, (page - 1) * limit);
  const meta = ctx.store.meta;
  const body =
    mode === 'full'
      ? rankingView(meta, { mode, rows: rows.map((r) => ctx.store.company(r.ticker)!), total, page, perPage: limit })
      : rankingView(meta, { mode, rows, total, page, perPage: limit });
  sendJson(ctx.req, ctx.res, body);
}

export const CSV_COLUMNS = [
  'ticker', 'company_name', 'company_name_norm', 'market_type', 'industry', 'credibility_score', 'verdict', 'rank',
  'percentile', 'assurance_level', 'has_assurance', 'top_flags', 'top_signal_labels', 'carbon_fee_liable', 'cbam_exposed',
  'score_breakdown', 'citation',
] as const;

function csvCell(v: unknown): string {
  let s: string;
  if (Array.isArray(v)) {
    s = v.map((x) => (typeof x === 'object' && x !== null && 'component' in x ? `${x.component}:${x.points}/${x.max_points}` : String(x))).join('|');
  } else s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * CSV export: every matching row (page and limit ignored), mode=full columns, streamed with
 * backpressure. The body is a pure function of (snapshot, filter, sort), so its ETag is a hash of
 * those and a 304 costs no query.
 */
async function rankingCsv(ctx: RouteContext, filter: RankingFilter, sort: RankingSort): Promise<void> {
  const { req, res, store } = ctx;
  const meta = store.meta;
  const etag = `"csv-${createHash('sha1').update(JSON.stringify([meta.dataset_snapshot_id, filter, sort])).digest('base64url')}"`;
  res.status(200);
  res.setHeader('Content-Type', 'text/csv; charset=utf-8');
  res.setHeader('Content-Disposition', `attachment; filename="ranking-${meta.dataset_snapshot_id}.csv"`);
  res.setHeader('Cache-Control', CACHE_PUBLIC);
  res.setHeader('ETag', etag);
  if (matches(req.headers['if-none-match'], etag)) {
    res.status(304).end();
    return;
  }
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  const lines: string[] = [CSV_COLUMNS.join(',')];
  const flush = async () => {
    if (lines.length === 0) return;
    const ok = res.write(`${lines.join('\n')}\n`);
    lines.length = 0;
    if (!ok && !res.destroyed) await new Promise<void>((resolve) => { res.once('drain', resolve); res.once('close', resolve); });
  };
  for (const ticker of helpersOf(store).ranking.tickers(filter, sort)) {
    if (res.destroyed) return;
    const s = companySummary(meta, store.company(ticker)!);
    lines.push(CSV_COLUMNS.map((k) => csvCell(s[k])).join(','));
    if (lines.length >= 500) await flush();
  }
  await flush();
  res.end();
}

import type { RankingResponse } from '../contract/ranking.js';
import type { SnapshotMeta } from '../snapshot/schema.js';
import type { CompanyRecord, RankedCompany } from '../snapshot/rows.js';
import { companySummary } from './company.js';
import { withEnvelope } from './envelope.js';

/**
 * One page of a ranking (contract 4.2), from the page's rows and the filtered total. Both the tree
 * writer (slicing one ordered pass) and the shim (a page of the in-memory ranking index) call this
 * with the same inputs.
 */
export function rankingView(
  meta: SnapshotMeta,
  page: { total: number; page: number; perPage: number } & ({ mode: 'compact'; rows: RankedCompany[] } | { mode: 'full'; rows: CompanyRecord[] }),
): RankingResponse {
  return withEnvelope(meta, {
    data:
      page.mode === 'full'
        ? page.rows.map((c) => companySummary(meta, c))
        : page.rows.map((c) => ({
            ticker: c.ticker,
            company_name: c.company_name,
            credibility_score: c.credibility_score,
            verdict: c.verdict,
            rank: c.rank,
          })),
    meta: pageMeta(meta, page),
  });
}

/** Contract 4.2 `meta` of a page, shared by every paged list (rankings, changes). */
export function pageMeta(meta: SnapshotMeta, page: { total: number; page: number; perPage: number }) {
  const pageCount = Math.ceil(page.total / page.perPage);
  return {
    total: page.total,
    page: page.page,
    per_page: page.perPage,
    page_count: pageCount,
    has_prev: page.page > 1,
    has_next: page.page < pageCount,
    methodology_version: meta.methodology_version,
  };
}

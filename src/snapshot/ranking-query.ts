import type { Statement } from 'better-sqlite3';
import { decode, type CompanyRecord, type SnapshotStore } from './store.js';

export interface RankingFilter {
  industry?: string;
  assuranceLevel?: 'none' | 'limited' | 'reasonable';
  marketType?: 'listed' | 'otc';
  /** Flag id, upper case. */
  gf?: string;
  /** Case-insensitive substring of ticker, company_name or company_name_norm. */
  q?: string;
}
export type RankingSort = 'score_desc' | 'score_asc';

/** Shortest query the trigram index can answer; shorter ones scan the (already filtered) rows. */
const TRIGRAM = 3;

function whereClause(f: RankingFilter): { sql: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  if (f.industry !== undefined) clauses.push('industry = ?') && params.push(f.industry);
  if (f.assuranceLevel !== undefined) clauses.push('assurance_level = ?') && params.push(f.assuranceLevel);
  if (f.marketType !== undefined) clauses.push('market_type = ?') && params.push(f.marketType);
  if (f.gf !== undefined) clauses.push('ticker IN (SELECT ticker FROM flags WHERE flag_id = ?)') && params.push(f.gf);
  if (f.q !== undefined && f.q !== '') {
    const q = f.q.toLowerCase();
    if ([...q].length >= TRIGRAM) {
      clauses.push('id IN (SELECT rowid FROM company_search WHERE company_search MATCH ?)');
      params.push(`"${q.replace(/"/g, '""')}"`);
    } else {
      clauses.push('(instr(lower(ticker), ?) > 0 OR instr(lower(company_name), ?) > 0 OR instr(lower(company_name_norm), ?) > 0)');
      params.push(q, q, q);
    }
  }
  return { sql: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

const ORDER: Record<RankingSort, string> = {
  score_desc: 'ORDER BY credibility_score DESC, ticker ASC',
  score_asc: 'ORDER BY credibility_score ASC, ticker ASC',
};

/**
 * Filtered rankings over the snapshot (contract 4.2). Ranks are the stored global ranks; filters
 * never renumber them. Statements are prepared once per distinct shape and reused.
 */
export class RankingQueries {
  private readonly prepared = new Map<string, Statement<unknown[]>>();
  constructor(private readonly store: SnapshotStore) {}

  private stmt(sql: string) {
    let s = this.prepared.get(sql);
    if (!s) {
      s = this.store.db.prepare(sql);
      this.prepared.set(sql, s);
    }
    return s;
  }

  page(filter: RankingFilter, sort: RankingSort, limit: number, offset: number): { rows: CompanyRecord[]; total: number } {
    const where = whereClause(filter);
    const total = this.stmt(`SELECT COUNT(*) FROM companies ${where.sql}`).pluck().get(...where.params) as number;
    const rows =
      offset >= total
        ? []
        : (this.stmt(`SELECT * FROM companies ${where.sql} ${ORDER[sort]} LIMIT ? OFFSET ?`).all(...where.params, limit, offset) as Record<string, unknown>[]);
    return { rows: rows.map((r) => decode<CompanyRecord>(r)), total };
  }

  /** Every matching company in order, one at a time (for CSV export). */
  *all(filter: RankingFilter, sort: RankingSort): Generator<CompanyRecord> {
    const where = whereClause(filter);
    for (const r of this.stmt(`SELECT * FROM companies ${where.sql} ${ORDER[sort]}`).iterate(...where.params) as Iterable<Record<string, unknown>>) {
      yield decode<CompanyRecord>(r);
    }
  }
}

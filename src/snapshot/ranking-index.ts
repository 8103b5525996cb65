import type { CompanyRecord, SnapshotStore } from './store.js';

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

/** The five fields of a compact ranking entry, kept in memory for every company. */
export interface RankedCompany {
  ticker: string;
  company_name: string;
  credibility_score: number;
  verdict: CompanyRecord['verdict'];
  rank: number;
}

type Postings = Uint32Array;

/** Grams of length 1 and 2 of a lower-cased text (code points, so Chinese is handled). */
function grams(text: string): Set<string> {
  const chars = [...text];
  const out = new Set<string>(chars);
  for (let i = 0; i + 1 < chars.length; i++) out.add(chars[i]! + chars[i + 1]!);
  return out;
}

/**
 * Filtered rankings in memory (contract 4.2), built once per snapshot. Companies are numbered by
 * their position in the default order (score descending, ticker ascending); every filter value
 * maps to the sorted list of positions that have it, and substring search uses postings of 1- and
 * 2-character grams, verified against the text. A query walks the shortest list that applies and
 * checks the other filters per position, so its cost follows the smallest matching set, not the
 * market. (SQLite with indexes took ~100 ms for broad filters and short Chinese substrings at 100k
 * companies; this takes well under a millisecond.)
 */
export class RankingIndex {
  readonly size: number;
  private readonly entries: RankedCompany[];
  private readonly searchText: string[];
  private readonly industry: string[];
  private readonly market: string[];
  private readonly assurance: string[];
  private readonly flags: Set<string>[];
  private readonly byValue = new Map<string, Postings>();
  private readonly byGram = new Map<string, Postings>();

  constructor(rows: Iterable<CompanyRecord & { flag_ids: string[] }>) {
    this.entries = [];
    this.searchText = [];
    this.industry = [];
    this.market = [];
    this.assurance = [];
    this.flags = [];
    const values = new Map<string, number[]>();
    const gramLists = new Map<string, number[]>();
    const add = (map: Map<string, number[]>, key: string, pos: number) => {
      const list = map.get(key);
      if (list) list.push(pos);
      else map.set(key, [pos]);
    };
    let pos = 0;
    for (const c of rows) {
      this.entries.push({ ticker: c.ticker, company_name: c.company_name, credibility_score: c.credibility_score, verdict: c.verdict, rank: c.rank });
      // Newlines separate the fields so a query cannot match across two of them.
      const text = `${c.ticker}\n${c.company_name}\n${c.company_name_norm}`.toLowerCase();
      this.searchText.push(text);
      this.industry.push(c.industry);
      this.market.push(c.market_type);
      this.assurance.push(c.assurance_level);
      this.flags.push(new Set(c.flag_ids));
      add(values, `industry:${c.industry}`, pos);
      add(values, `market:${c.market_type}`, pos);
      add(values, `assurance:${c.assurance_level}`, pos);
      for (const f of c.flag_ids) add(values, `gf:${f}`, pos);
      for (const g of grams(text)) if (!g.includes('\n')) add(gramLists, g, pos);
      pos++;
    }
    this.size = pos;
    for (const [k, v] of values) this.byValue.set(k, Uint32Array.from(v));
    for (const [k, v] of gramLists) this.byGram.set(k, Uint32Array.from(v));
  }

  /** Reads the companies in default order with their flag ids. */
  static fromStore(store: SnapshotStore): RankingIndex {
    return new RankingIndex(store.rankedCompaniesWithFlags());
  }

  /** Positions matching the filter, in default order (score descending, ticker ascending). */
  private matching(f: RankingFilter): number[] | null {
    const q = f.q?.toLowerCase();
    const lists: (Postings | undefined)[] = [];
    if (f.industry !== undefined) lists.push(this.byValue.get(`industry:${f.industry}`));
    if (f.marketType !== undefined) lists.push(this.byValue.get(`market:${f.marketType}`));
    if (f.assuranceLevel !== undefined) lists.push(this.byValue.get(`assurance:${f.assuranceLevel}`));
    if (f.gf !== undefined) lists.push(this.byValue.get(`gf:${f.gf}`));
    if (q) {
      const qGrams = [...grams(q)].filter((g) => [...g].length === Math.min(2, [...q].length));
      for (const g of qGrams) lists.push(this.byGram.get(g));
    }
    if (lists.some((l) => l === undefined)) return [];
    if (lists.length === 0) return null; // everything
    const shortest = (lists as Postings[]).reduce((a, b) => (b.length < a.length ? b : a));
    const out: number[] = [];
    for (const pos of shortest) {
      if (f.industry !== undefined && this.industry[pos] !== f.industry) continue;
      if (f.marketType !== undefined && this.market[pos] !== f.marketType) continue;
      if (f.assuranceLevel !== undefined && this.assurance[pos] !== f.assuranceLevel) continue;
      if (f.gf !== undefined && !this.flags[pos]!.has(f.gf)) continue;
      if (q && !this.searchText[pos]!.includes(q)) continue;
      out.push(pos);
    }
    return out;
  }

  /**
   * Every matching company, in the requested order. score_asc is score ascending with ticker still
   * ascending inside a score, so it reverses the order of score groups, not of companies.
   */
  private ordered(f: RankingFilter, sort: RankingSort): { positions: ArrayLike<number>; at: (i: number) => number } {
    const m = this.matching(f);
    const positions: ArrayLike<number> = m ?? { length: this.size };
    const get = m ? (i: number) => m[i]! : (i: number) => i;
    if (sort === 'score_desc') return { positions, at: get };
    const asc: number[] = [];
    let end = positions.length;
    while (end > 0) {
      const score = this.entries[get(end - 1)]!.credibility_score;
      let start = end - 1;
      while (start > 0 && this.entries[get(start - 1)]!.credibility_score === score) start--;
      for (let i = start; i < end; i++) asc.push(get(i));
      end = start;
    }
    return { positions: asc, at: (i) => asc[i]! };
  }

  page(f: RankingFilter, sort: RankingSort, limit: number, offset: number): { rows: RankedCompany[]; total: number } {
    const { positions, at } = this.ordered(f, sort);
    const rows: RankedCompany[] = [];
    for (let i = offset; i < Math.min(positions.length, offset + limit); i++) rows.push(this.entries[at(i)]!);
    return { rows, total: positions.length };
  }

  /** Tickers of every match in order (CSV export). */
  tickers(f: RankingFilter, sort: RankingSort): string[] {
    const { positions, at } = this.ordered(f, sort);
    return Array.from({ length: positions.length }, (_, i) => this.entries[at(i)]!.ticker);
  }
}

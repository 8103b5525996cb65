import { Lru } from '../lru.js';
import type { CompanyRecord, IndexedCompany, SnapshotStore } from './store.js';

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

/** Grams of length 1 and 2 of a lower-cased text (code points, so Chinese is handled). */
function grams(text: string): Set<string> {
  const chars = [...text];
  const out = new Set<string>(chars);
  for (let i = 0; i + 1 < chars.length; i++) out.add(chars[i]! + chars[i + 1]!);
  return out;
}

/** Interns category values as small integers so each company costs one byte per category. */
class Codes {
  private readonly ids = new Map<string, number>();
  id(value: string): number {
    let id = this.ids.get(value);
    if (id === undefined) this.ids.set(value, (id = this.ids.size));
    return id;
  }
  find(value: string): number | undefined {
    return this.ids.get(value);
  }
  get size(): number {
    return this.ids.size;
  }
}

/** Results of recent filters (positions in default order), bounded in total positions kept. */
const CACHE_POSITIONS = 2_000_000;

/**
 * Filtered rankings in memory (contract 4.2), built once per snapshot. Companies are numbered by
 * their position in the default order (score descending, ticker ascending). Every filter value has
 * the sorted list of positions that carry it, and substring search has postings of 1- and
 * 2-character grams (exact for a 1–2 character query, verified against the text for longer ones).
 * A query walks the shortest list that applies and checks the other filters per position, so its
 * cost follows the smallest matching set, not the market. SQLite with indexes and FTS5 took about
 * 100 ms at 100k companies for broad filters and short Chinese substrings; this takes well under one.
 */
export class RankingIndex {
  readonly size: number;
  private readonly entries: RankedCompany[] = [];
  private readonly scores: Uint8Array;
  private readonly searchText: string[] = [];
  private readonly industry: Uint8Array;
  private readonly market: Uint8Array;
  private readonly assurance: Uint8Array;
  private readonly flagBits: Uint32Array;
  private readonly codes = { industry: new Codes(), market: new Codes(), assurance: new Codes(), flag: new Codes() };
  private readonly postings = new Map<string, Uint32Array>();
  private readonly cache = new Lru<Uint32Array>(CACHE_POSITIONS, (r) => r.length + 1);

  constructor(rows: IndexedCompany[]) {
    const n = rows.length;
    this.size = n;
    this.scores = new Uint8Array(n);
    this.industry = new Uint8Array(n);
    this.market = new Uint8Array(n);
    this.assurance = new Uint8Array(n);
    this.flagBits = new Uint32Array(n);
    // Two passes over the keys (count, then fill typed arrays) keep the build's peak memory low.
    const keysOf = (c: IndexedCompany, text: string) => {
      const keys = [`i:${c.industry}`, `m:${c.market_type}`, `a:${c.assurance_level}`, ...c.flag_ids.map((f) => `f:${f}`)];
      for (const g of grams(text)) if (!g.includes('\n')) keys.push(`g:${g}`);
      return keys;
    };
    const counts = new Map<string, number>();
    rows.forEach((c, pos) => {
      this.entries.push({ ticker: c.ticker, company_name: c.company_name, credibility_score: c.credibility_score, verdict: c.verdict, rank: c.rank });
      this.scores[pos] = c.credibility_score;
      this.industry[pos] = this.codes.industry.id(c.industry);
      this.market[pos] = this.codes.market.id(c.market_type);
      this.assurance[pos] = this.codes.assurance.id(c.assurance_level);
      for (const f of c.flag_ids) this.flagBits[pos]! |= 1 << this.codes.flag.id(f);
      // Newlines separate the fields so a query cannot match across two of them.
      const text = `${c.ticker}\n${c.company_name}\n${c.company_name_norm}`.toLowerCase();
      this.searchText.push(text);
      for (const k of keysOf(c, text)) counts.set(k, (counts.get(k) ?? 0) + 1);
    });
    // Flags are bits of a 32-bit mask; bit 31 is kept free for "a flag id no company has".
    if (this.codes.flag.size > 31) throw new Error('more than 31 distinct flag ids');
    const filled = new Map<string, number>();
    for (const [k, n] of counts) {
      this.postings.set(k, new Uint32Array(n));
      filled.set(k, 0);
    }
    rows.forEach((c, pos) => {
      for (const k of keysOf(c, this.searchText[pos]!)) {
        const at = filled.get(k)!;
        this.postings.get(k)![at] = pos;
        filled.set(k, at + 1);
      }
    });
  }

  static fromStore(store: SnapshotStore): RankingIndex {
    return new RankingIndex([...store.rankedCompaniesWithFlags()]);
  }

  /** Positions matching a filter, in default order; null when the filter selects everything. */
  private matching(f: RankingFilter): Uint32Array | null {
    const q = f.q?.toLowerCase() || undefined;
    const lists: (Uint32Array | undefined)[] = [];
    if (f.industry !== undefined) lists.push(this.postings.get(`i:${f.industry}`));
    if (f.marketType !== undefined) lists.push(this.postings.get(`m:${f.marketType}`));
    if (f.assuranceLevel !== undefined) lists.push(this.postings.get(`a:${f.assuranceLevel}`));
    if (f.gf !== undefined) lists.push(this.postings.get(`f:${f.gf}`));
    const qChars = q ? [...q] : [];
    if (q) {
      const wanted = Math.min(2, qChars.length);
      for (const g of grams(q)) if ([...g].length === wanted) lists.push(this.postings.get(`g:${g}`));
    }
    if (lists.length === 0) return null;
    if (lists.some((l) => l === undefined)) return new Uint32Array(0);

    const key = JSON.stringify([f.industry, f.marketType, f.assuranceLevel, f.gf, q]);
    const cached = this.cache.get(key);
    if (cached) return cached;
    const industry = f.industry === undefined ? -1 : (this.codes.industry.find(f.industry) ?? -2);
    const market = f.marketType === undefined ? -1 : (this.codes.market.find(f.marketType) ?? -2);
    const assurance = f.assuranceLevel === undefined ? -1 : (this.codes.assurance.find(f.assuranceLevel) ?? -2);
    const flagBit = f.gf === undefined ? 0 : 1 << (this.codes.flag.find(f.gf) ?? 31);
    const verifyText = q !== undefined && qChars.length > 2;
    const shortest = (lists as Uint32Array[]).reduce((a, b) => (b.length < a.length ? b : a));
    const out = new Uint32Array(shortest.length);
    let count = 0;
    for (const pos of shortest) {
      if (industry !== -1 && this.industry[pos] !== industry) continue;
      if (market !== -1 && this.market[pos] !== market) continue;
      if (assurance !== -1 && this.assurance[pos] !== assurance) continue;
      if (flagBit !== 0 && (this.flagBits[pos]! & flagBit) === 0) continue;
      if (verifyText && !this.searchText[pos]!.includes(q!)) continue;
      if (lists.length > 1 && q && !verifyText && !this.hasGram(pos, q, shortest)) continue;
      out[count++] = pos;
    }
    const result = out.slice(0, count);
    this.cache.set(key, result);
    return result;
  }

  /** For a 1–2 character query whose own postings were not the list walked: is it in the text? */
  private hasGram(pos: number, q: string, walked: Uint32Array): boolean {
    return walked === this.postings.get(`g:${q}`) || this.searchText[pos]!.includes(q);
  }

  /**
   * One page in the requested order. score_asc is score ascending with ticker still ascending
   * inside a score, so it walks score groups from the end of the default order, each group forwards.
   */
  page(f: RankingFilter, sort: RankingSort, limit: number, offset: number): { rows: RankedCompany[]; total: number } {
    const m = this.matching(f);
    const total = m ? m.length : this.size;
    const at = m ? (i: number) => m[i]! : (i: number) => i;
    const rows: RankedCompany[] = [];
    if (sort === 'score_desc') {
      for (let i = offset; i < Math.min(total, offset + limit); i++) rows.push(this.entries[at(i)]!);
      return { rows, total };
    }
    let seen = 0;
    let end = total;
    while (end > 0 && rows.length < limit) {
      const start = this.groupStart(at, end);
      const size = end - start;
      if (seen + size > offset) {
        for (let i = start + Math.max(0, offset - seen); i < end && rows.length < limit; i++) rows.push(this.entries[at(i)]!);
      }
      seen += size;
      end = start;
    }
    return { rows, total };
  }

  /** First index of the run of equal scores that ends at end − 1 (scores never increase along the order). */
  private groupStart(at: (i: number) => number, end: number): number {
    const score = this.scores[at(end - 1)]!;
    let lo = 0;
    let hi = end - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.scores[at(mid)]! > score) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Tickers of every match in order (CSV export). */
  tickers(f: RankingFilter, sort: RankingSort): string[] {
    return this.page(f, sort, Number.MAX_SAFE_INTEGER, 0).rows.map((r) => r.ticker);
  }
}

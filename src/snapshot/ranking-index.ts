import { Lru } from '../lru.js';
import type { CompanyRecord, RankedCompany } from './rows.js';
import type { IndexedCompany, SnapshotStore } from './store.js';
import type { AssuranceLevel, MarketType, RankingSort } from '../contract/vocabulary.js';

export interface RankingFilter {
  industry?: string;
  assuranceLevel?: AssuranceLevel;
  marketType?: MarketType;
  /** Flag id, upper case. */
  gf?: string;
  /** Case-insensitive substring of ticker, company_name or company_name_norm. */
  q?: string;
}
export type { RankingSort };

/** Calls `visit` with each distinct gram of length 1 and 2 of a lower-cased text (by code point). */
function forEachGram(text: string, visit: (gram: string) => void): void {
  const chars = Array.from(text);
  const seen = new Set<string>();
  for (let i = 0; i < chars.length; i++) {
    const one = chars[i]!;
    const two = i + 1 < chars.length ? one + chars[i + 1]! : null;
    for (const g of two ? [one, two] : [one]) {
      if (!seen.has(g) && !g.includes('\n')) {
        seen.add(g);
        visit(g);
      }
    }
  }
}

/**
 * Many short strings kept as one string and offsets: a hundred thousand names are then two heap
 * objects instead of a hundred thousand, which keeps garbage collection pauses short.
 */
class PackedStrings {
  private parts: string[] | null = [];
  private text = '';
  private offsets = new Uint32Array(0);
  push(s: string): void {
    this.parts!.push(s);
  }
  finish(): void {
    const parts = this.parts!;
    this.offsets = new Uint32Array(parts.length + 1);
    let at = 0;
    parts.forEach((p, i) => {
      this.offsets[i] = at;
      at += p.length;
    });
    this.offsets[parts.length] = at;
    this.text = parts.join('');
    this.parts = null;
  }
  get(i: number): string {
    return this.text.slice(this.offsets[i], this.offsets[i + 1]);
  }
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
  /** The values, indexed by their ids. */
  values(): string[] {
    return [...this.ids.keys()];
  }
}

/** Grams found in more than this share of companies get no posting list. */
const COMMON_GRAM = 0.2;

/** Results of recent filters (positions in default order), bounded in total positions kept. */
const CACHE_POSITIONS = 2_000_000;

/**
 * Filtered rankings in memory (contract 4.2), built once per snapshot. Companies are numbered by
 * their position in the default order (score descending, ticker ascending). Every filter value has
 * the sorted list of positions that carry it, and substring search has postings of 1- and
 * 2-character grams (exact for a 1–2 character query, verified against the text for longer ones).
 * A query walks the shortest list that applies and checks the other filters per position, so its
 * cost follows the smallest matching set, not the market. SQLite with indexes and FTS5 were far slower
 * for broad filters and short Chinese substrings at 100k companies (bench/results.md).
 */
export class RankingIndex {
  readonly size: number;
  private readonly tickerOf = new PackedStrings();
  private readonly names = new PackedStrings();
  private readonly verdicts: Uint8Array;
  private readonly ranks: Uint32Array;
  private readonly scores: Uint8Array;
  private readonly searchText = new PackedStrings();
  private readonly industry: Uint8Array;
  private readonly market: Uint8Array;
  private readonly assurance: Uint8Array;
  private readonly flagBits: Uint32Array;
  private readonly codes = { industry: new Codes(), market: new Codes(), assurance: new Codes(), flag: new Codes(), verdict: new Codes() };
  private readonly verdictOf: CompanyRecord['verdict'][];
  private readonly postings = new Map<string, Uint32Array>();
  /** Grams so common they have no list (a query containing one is verified against the text). */
  private readonly commonGrams = new Set<string>();
  private readonly cache = new Lru<Uint32Array>(CACHE_POSITIONS, (r) => r.length + 1);

  /**
   * Built from two passes over the companies in default order (count the postings, then fill typed
   * arrays), streaming rows instead of holding them: the build's peak memory is what the server's
   * resident size keeps.
   */
  constructor(rows: () => Iterable<IndexedCompany>) {
    const industry: number[] = [];
    const market: number[] = [];
    const assurance: number[] = [];
    const flagBits: number[] = [];
    const scores: number[] = [];
    const verdicts: number[] = [];
    const ranks: number[] = [];
    const counts = new Map<string, number>();
    const count = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
    for (const c of rows()) {
      this.tickerOf.push(c.ticker);
      this.names.push(c.company_name);
      verdicts.push(this.codes.verdict.id(c.verdict));
      ranks.push(c.rank);
      scores.push(c.credibility_score);
      industry.push(this.codes.industry.id(c.industry));
      market.push(this.codes.market.id(c.market_type));
      assurance.push(this.codes.assurance.id(c.assurance_level));
      flagBits.push(c.flag_ids.reduce((bits, f) => bits | (1 << this.codes.flag.id(f)), 0));
      // Newlines separate the fields so a query cannot match across two of them.
      const text = `${c.ticker}\n${c.company_name}\n${c.company_name_norm}`.toLowerCase();
      this.searchText.push(text);
      this.keysOf(c, text, count);
    }
    // Flags are bits of a 32-bit mask; bit 31 is kept free for "a flag id no company has".
    if (this.codes.flag.size > 31) throw new Error('more than 31 distinct flag ids');
    this.size = scores.length;
    for (const packed of [this.tickerOf, this.names, this.searchText]) packed.finish();
    this.verdicts = Uint8Array.from(verdicts);
    this.ranks = Uint32Array.from(ranks);
    this.verdictOf = this.codes.verdict.values() as CompanyRecord['verdict'][];
    this.scores = Uint8Array.from(scores);
    this.industry = Uint8Array.from(industry);
    this.market = Uint8Array.from(market);
    this.assurance = Uint8Array.from(assurance);
    this.flagBits = Uint32Array.from(flagBits);
    const filled = new Map<string, number>();
    for (const [k, n] of counts) {
      // A gram nearly every company has narrows nothing: keep no list, verify the text instead.
      if (k.startsWith('g:') && n > this.size * COMMON_GRAM) {
        this.commonGrams.add(k.slice(2));
        continue;
      }
      this.postings.set(k, new Uint32Array(n));
      filled.set(k, 0);
    }
    let pos = 0;
    for (const c of rows()) {
      const at = pos++;
      this.keysOf(c, this.searchText.get(at), (k) => {
        const i = filled.get(k);
        if (i === undefined) return;
        this.postings.get(k)![i] = at;
        filled.set(k, i + 1);
      });
    }
  }

  /** The posting-list keys of one company: its category values, flags and text grams. */
  private keysOf(c: IndexedCompany, text: string, visit: (key: string) => void): void {
    visit(`i:${c.industry}`);
    visit(`m:${c.market_type}`);
    visit(`a:${c.assurance_level}`);
    for (const f of c.flag_ids) visit(`f:${f}`);
    forEachGram(text, (g) => visit(`g:${g}`));
  }

  static fromStore(store: SnapshotStore): RankingIndex {
    return new RankingIndex(() => store.rankedCompaniesWithFlags());
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
      forEachGram(q, (g) => {
        if (Array.from(g).length !== wanted) return;
        if (this.postings.has(`g:${g}`)) lists.push(this.postings.get(`g:${g}`));
        else if (!this.commonGrams.has(g)) lists.push(undefined); // a gram no company has: no match
      });
    }
    if (lists.some((l) => l === undefined)) return new Uint32Array(0);
    if (lists.length === 0 && !q) return null;

    const key = JSON.stringify([f.industry, f.marketType, f.assuranceLevel, f.gf, q]);
    const cached = this.cache.get(key);
    if (cached) return cached;
    const industry = f.industry === undefined ? -1 : (this.codes.industry.find(f.industry) ?? -2);
    const market = f.marketType === undefined ? -1 : (this.codes.market.find(f.marketType) ?? -2);
    const assurance = f.assuranceLevel === undefined ? -1 : (this.codes.assurance.find(f.assuranceLevel) ?? -2);
    const flagBit = f.gf === undefined ? 0 : 1 << (this.codes.flag.find(f.gf) ?? 31);
    // Grams of 1–2 character queries are exact matches, unless the gram was too common to index.
    const verifyText = q !== undefined && (qChars.length > 2 || !this.postings.has(`g:${q}`));
    const shortest = lists.length > 0 ? (lists as Uint32Array[]).reduce((a, b) => (b.length < a.length ? b : a)) : this.allPositions();
    const out = new Uint32Array(shortest.length);
    let count = 0;
    for (const pos of shortest) {
      if (industry !== -1 && this.industry[pos] !== industry) continue;
      if (market !== -1 && this.market[pos] !== market) continue;
      if (assurance !== -1 && this.assurance[pos] !== assurance) continue;
      if (flagBit !== 0 && (this.flagBits[pos]! & flagBit) === 0) continue;
      if (q && (verifyText || shortest !== this.postings.get(`g:${q}`)) && !this.searchText.get(pos).includes(q)) continue;
      out[count++] = pos;
    }
    const result = out.slice(0, count);
    this.cache.set(key, result);
    return result;
  }

  /** Every position, for a query whose only constraint is a gram too common to index. */
  private allPositions(): Uint32Array {
    return Uint32Array.from({ length: this.size }, (_, i) => i);
  }

  private entry(pos: number): RankedCompany {
    return {
      ticker: this.tickerOf.get(pos),
      company_name: this.names.get(pos),
      credibility_score: this.scores[pos]!,
      verdict: this.verdictOf[this.verdicts[pos]!]!,
      rank: this.ranks[pos]!,
    };
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
      for (let i = offset; i < Math.min(total, offset + limit); i++) rows.push(this.entry(at(i)));
      return { rows, total };
    }
    let seen = 0;
    let end = total;
    while (end > 0 && rows.length < limit) {
      const start = this.groupStart(at, end);
      const size = end - start;
      if (seen + size > offset) {
        for (let i = start + Math.max(0, offset - seen); i < end && rows.length < limit; i++) rows.push(this.entry(at(i)));
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

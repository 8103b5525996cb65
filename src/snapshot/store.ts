import Database from 'better-sqlite3';
import { join } from 'node:path';
import { Lru } from '../lru.js';
import { BOOLEAN_COLUMNS, JSON_ARRAY_COLUMNS, type SnapshotMeta } from './schema.js';

/** A `companies` row, decoded. */
export interface CompanyRecord {
  id: number;
  ticker: string;
  company_name: string;
  company_name_norm: string;
  uniform_no: string;
  market_type: 'listed' | 'otc';
  industry_code: string;
  industry: string;
  source_id: string;
  cbam_exposed: boolean;
  credibility_score: number;
  verdict: 'credible' | 'decent' | 'questionable' | 'poor';
  rank: number;
  percentile: number;
  assurance_level: 'none' | 'limited' | 'reasonable';
  carbon_fee_liable: boolean;
  top_flags: string[];
  top_signal_labels: string[];
  score_breakdown: { component: 'disclosure' | 'assurance' | 'compliance' | 'consistency'; points: number; max_points: number; detail: string }[];
}

export interface PenaltyRecord {
  record_id: string; agency: string; agency_name: string; date: string; fine: number; serious: boolean;
  summary: string; source_id: string; source_url: string;
}
export interface DisclosureRecord {
  year: number; scope1: number | null; scope2: number | null; scope3: number | null; scope1_verified: boolean;
  scope2_verified: boolean; boundary: 'parent' | 'consolidated'; report_date: string; source_id: string; deep_link: string;
}
export interface CarbonFeeRecord { obligated: boolean; basis: string; registry_year: number | null; source_id: string; deep_link: string }
export interface AssuranceRecord { provider: string; level: 'limited' | 'reasonable'; year: number; source_id: string; deep_link: string }
export interface FlagRecord { flag_id: string; severity: 'critical' | 'warning' | 'info'; label: string; source_id: string }

/** The columns the ranking index keeps per company. */
export type IndexedCompany = Pick<
  CompanyRecord,
  'ticker' | 'company_name' | 'company_name_norm' | 'credibility_score' | 'verdict' | 'rank' | 'industry' | 'market_type' | 'assurance_level'
> & { flag_ids: string[] };

/** Everything the views need about one company. */
export interface CompanyFacts {
  company: CompanyRecord;
  penalties: PenaltyRecord[];
  disclosure: DisclosureRecord | null;
  carbonFee: CarbonFeeRecord;
  assurance: AssuranceRecord | null;
  flags: FlagRecord[];
}

export interface SourceRecord {
  source_id: string; name: string; owner_org: string; owner_org_name: string; is_government: boolean;
  licence_id: string; licence_name: string; licence_url: string; update_frequency: 'daily' | 'weekly' | 'monthly' | 'quarterly' | 'annual' | 'irregular';
  homepage_url: string; description: string; record_count: number; retrieved_at: string;
}
export interface EtfRecord {
  etf_code: string; etf_name: string; holdings_asof: string; total: number; covered: number;
  avg_score: number | null; min_score: number | null; assurance_coverage_pct: number | null; source_id: string;
}
export interface EtfHoldingRecord { ticker: string; name: string; weight: number }

type Row = Record<string, unknown>;


/** SQLite stores booleans as 0/1 and arrays as JSON text; decode them once here. */
export function decode<T>(row: Row): T {
  for (const key of Object.keys(row)) {
    if (BOOLEAN_COLUMNS.has(key)) row[key] = row[key] === 1;
    else if (JSON_ARRAY_COLUMNS.has(key)) row[key] = JSON.parse(row[key] as string);
  }
  return row as T;
}

/**
 * Read-only access to one published snapshot. Every query the views make lives here, prepared once.
 * Opening fails (throws) when the file is missing or is not a snapshot.
 */
export class SnapshotStore {
  readonly meta: SnapshotMeta;
  readonly db: Database.Database;
  /** Hot companies and their facts, decoded once (the shim asks for the same ones again and again). */
  private readonly companyCache = new Lru<CompanyRecord>(2_000);
  private readonly factsCache = new Lru<CompanyFacts>(1_000);
  private readonly stmt;

  private constructor(readonly dir: string) {
    this.db = new Database(join(dir, 'snapshot.sqlite'), { readonly: true, fileMustExist: true });
    const meta = Object.fromEntries(this.db.prepare('SELECT key, value FROM meta').raw().all() as [string, string][]);
    for (const key of ['dataset_snapshot_id', 'data_asof', 'methodology_version', 'kind', 'published_at']) {
      if (!(key in meta)) throw new Error(`snapshot in ${dir} lacks meta ${key}`);
    }
    this.meta = meta as unknown as SnapshotMeta;
    const p = (sql: string) => this.db.prepare(sql);
    this.stmt = {
      company: p('SELECT * FROM companies WHERE ticker = ?'),
      companies: p('SELECT * FROM companies ORDER BY ticker'),
      ranked: p('SELECT * FROM companies ORDER BY credibility_score DESC, ticker'),
      rankedWithFlags: p(`SELECT ticker, company_name, company_name_norm, credibility_score, verdict, rank, industry, market_type,
        assurance_level, (SELECT json_group_array(flag_id) FROM flags f WHERE f.ticker = c.ticker) AS flag_ids
        FROM companies c ORDER BY credibility_score DESC, ticker`),
      companyRange: p('SELECT * FROM companies WHERE ticker >= ? AND ticker < ? ORDER BY ticker'),
      penaltiesRange: p('SELECT ticker, record_id, agency, agency_name, date, fine, serious, summary, source_id, source_url FROM penalties WHERE ticker >= ? AND ticker < ? ORDER BY ticker, date DESC, record_id'),
      disclosureRange: p('SELECT * FROM carbon_disclosures WHERE ticker >= ? AND ticker < ? ORDER BY ticker'),
      carbonFeeRange: p('SELECT * FROM carbon_fees WHERE ticker >= ? AND ticker < ? ORDER BY ticker'),
      assuranceRange: p('SELECT * FROM assurances WHERE ticker >= ? AND ticker < ? ORDER BY ticker'),
      flagsRange: p('SELECT ticker, flag_id, severity, label, source_id FROM flags WHERE ticker >= ? AND ticker < ? ORDER BY ticker, position'),
      tickers: p('SELECT ticker FROM companies ORDER BY ticker'),
      firstTickers: p('SELECT ticker FROM companies ORDER BY ticker LIMIT ?'),
      penalties: p('SELECT record_id, agency, agency_name, date, fine, serious, summary, source_id, source_url FROM penalties WHERE ticker = ? ORDER BY date DESC, record_id'),
      disclosure: p('SELECT year, scope1, scope2, scope3, scope1_verified, scope2_verified, boundary, report_date, source_id, deep_link FROM carbon_disclosures WHERE ticker = ?'),
      carbonFee: p('SELECT obligated, basis, registry_year, source_id, deep_link FROM carbon_fees WHERE ticker = ?'),
      assurance: p('SELECT provider, level, year, source_id, deep_link FROM assurances WHERE ticker = ?'),
      flags: p('SELECT flag_id, severity, label, source_id FROM flags WHERE ticker = ? ORDER BY position'),
      sources: p('SELECT * FROM sources ORDER BY source_id'),
      etfs: p('SELECT * FROM etfs ORDER BY etf_code'),
      etf: p('SELECT * FROM etfs WHERE etf_code = ?'),
      holdings: p('SELECT ticker, name, weight FROM etf_holdings WHERE etf_code = ? ORDER BY position'),
      count: p('SELECT COUNT(*) FROM companies'),
      cbamProducts: p('SELECT ticker, sector, product FROM cbam_products ORDER BY ticker, sector'),
      penaltyCount: p('SELECT COUNT(*) FROM penalties'),
    };
  }

  static open(dir: string): SnapshotStore {
    return new SnapshotStore(dir);
  }

  close(): void {
    this.db.close();
  }

  company(ticker: string): CompanyRecord | undefined {
    const cached = this.companyCache.get(ticker);
    if (cached) return cached;
    const row = this.stmt.company.get(ticker) as Row | undefined;
    if (!row) return undefined;
    const company = decode<CompanyRecord>(row);
    this.companyCache.set(ticker, company);
    return company;
  }

  /** All companies, ordered by ticker (for the tree writer). */
  *companies(): Generator<CompanyRecord> {
    for (const row of this.stmt.companies.iterate() as Iterable<Row>) yield decode<CompanyRecord>(row);
  }

  /** Companies with from ≤ ticker < to, ordered by ticker (a tree worker's share). */
  *companiesBetween(from: string, to: string): Generator<CompanyRecord> {
    for (const row of this.stmt.companyRange.iterate(from, to) as Iterable<Row>) yield decode<CompanyRecord>(row);
  }

  /** Every company in the default ranking order: score descending, then ticker ascending. */
  rankedCompanies(): CompanyRecord[] {
    return (this.stmt.ranked.all() as Row[]).map((r) => decode<CompanyRecord>(r));
  }

  /** The default order with what the in-memory ranking index needs, flag ids included. */
  *rankedCompaniesWithFlags(): Generator<IndexedCompany> {
    for (const row of this.stmt.rankedWithFlags.iterate() as Iterable<Row>) {
      yield { ...(row as unknown as IndexedCompany), flag_ids: JSON.parse(row.flag_ids as string) as string[] };
    }
  }

  /**
   * The facts of every company with from ≤ ticker < to, in ticker order, from six range scans merged
   * by ticker: what factsOf gives one company at a time, for the tree writer's hundred thousand.
   */
  *factsBetween(from: string, to: string): Generator<CompanyFacts> {
    const s = this.stmt;
    const cursor = <T extends { ticker: string }>(rows: Iterable<Row>) => {
      const it = (rows as Iterable<T>)[Symbol.iterator]();
      let next = it.next();
      return (ticker: string): T[] => {
        const out: T[] = [];
        while (!next.done && next.value.ticker < ticker) next = it.next();
        while (!next.done && next.value.ticker === ticker) {
          out.push(next.value);
          next = it.next();
        }
        return out;
      };
    };
    const penalties = cursor<PenaltyRecord & { ticker: string }>(s.penaltiesRange.iterate(from, to) as Iterable<Row>);
    const disclosures = cursor<DisclosureRecord & { ticker: string }>(s.disclosureRange.iterate(from, to) as Iterable<Row>);
    const fees = cursor<CarbonFeeRecord & { ticker: string }>(s.carbonFeeRange.iterate(from, to) as Iterable<Row>);
    const assurances = cursor<AssuranceRecord & { ticker: string }>(s.assuranceRange.iterate(from, to) as Iterable<Row>);
    const flags = cursor<FlagRecord & { ticker: string }>(s.flagsRange.iterate(from, to) as Iterable<Row>);
    const strip = <T extends { ticker?: string }>(row: T): Omit<T, 'ticker'> => {
      delete row.ticker;
      return row;
    };
    for (const company of this.companiesBetween(from, to)) {
      const t = company.ticker;
      const disclosure = disclosures(t)[0];
      const assurance = assurances(t)[0];
      yield {
        company,
        penalties: penalties(t).map((r) => decode<PenaltyRecord>(strip(r))),
        disclosure: disclosure ? decode<DisclosureRecord>(strip(disclosure)) : null,
        carbonFee: decode<CarbonFeeRecord>(strip(fees(t)[0]!)),
        assurance: assurance ? decode<AssuranceRecord>(strip(assurance)) : null,
        flags: flags(t).map((r) => strip(r) as FlagRecord),
      };
    }
  }

  tickers(): string[] {
    return this.stmt.tickers.pluck().all() as string[];
  }

  /** The first n tickers in code order (examples for the index). */
  firstTickers(n: number): string[] {
    return this.stmt.firstTickers.pluck().all(n) as string[];
  }

  factsOf(company: CompanyRecord): CompanyFacts {
    const t = company.ticker;
    const disclosure = this.stmt.disclosure.get(t) as Row | undefined;
    const assurance = this.stmt.assurance.get(t) as Row | undefined;
    return {
      company,
      penalties: (this.stmt.penalties.all(t) as Row[]).map((r) => decode<PenaltyRecord>(r)),
      disclosure: disclosure ? decode<DisclosureRecord>(disclosure) : null,
      carbonFee: decode<CarbonFeeRecord>(this.stmt.carbonFee.get(t) as Row),
      assurance: assurance ? decode<AssuranceRecord>(assurance) : null,
      flags: this.stmt.flags.all(t) as FlagRecord[],
    };
  }

  facts(ticker: string): CompanyFacts | undefined {
    const cached = this.factsCache.get(ticker);
    if (cached) return cached;
    const company = this.company(ticker);
    if (!company) return undefined;
    const facts = this.factsOf(company);
    this.factsCache.set(ticker, facts);
    return facts;
  }

  companyCount(): number {
    return this.stmt.count.pluck().get() as number;
  }

  penaltyCount(): number {
    return this.stmt.penaltyCount.pluck().get() as number;
  }

  sources(): SourceRecord[] {
    return (this.stmt.sources.all() as Row[]).map((r) => decode<SourceRecord>(r));
  }

  etfs(): EtfRecord[] {
    return this.stmt.etfs.all() as EtfRecord[];
  }

  etf(code: string): { etf: EtfRecord; holdings: EtfHoldingRecord[] } | undefined {
    const etf = this.stmt.etf.get(code) as EtfRecord | undefined;
    return etf && { etf, holdings: this.stmt.holdings.all(code) as EtfHoldingRecord[] };
  }

  cbamProducts(): { ticker: string; sector: string; product: string }[] {
    return this.stmt.cbamProducts.all() as { ticker: string; sector: string; product: string }[];
  }
}

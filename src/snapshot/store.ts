import Database from 'better-sqlite3';
import { join } from 'node:path';
import { Lru } from '../lru.js';
import { checkFormat } from './format.js';
import {
  ASSURANCE,
  CARBON_FEE,
  COMPANY,
  CONDUCT,
  DISCLOSURE,
  ETF,
  FLAG,
  PENALTY,
  RANKED,
  SOURCE,
  SOURCE_FILE,
  type AssuranceRecord,
  type CarbonFeeRecord,
  type CompanyRecord,
  type ConductRecord,
  type DisclosureRecord,
  type EtfHoldingRecord,
  type EtfRecord,
  type FlagRecord,
  type PenaltyRecord,
  type RankedCompany,
  type Raw,
  type SourceRecord,
} from './rows.js';
import type { SnapshotMeta } from './schema.js';

export type {
  AssuranceRecord,
  CarbonFeeRecord,
  CompanyRecord,
  DisclosureRecord,
  EtfHoldingRecord,
  EtfRecord,
  FlagRecord,
  PenaltyRecord,
  RankedCompany,
  SourceFileRecord,
  SourceRecord,
} from './rows.js';

/** The columns the ranking index keeps per company. */
export type IndexedCompany = Pick<
  CompanyRecord,
  'ticker' | 'company_name' | 'company_name_norm' | 'credibility_score' | 'verdict' | 'rank' | 'industry' | 'market_type' | 'assurance_level'
> & { flag_ids: string[] };

/** A company's `disclosure_conduct` rows in brief (the ranking CSV's conduct columns). */
export interface ConductSummary {
  count: number;
  /** The newest row's date; null when it has none. */
  latest: string | null;
}

/** Everything the views need about one company. */
export interface CompanyFacts {
  company: CompanyRecord;
  penalties: PenaltyRecord[];
  /** Newest first (contract 3.2, `disclosure_conduct`). */
  conduct: ConductRecord[];
  disclosure: DisclosureRecord | null;
  carbonFee: CarbonFeeRecord;
  assurance: AssuranceRecord | null;
  flags: FlagRecord[];
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

  private constructor(
    readonly dir: string,
    db: Database.Database,
  ) {
    this.db = db;
    const meta = Object.fromEntries(this.db.prepare('SELECT key, value FROM meta').raw().all() as [string, string][]);
    // Another format's tables are not what the readers below select: refused before any is prepared.
    checkFormat(dir, meta.format_version);
    for (const key of ['dataset_snapshot_id', 'data_asof', 'methodology_version', 'kind', 'published_at']) {
      if (!(key in meta)) throw new Error(`snapshot in ${dir} lacks meta ${key}`);
    }
    this.meta = meta as unknown as SnapshotMeta;
    // Record queries are raw (arrays): rows.ts decodes each record from its reader's column list.
    const p = (sql: string) => this.db.prepare(sql);
    const raw = (sql: string) => this.db.prepare(sql).raw();
    this.stmt = {
      company: raw(`SELECT ${COMPANY.columns} FROM companies WHERE ticker = ?`),
      companies: raw(`SELECT ${COMPANY.columns} FROM companies ORDER BY ticker`),
      factsBetween: factsReads(raw, 'ticker >= ? AND ticker < ?'),
      // The tickers come as one JSON array: one statement for any number of them.
      factsAmong: factsReads(raw, 'ticker IN (SELECT value FROM json_each(?))'),
      // `+` keeps SQLite off companies_by_score: one table scan and a sort beats 100k index-to-row lookups.
      ranked: raw(`SELECT ${RANKED.columns} FROM companies ORDER BY +credibility_score DESC, ticker`),
      rankedWithFlags: p(`SELECT ticker, company_name, company_name_norm, credibility_score, verdict, rank, industry, market_type,
        assurance_level, (SELECT json_group_array(flag_id) FROM flags f WHERE f.ticker = c.ticker) AS flag_ids
        FROM companies c ORDER BY credibility_score DESC, ticker`),
      tickers: p('SELECT ticker FROM companies ORDER BY ticker'),
      firstTickers: p('SELECT ticker FROM companies ORDER BY ticker LIMIT ?'),
      penalties: raw(`SELECT ${PENALTY.columns} FROM penalties WHERE ticker = ? ORDER BY date DESC, record_id`),
      conduct: raw(`SELECT ${CONDUCT.columns} FROM disclosure_conduct WHERE ticker = ? ORDER BY date DESC, record_id`),
      conductSummary: p('SELECT COUNT(*) AS count, MAX(date) AS latest FROM disclosure_conduct WHERE ticker = ?'),
      disclosure: raw(`SELECT ${DISCLOSURE.columns} FROM carbon_disclosures WHERE ticker = ?`),
      carbonFee: raw(`SELECT ${CARBON_FEE.columns} FROM carbon_fees WHERE ticker = ?`),
      assurance: raw(`SELECT ${ASSURANCE.columns} FROM assurances WHERE ticker = ?`),
      flags: raw(`SELECT ${FLAG.columns} FROM flags WHERE ticker = ? ORDER BY position`),
      sources: raw(`SELECT ${SOURCE.columns} FROM sources ORDER BY source_id`),
      sourceFiles: raw(`SELECT source_id, ${SOURCE_FILE.columns} FROM source_files ORDER BY source_id, file`),
      etfs: raw(`SELECT ${ETF.columns} FROM etfs ORDER BY etf_code`),
      etf: raw(`SELECT ${ETF.columns} FROM etfs WHERE etf_code = ?`),
      holdings: p('SELECT ticker, name, weight FROM etf_holdings WHERE etf_code = ? ORDER BY position'),
      count: p('SELECT COUNT(*) FROM companies'),
      cbamProducts: p('SELECT ticker, sector, product FROM cbam_products ORDER BY ticker, sector'),
      penaltyCount: p('SELECT COUNT(*) FROM penalties'),
      industries: p(
        'SELECT industry_code AS code, industry AS name, COUNT(*) AS companies FROM companies GROUP BY industry_code, industry ORDER BY industry_code, industry',
      ),
    };
  }

  static open(dir: string): SnapshotStore {
    const db = new Database(join(dir, 'snapshot.sqlite'), { readonly: true, fileMustExist: true });
    try {
      return new SnapshotStore(dir, db);
    } catch (e) {
      // Not a snapshot (or a damaged one): its file is not left open (the shim retries every second).
      db.close();
      throw e;
    }
  }

  close(): void {
    this.db.close();
  }

  company(ticker: string): CompanyRecord | undefined {
    const cached = this.companyCache.get(ticker);
    if (cached) return cached;
    const row = this.stmt.company.get(ticker) as Raw | undefined;
    if (!row) return undefined;
    const company = COMPANY.decode(row);
    this.companyCache.set(ticker, company);
    return company;
  }

  /** All companies, ordered by ticker. */
  *companies(): Generator<CompanyRecord> {
    for (const row of this.stmt.companies.iterate() as Iterable<Raw>) yield COMPANY.decode(row);
  }

  /** Every company's compact ranking entry in the default order: score descending, then ticker ascending. */
  rankedCompanies(): RankedCompany[] {
    return (this.stmt.ranked.all() as Raw[]).map((r) => RANKED.decode(r));
  }

  /** The default order with what the in-memory ranking index needs, flag ids included. */
  *rankedCompaniesWithFlags(): Generator<IndexedCompany> {
    for (const row of this.stmt.rankedWithFlags.iterate() as Iterable<Record<string, unknown>>) {
      yield { ...(row as unknown as IndexedCompany), flag_ids: JSON.parse(row.flag_ids as string) as string[] };
    }
  }

  /**
   * The facts of every company with from ≤ ticker < to, in ticker order, from six range reads merged
   * by ticker: what factsOf gives one company at a time, for the tree writer's hundred thousand.
   * Each range is read whole (one `all()` beats a row-by-row cursor), so callers keep ranges small:
   * the tree writer asks for a thousand companies at a time.
   */
  factsBetween(from: string, to: string): CompanyFacts[] {
    return mergeFacts(this.stmt.factsBetween, [from, to]);
  }

  /** The facts of the listed companies among `tickers`, in ticker order (the history pass's movers): six reads, whatever their number. */
  factsAmong(tickers: readonly string[]): CompanyFacts[] {
    return tickers.length === 0 ? [] : mergeFacts(this.stmt.factsAmong, [JSON.stringify(tickers)]);
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
    const disclosure = this.stmt.disclosure.get(t) as Raw | undefined;
    const assurance = this.stmt.assurance.get(t) as Raw | undefined;
    return {
      company,
      penalties: (this.stmt.penalties.all(t) as Raw[]).map((r) => PENALTY.decode(r)),
      conduct: (this.stmt.conduct.all(t) as Raw[]).map((r) => CONDUCT.decode(r)),
      disclosure: disclosure ? DISCLOSURE.decode(disclosure) : null,
      carbonFee: CARBON_FEE.decode(this.stmt.carbonFee.get(t) as Raw),
      assurance: assurance ? ASSURANCE.decode(assurance) : null,
      flags: (this.stmt.flags.all(t) as Raw[]).map((r) => FLAG.decode(r)),
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

  /** How many conduct rows a company has, and the newest one's date (one read of conduct_by_company). */
  conductSummary(ticker: string): ConductSummary {
    return this.stmt.conductSummary.get(ticker) as ConductSummary;
  }

  companyCount(): number {
    return this.stmt.count.pluck().get() as number;
  }

  penaltyCount(): number {
    return this.stmt.penaltyCount.pluck().get() as number;
  }

  sources(): SourceRecord[] {
    const sources: SourceRecord[] = (this.stmt.sources.all() as Raw[]).map((r) => ({ ...SOURCE.decode(r), files: [] }));
    const byId = new Map(sources.map((s) => [s.source_id, s]));
    for (const r of this.stmt.sourceFiles.all() as Raw[]) byId.get(r[0] as string)?.files.push(SOURCE_FILE.decode(r, 1));
    return sources;
  }

  etfs(): EtfRecord[] {
    return (this.stmt.etfs.all() as Raw[]).map((r) => ETF.decode(r));
  }

  etf(code: string): { etf: EtfRecord; holdings: EtfHoldingRecord[] } | undefined {
    const row = this.stmt.etf.get(code) as Raw | undefined;
    return row && { etf: ETF.decode(row), holdings: this.stmt.holdings.all(code) as EtfHoldingRecord[] };
  }

  /** Every industry in the snapshot with its code and company count, in code order (the pages' filter list). */
  industries(): { code: string; name: string; companies: number }[] {
    return this.stmt.industries.all() as { code: string; name: string; companies: number }[];
  }

  cbamProducts(): { ticker: string; sector: string; product: string }[] {
    return this.stmt.cbamProducts.all() as { ticker: string; sector: string; product: string }[];
  }
}

type Prepare = (sql: string) => Database.Statement;

/**
 * The six reads that make companies' facts, all under one condition on the ticker. Each leads
 * with the ticker and is in ticker order, so mergeFacts can merge them; the record follows from
 * column 1.
 */
function factsReads(raw: Prepare, where: string) {
  return {
    companies: raw(`SELECT ${COMPANY.columns} FROM companies WHERE ${where} ORDER BY ticker`),
    penalties: raw(`SELECT ticker, ${PENALTY.columns} FROM penalties WHERE ${where} ORDER BY ticker, date DESC, record_id`),
    conduct: raw(`SELECT ticker, ${CONDUCT.columns} FROM disclosure_conduct WHERE ${where} ORDER BY ticker, date DESC, record_id`),
    disclosures: raw(`SELECT ticker, ${DISCLOSURE.columns} FROM carbon_disclosures WHERE ${where} ORDER BY ticker`),
    carbonFees: raw(`SELECT ticker, ${CARBON_FEE.columns} FROM carbon_fees WHERE ${where} ORDER BY ticker`),
    assurances: raw(`SELECT ticker, ${ASSURANCE.columns} FROM assurances WHERE ${where} ORDER BY ticker`),
    flags: raw(`SELECT ticker, ${FLAG.columns} FROM flags WHERE ${where} ORDER BY ticker, position`),
  };
}

/** Runs the six reads with the same parameters and merges them by ticker into each company's facts. */
function mergeFacts(reads: ReturnType<typeof factsReads>, params: unknown[]): CompanyFacts[] {
  // The records of one table (rows lead with the ticker), taken ticker by ticker in order.
  const cursor = <T>(rows: Raw[], build: (r: Raw, at: number) => T) => {
    let i = 0;
    return (ticker: string): T[] => {
      const out: T[] = [];
      while (i < rows.length && (rows[i]![0] as string) < ticker) i++;
      for (; i < rows.length && rows[i]![0] === ticker; i++) out.push(build(rows[i]!, 1));
      return out;
    };
  };
  const penalties = cursor(reads.penalties.all(...params) as Raw[], PENALTY.decode);
  const conduct = cursor(reads.conduct.all(...params) as Raw[], CONDUCT.decode);
  const disclosures = cursor(reads.disclosures.all(...params) as Raw[], DISCLOSURE.decode);
  const fees = cursor(reads.carbonFees.all(...params) as Raw[], CARBON_FEE.decode);
  const assurances = cursor(reads.assurances.all(...params) as Raw[], ASSURANCE.decode);
  const flags = cursor(reads.flags.all(...params) as Raw[], FLAG.decode);
  return (reads.companies.all(...params) as Raw[]).map((row) => {
    const company = COMPANY.decode(row);
    const t = company.ticker;
    return {
      company,
      penalties: penalties(t),
      conduct: conduct(t),
      disclosure: disclosures(t)[0] ?? null,
      carbonFee: fees(t)[0]!,
      assurance: assurances(t)[0] ?? null,
      flags: flags(t),
    };
  });
}

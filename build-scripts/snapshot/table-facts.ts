import { TOP_FLAGS } from '../../src/methodology/flags.js';
import type { ScoredRows } from '../../src/methodology/input-of.js';
import { METHODOLOGY_VERSION } from '../../src/methodology/rules.js';
import type { Columns, RowOf, Table } from '../../src/snapshot/define-table.js';
import {
  ASSURANCES,
  CARBON_DISCLOSURES,
  CARBON_FEES,
  CBAM_PRODUCTS,
  COMPANIES,
  DISCLOSURE_CONDUCT,
  ETF_HOLDINGS,
  ETFS,
  FLAGS,
  FORMAT_VERSION,
  META,
  PENALTIES,
  REGISTRY_SITES,
  SOURCE_FILES,
  SOURCES,
} from '../../src/snapshot/schema.js';
import type { SourceInfo } from '../sources/kit/registry-info.js';
import { SOURCES as SOURCES_LIST } from '../sources/index.js';
import type { CompanyFactsIn, ComputedCompany, DbContent } from './computed.js';
import type { EtfRecord } from './etf-stats.js';

/**
 * Each snapshot table's `fromFacts`: the rows one of the build's facts becomes in it, and which
 * facts it is made from. The tables themselves are declared in src/snapshot/schema.ts, which the
 * shim reads and which imports nothing of the build; their mappings from the build's facts live
 * here, one entry per table, in the order the writer fills them. The writer (write-db.ts) maps
 * nothing itself: it inserts each entry's rows.
 */
export interface TableFill<C extends Columns, F> {
  table: Table<C>;
  /** The facts this table is made from, in the order its rows are written. */
  facts: (s: DbContent, stored: ReadonlyMap<string, number>) => Iterable<F>;
  /** The rows one fact becomes (`at`: the fact's place in `facts`). */
  fromFacts: (fact: F, at: number) => Iterable<RowOf<C>>;
  /** The source a row is a record of (sources.record_count); absent when its rows are records of none. */
  countsFor?: (row: RowOf<C>, fact: F) => string;
}

/** A fill, its row type checked against its table. */
const fill = <C extends Columns, F>(f: TableFill<C, F>): TableFill<C, F> => f;
const one = <T>(row: T | null): T[] => (row === null ? [] : [row]);
const companies = (s: DbContent) => s.companies;
const bySourceId = <R extends { source_id: string }>(row: R) => row.source_id;

/** The methodology's tables: the builder scores a company from these rows (compute.ts), and writes the same rows. */
const penaltyRows = (c: Pick<CompanyFactsIn, 'profile' | 'penalties'>): RowOf<typeof PENALTIES.columns>[] =>
  c.penalties.map((x) => ({
    ticker: c.profile.ticker,
    record_id: x.recordId,
    agency: x.agency,
    agency_name: x.agencyName,
    date: x.date,
    fine: x.fine,
    serious: x.serious,
    summary: x.summary,
    source_id: x.sourceId,
    source_url: x.sourceUrl,
  }));

const conductRows = (c: Pick<CompanyFactsIn, 'profile' | 'conduct'>): RowOf<typeof DISCLOSURE_CONDUCT.columns>[] =>
  c.conduct.map((x) => ({
    ticker: c.profile.ticker,
    record_id: x.recordId,
    kind: x.kind,
    date: x.date,
    summary: x.summary,
    rule: x.rule,
    fine: x.fine,
    decision: x.decision,
    source_id: x.sourceId,
    source_url: x.sourceUrl,
  }));

function disclosureRow({ profile, disclosure: d }: Pick<CompanyFactsIn, 'profile' | 'disclosure'>): RowOf<typeof CARBON_DISCLOSURES.columns> | null {
  if (!d) return null;
  return {
    ticker: profile.ticker,
    year: d.year,
    scope1: d.scope1,
    scope2: d.scope2,
    scope3: d.scope3,
    scope1_verified: d.scope1Verified,
    scope2_verified: d.scope2Verified,
    boundary: d.boundary,
    report_date: d.reportDate,
    source_id: d.sourceId,
    deep_link: d.deepLink,
    registry_total: d.registryTotal?.total ?? null,
    registry_source_id: d.registryTotal?.sourceId ?? null,
    registry_deep_link: d.registryTotal ? d.registryLink : null,
    scope3_verified: d.scope3Verified,
    boundary_text: d.boundaryText,
  };
}

const carbonFeeRow = ({ profile, carbonFee: fee }: Pick<CompanyFactsIn, 'profile' | 'carbonFee'>): RowOf<typeof CARBON_FEES.columns> => ({
  ticker: profile.ticker,
  obligated: fee.obligated,
  basis: fee.basis,
  registry_year: fee.registryYear,
  source_id: fee.sourceId,
  deep_link: fee.deepLink,
  basis_tco2e: fee.basisTco2e,
});

function assuranceRow({ profile, assurance: a }: Pick<CompanyFactsIn, 'profile' | 'assurance'>): RowOf<typeof ASSURANCES.columns> | null {
  if (!a) return null;
  return {
    ticker: profile.ticker,
    provider: a.provider,
    level: a.level,
    year: a.year,
    source_id: a.sourceId,
    deep_link: a.deepLink,
    kind: a.kind,
    standard: a.standard,
    verifications: a.verifications.map((v) => ({ provider: v.provider, standard: v.standard })),
  };
}

/** A company's rows as the methodology reads them (src/methodology/input-of.ts), before it is scored. */
export function scoredRowsOf(c: CompanyFactsIn): ScoredRows {
  const d = disclosureRow(c);
  return {
    company: { source_id: c.profile.sourceId, cbam_exposed: c.cbamSectors.length > 0 },
    disclosure: d && { ...d, registry: d.registry_total === null ? null : { total: d.registry_total, source_id: d.registry_source_id! } },
    assurance: assuranceRow(c),
    carbonFee: carbonFeeRow(c),
    penalties: penaltyRows(c),
    conduct: conductRows(c),
  };
}

function companyRow(c: ComputedCompany, at: number): RowOf<typeof COMPANIES.columns> {
  const p = c.profile;
  const top = c.flags.slice(0, TOP_FLAGS);
  return {
    id: at + 1,
    ticker: p.ticker,
    company_name: p.shortName,
    company_name_norm: p.legalName,
    uniform_no: p.uniformNo,
    market_type: p.marketType,
    industry_code: p.industryCode,
    industry: p.industry,
    source_id: p.sourceId,
    cbam_exposed: c.cbamSectors.length > 0,
    cbam_sectors: c.cbamSectors,
    credibility_score: c.score.credibility_score,
    verdict: c.score.verdict,
    rank: c.rank,
    percentile: c.percentile,
    assurance_level: c.assurance?.level ?? 'none',
    carbon_fee_liable: c.carbonFee.obligated,
    top_flags: top.map((f) => f.id),
    top_signal_labels: top.map((f) => f.label),
    score_breakdown: c.score.score_breakdown,
  };
}

const etfRow = (e: EtfRecord): RowOf<typeof ETFS.columns> => ({
  etf_code: e.code,
  etf_name: e.name,
  holdings_asof: e.holdingsAsof,
  total: e.holdings.length,
  covered: e.covered,
  avg_score: e.avgScore,
  min_score: e.minScore,
  assurance_coverage_pct: e.assuranceCoveragePct,
  source_id: e.sourceId,
  holdings_period: e.period,
  holdings_min_weight: e.minWeight,
  listed_weight: e.listedWeight,
});

/** A source of the registry, with what this snapshot read of it. */
interface SourceFacts {
  info: SourceInfo;
  recordCount: number;
  retrievedAt: string;
  carriedForward: { attempted_at: string; reason: string } | null;
  publisherDate: string | null;
}

const sourceRow = (s: SourceFacts): RowOf<typeof SOURCES.columns> => ({
  source_id: s.info.source_id,
  name: s.info.name,
  owner_org: s.info.owner_org,
  owner_org_name: s.info.owner_org_name,
  is_government: s.info.is_government,
  licence_id: s.info.licence.id,
  licence_name: s.info.licence.name,
  licence_url: s.info.licence.url,
  update_frequency: s.info.update_frequency,
  homepage_url: s.info.homepage_url,
  description: s.info.description,
  record_count: s.recordCount,
  retrieved_at: s.retrievedAt,
  carried_forward: s.carriedForward && { attempted_at: s.carriedForward.attempted_at, reason: s.carriedForward.reason },
  publisher_date: s.publisherDate,
});

/**
 * Every table's fill, in the order the writer fills them: `sources` after every table whose rows it
 * counts. A table of schema.ts without its fill here fails the writer (and the test of this list).
 */
// `any`: each entry's rows were checked against its table by `fill`; the list is only walked.
export const TABLE_FILLS: readonly TableFill<any, any>[] = [
  fill({
    table: META,
    facts: (s) => Object.entries({ ...s.meta, methodology_version: METHODOLOGY_VERSION, format_version: String(FORMAT_VERSION) }).sort(),
    fromFacts: ([key, value]: [string, string]) => [{ key, value }],
  }),
  fill({ table: COMPANIES, facts: companies, fromFacts: (c, at) => [companyRow(c, at)], countsFor: bySourceId }),
  fill({ table: PENALTIES, facts: companies, fromFacts: penaltyRows, countsFor: bySourceId }),
  fill({ table: DISCLOSURE_CONDUCT, facts: companies, fromFacts: conductRows, countsFor: bySourceId }),
  fill({ table: CARBON_DISCLOSURES, facts: companies, fromFacts: (c) => one(disclosureRow(c)), countsFor: bySourceId }),
  fill({ table: CARBON_FEES, facts: companies, fromFacts: (c) => [carbonFeeRow(c)] }),
  fill({ table: ASSURANCES, facts: companies, fromFacts: (c) => one(assuranceRow(c)), countsFor: bySourceId }),
  fill({
    table: FLAGS,
    facts: companies,
    fromFacts: (c) =>
      c.flags.map((f, position) => ({
        ticker: c.profile.ticker,
        flag_id: f.id,
        severity: f.severity,
        label: f.label,
        source_id: f.source_id,
        position,
      })),
  }),
  fill({
    table: REGISTRY_SITES,
    facts: (s) => s.companies.map((c) => ({ c, sites: s.data.registrySites.get(c.profile.ticker) ?? [] })),
    fromFacts: ({ c, sites }) =>
      sites.map((x) => ({
        year: x.year,
        uniform_no: x.uniformNo,
        ticker: c.profile.ticker,
        industry_code: x.industryCode,
        direct: x.direct,
        indirect: x.indirect,
      })),
    // A site's emissions are a record of the registry, which the carbon fee is read from.
    countsFor: (_, { c }) => c.carbonFee.sourceId,
  }),
  fill({
    table: CBAM_PRODUCTS,
    facts: (s) => s.companies.map((c) => ({ c, products: s.data.cbamProducts.get(c.profile.ticker) ?? [] })),
    fromFacts: ({ c, products }) => products.map((x) => ({ ticker: c.profile.ticker, sector: x.sector, product: x.product })),
  }),
  fill({ table: ETFS, facts: (s) => s.etfs, fromFacts: (e) => [etfRow(e)] }),
  fill({
    table: ETF_HOLDINGS,
    facts: (s) => s.etfs,
    fromFacts: (e) => e.holdings.map((h, pos) => ({ etf_code: e.code, position: pos + 1, ticker: h.ticker, name: h.name, weight: h.weight })),
    countsFor: (_, e) => e.sourceId,
  }),
  fill({
    table: SOURCES,
    facts: (s, stored) =>
      SOURCES_LIST.map((info) => ({
        info,
        recordCount: stored.get(info.source_id) ?? 0,
        retrievedAt: s.retrievedAt(info.source_id),
        carriedForward: s.carriedForward(info.source_id),
        publisherDate: s.data.tally.bySource.get(info.source_id)?.publisherDate ?? null,
      })),
    fromFacts: (s) => [sourceRow(s)],
  }),
  fill({ table: SOURCE_FILES, facts: (s) => s.sourceFiles, fromFacts: (f) => [f] }),
];

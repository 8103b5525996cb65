import Database from 'better-sqlite3';
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
  SNAPSHOT_DDL,
  SOURCE_FILES,
  SOURCES,
  type SnapshotMeta,
} from '../../src/snapshot/schema.js';
import { SOURCES as SOURCES_LIST } from '../sources/index.js';
import { topFlags, type ComputedCompany } from './compute.js';
import type { EtfRecord } from './etf-stats.js';
import type { SourceData } from './load-sources.js';
import type { SourceFileRow } from './source-files.js';

export interface DbContent {
  meta: Omit<SnapshotMeta, 'methodology_version'>;
  companies: ComputedCompany[];
  etfs: EtfRecord[];
  data: SourceData;
  retrievedAt: (sourceId: string) => string;
  /** The manifest's word that a source's previous answers stood in for an empty, blocked or failed one. */
  carriedForward: (sourceId: string) => { attempted_at: string; reason: string } | null;
  sourceFiles: SourceFileRow[];
}

/** Writes a fresh snapshot database at `path` (which must not exist) in one transaction. */
export function writeSnapshotDb(path: string, content: DbContent): void {
  const db = new Database(path);
  try {
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.exec(SNAPSHOT_DDL);
    db.transaction(() => insertAll(db, content))();
    db.exec('ANALYZE');
    db.exec('VACUUM');
  } finally {
    db.close();
  }
}

/** The table's INSERT, prepared once; each call writes one row given in its TypeScript shape. */
function inserter<C extends Columns>(db: Database.Database, table: Table<C>): (row: RowOf<C>) => void {
  return table.writer(db.prepare(table.insertSql));
}

function insertAll(db: Database.Database, { meta, companies, etfs, data, retrievedAt, carriedForward, sourceFiles }: DbContent) {
  const metaRows: Record<string, string> = { ...meta, methodology_version: METHODOLOGY_VERSION, format_version: String(FORMAT_VERSION) };
  const insMeta = inserter(db, META);
  for (const [key, value] of Object.entries(metaRows).sort()) insMeta({ key, value });

  const stored = new Map<string, number>();
  const tally = (id: string) => stored.set(id, (stored.get(id) ?? 0) + 1);

  const insCompany = inserter(db, COMPANIES);
  const insPenalty = inserter(db, PENALTIES);
  const insConduct = inserter(db, DISCLOSURE_CONDUCT);
  const insDisclosure = inserter(db, CARBON_DISCLOSURES);
  const insFee = inserter(db, CARBON_FEES);
  const insAssurance = inserter(db, ASSURANCES);
  const insFlag = inserter(db, FLAGS);
  const insSite = inserter(db, REGISTRY_SITES);
  const insProduct = inserter(db, CBAM_PRODUCTS);

  companies.forEach((c, i) => {
    const p = c.profile;
    const ticker = p.ticker;
    const top = topFlags(c.flags);
    insCompany({
      id: i + 1,
      ticker,
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
    });
    tally(p.sourceId);
    for (const x of c.penalties) {
      insPenalty({
        ticker,
        record_id: x.recordId,
        agency: x.agency,
        agency_name: x.agencyName,
        date: x.date,
        fine: x.fine,
        serious: x.serious,
        summary: x.summary,
        source_id: x.sourceId,
        source_url: x.sourceUrl,
      });
      tally(x.sourceId);
    }
    for (const x of c.conduct) {
      insConduct({
        ticker,
        record_id: x.recordId,
        kind: x.kind,
        date: x.date,
        summary: x.summary,
        rule: x.rule,
        fine: x.fine,
        decision: x.decision,
        source_id: x.sourceId,
        source_url: x.sourceUrl,
      });
      tally(x.sourceId);
    }
    const d = c.disclosure;
    if (d) {
      insDisclosure({
        ticker,
        year: d.year,
        scope1: d.scope1,
        scope2: d.scope2,
        scope3: d.scope3,
        scope1_verified: d.scope1Verified,
        scope2_verified: d.scope2Verified,
        scope3_verified: d.scope3Verified,
        boundary: d.boundary,
        boundary_text: d.boundaryText,
        report_date: d.reportDate,
        source_id: d.sourceId,
        deep_link: d.deepLink,
        registry_total: d.registryTotal?.total ?? null,
        registry_source_id: d.registryTotal?.sourceId ?? null,
        registry_deep_link: d.registryTotal ? d.registryLink : null,
      });
      tally(d.sourceId);
    }
    const fee = c.carbonFee;
    insFee({
      ticker,
      obligated: fee.obligated,
      basis: fee.basis,
      registry_year: fee.registryYear,
      source_id: fee.sourceId,
      deep_link: fee.deepLink,
      basis_tco2e: fee.basisTco2e,
    });
    const a = c.assurance;
    if (a) {
      insAssurance({
        ticker,
        provider: a.provider,
        level: a.level,
        year: a.year,
        source_id: a.sourceId,
        deep_link: a.deepLink,
        kind: a.kind,
        standard: a.standard,
        verifications: a.verifications.map((v) => ({ provider: v.provider, standard: v.standard })),
      });
      tally(a.sourceId);
    }
    c.flags.forEach((f, position) => insFlag({ ticker, flag_id: f.id, severity: f.severity, label: f.label, source_id: f.source_id, position }));
    for (const s of data.registrySites.get(ticker) ?? []) {
      insSite({ year: s.year, uniform_no: s.uniformNo, ticker, industry_code: s.industryCode, direct: s.direct, indirect: s.indirect });
      tally(c.carbonFee.sourceId);
    }
    for (const x of data.cbamProducts.get(ticker) ?? []) insProduct({ ticker, sector: x.sector, product: x.product });
  });

  const insEtf = inserter(db, ETFS);
  const insHolding = inserter(db, ETF_HOLDINGS);
  for (const e of etfs) {
    insEtf({
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
    e.holdings.forEach((h, pos) => {
      insHolding({ etf_code: e.code, position: pos + 1, ticker: h.ticker, name: h.name, weight: h.weight });
      tally(e.sourceId);
    });
  }

  const insSource = inserter(db, SOURCES);
  for (const s of SOURCES_LIST) {
    const carried = carriedForward(s.source_id);
    insSource({
      source_id: s.source_id,
      name: s.name,
      owner_org: s.owner_org,
      owner_org_name: s.owner_org_name,
      is_government: s.is_government,
      licence_id: s.licence.id,
      licence_name: s.licence.name,
      licence_url: s.licence.url,
      update_frequency: s.update_frequency,
      homepage_url: s.homepage_url,
      description: s.description,
      record_count: stored.get(s.source_id) ?? 0,
      retrieved_at: retrievedAt(s.source_id),
      carried_forward: carried && { attempted_at: carried.attempted_at, reason: carried.reason },
      publisher_date: data.tally.bySource.get(s.source_id)?.publisherDate ?? null,
    });
  }

  const insFile = inserter(db, SOURCE_FILES);
  for (const f of sourceFiles)
    insFile({ source_id: f.source_id, file: f.file, url: f.url, retrieved_at: f.retrieved_at, bytes: f.bytes, sha256: f.sha256 });
}

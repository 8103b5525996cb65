import Database from 'better-sqlite3';
import { METHODOLOGY_VERSION } from '../../src/methodology/rules.js';
import { SNAPSHOT_DDL, type SnapshotMeta } from '../../src/snapshot/schema.js';
import { SOURCES } from '../sources/index.js';
import { topFlags, type ComputedCompany } from './compute.js';
import type { EtfRecord } from './etf-stats.js';
import type { SourceData } from './load-sources.js';
import type { SourceFileRow } from './source-files.js';

const b = (v: boolean) => (v ? 1 : 0);

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

function insertAll(db: Database.Database, { meta, companies, etfs, data, retrievedAt, carriedForward, sourceFiles }: DbContent) {
  const metaRows: Record<string, string> = { ...meta, methodology_version: METHODOLOGY_VERSION };
  const insMeta = db.prepare('INSERT INTO meta VALUES (?, ?)');
  for (const [k, v] of Object.entries(metaRows).sort()) insMeta.run(k, v);

  const stored = new Map<string, number>();
  const tally = (id: string) => stored.set(id, (stored.get(id) ?? 0) + 1);

  const insCompany = db.prepare(`INSERT INTO companies (id, ticker, company_name, company_name_norm, uniform_no, market_type,
    industry_code, industry, source_id, cbam_exposed, cbam_sectors, credibility_score, verdict, rank, percentile,
    assurance_level, carbon_fee_liable, top_flags, top_signal_labels, score_breakdown)
    VALUES (@id, @ticker, @company_name, @company_name_norm, @uniform_no, @market_type, @industry_code, @industry,
    @source_id, @cbam_exposed, @cbam_sectors, @credibility_score, @verdict, @rank, @percentile, @assurance_level,
    @carbon_fee_liable, @top_flags, @top_signal_labels, @score_breakdown)`);
  const insPenalty = db.prepare('INSERT INTO penalties VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
  const insDisclosure = db.prepare('INSERT INTO carbon_disclosures VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
  const insFee = db.prepare('INSERT INTO carbon_fees VALUES (?, ?, ?, ?, ?, ?, ?)');
  const insAssurance = db.prepare(`INSERT INTO assurances (ticker, provider, level, year, source_id, deep_link, kind, standard, verifications)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const insFlag = db.prepare('INSERT INTO flags VALUES (?, ?, ?, ?, ?, ?)');
  const insSite = db.prepare('INSERT INTO registry_sites VALUES (?, ?, ?, ?, ?, ?)');
  const insProduct = db.prepare('INSERT INTO cbam_products VALUES (?, ?, ?)');

  companies.forEach((c, i) => {
    const p = c.profile;
    const top = topFlags(c.flags);
    insCompany.run({
      id: i + 1,
      ticker: p.ticker,
      company_name: p.shortName,
      company_name_norm: p.legalName,
      uniform_no: p.uniformNo,
      market_type: p.marketType,
      industry_code: p.industryCode,
      industry: p.industry,
      source_id: p.sourceId,
      cbam_exposed: b(c.cbamSectors.length > 0),
      cbam_sectors: JSON.stringify(c.cbamSectors),
      credibility_score: c.score.credibility_score,
      verdict: c.score.verdict,
      rank: c.rank,
      percentile: c.percentile,
      assurance_level: c.assurance?.level ?? 'none',
      carbon_fee_liable: b(c.carbonFee.obligated),
      top_flags: JSON.stringify(top.map((f) => f.id)),
      top_signal_labels: JSON.stringify(top.map((f) => f.label)),
      score_breakdown: JSON.stringify(c.score.score_breakdown),
    });
    tally(p.sourceId);
    for (const x of c.penalties) {
      insPenalty.run(p.ticker, x.recordId, x.agency, x.agencyName, x.date, x.fine, b(x.serious), x.summary, x.sourceId, x.sourceUrl);
      tally(x.sourceId);
    }
    const d = c.disclosure;
    if (d) {
      insDisclosure.run(
        p.ticker, d.year, d.scope1, d.scope2, d.scope3, b(d.scope1Verified), b(d.scope2Verified), d.boundary, d.reportDate, d.sourceId, d.deepLink,
        d.registryTotal?.total ?? null, d.registryTotal?.sourceId ?? null, d.registryTotal ? d.registryLink : null,
      );
      tally(d.sourceId);
    }
    insFee.run(p.ticker, b(c.carbonFee.obligated), c.carbonFee.basis, c.carbonFee.registryYear, c.carbonFee.sourceId, c.carbonFee.deepLink, c.carbonFee.basisTco2e);
    const a = c.assurance;
    if (a) {
      const verifications = a.verifications.map((v) => ({ provider: v.provider, standard: v.standard }));
      insAssurance.run(p.ticker, a.provider, a.level, a.year, a.sourceId, a.deepLink, a.kind, a.standard, JSON.stringify(verifications));
      tally(a.sourceId);
    }
    c.flags.forEach((f, pos) => insFlag.run(p.ticker, f.id, f.severity, f.label, f.source_id, pos));
    for (const s of data.registrySites.get(p.ticker) ?? []) {
      insSite.run(s.year, s.uniformNo, p.ticker, s.industryCode, s.direct, s.indirect);
      tally(c.carbonFee.sourceId);
    }
    for (const x of data.cbamProducts.get(p.ticker) ?? []) insProduct.run(p.ticker, x.sector, x.product);
  });

  const insEtf = db.prepare(`INSERT INTO etfs (etf_code, etf_name, holdings_asof, total, covered, avg_score, min_score,
    assurance_coverage_pct, source_id, holdings_period, holdings_min_weight, listed_weight) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const insHolding = db.prepare('INSERT INTO etf_holdings VALUES (?, ?, ?, ?, ?)');
  for (const e of etfs) {
    insEtf.run(e.code, e.name, e.holdingsAsof, e.holdings.length, e.covered, e.avgScore, e.minScore, e.assuranceCoveragePct, e.sourceId,
      e.period, e.minWeight, e.listedWeight);
    e.holdings.forEach((h, pos) => {
      insHolding.run(e.code, pos + 1, h.ticker, h.name, h.weight);
      tally(e.sourceId);
    });
  }

  const insSource = db.prepare('INSERT INTO sources VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
  for (const s of SOURCES) {
    const carried = carriedForward(s.source_id);
    insSource.run(s.source_id, s.name, s.owner_org, s.owner_org_name, b(s.is_government), s.licence.id, s.licence.name, s.licence.url,
      s.update_frequency, s.homepage_url, s.description, stored.get(s.source_id) ?? 0, retrievedAt(s.source_id), carried && JSON.stringify({ attempted_at: carried.attempted_at, reason: carried.reason }));
  }

  const insFile = db.prepare('INSERT INTO source_files VALUES (?, ?, ?, ?, ?, ?)');
  for (const f of sourceFiles) insFile.run(f.source_id, f.file, f.url, f.retrieved_at, f.bytes, f.sha256);
}

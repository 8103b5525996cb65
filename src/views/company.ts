import type { CompanyResponse, CompanySummary } from '../contract/company.js';
import { SCORE_NAME } from '../methodology/rules.js';
import type { SnapshotMeta } from '../snapshot/schema.js';
import type { CompanyRecord } from '../snapshot/store.js';
import { withEnvelope } from './envelope.js';

/** The ready-to-paste citation: score name, service host, year, snapshot. */
export function citation(meta: SnapshotMeta): string {
  return `${SCORE_NAME}, ${meta.service_host}, ${meta.published_at.slice(0, 4)} (methodology ${meta.methodology_version}, snapshot ${meta.dataset_snapshot_id})`;
}

/** Contract 3.1: the company summary, as used by /company, ranking mode=full, compare and batch. */
export function companySummary(meta: SnapshotMeta, c: CompanyRecord): CompanySummary {
  return {
    ticker: c.ticker,
    company_name: c.company_name,
    company_name_norm: c.company_name_norm,
    market_type: c.market_type,
    industry: c.industry,
    credibility_score: c.credibility_score,
    verdict: c.verdict,
    rank: c.rank,
    percentile: c.percentile,
    assurance_level: c.assurance_level,
    has_assurance: c.assurance_level !== 'none',
    top_flags: c.top_flags,
    top_signal_labels: c.top_signal_labels,
    carbon_fee_liable: c.carbon_fee_liable,
    cbam_exposed: c.cbam_exposed,
    score_breakdown: c.score_breakdown,
    citation: citation(meta),
  };
}

/** GET /company/{ticker}. The universe is the snapshot's whole company list, so it has no id of its own. */
export function companyView(meta: SnapshotMeta, c: CompanyRecord): CompanyResponse {
  return withEnvelope(meta, { universe_snapshot_id: null, company: companySummary(meta, c) });
}

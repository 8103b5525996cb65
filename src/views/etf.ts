import type { EtfListResponse, EtfResponse } from '../contract/etf.js';
import type { SnapshotMeta } from '../snapshot/schema.js';
import type { CompanyRecord, EtfHoldingRecord, EtfRecord } from '../snapshot/store.js';
import { withEnvelope } from './envelope.js';

export function etfListView(meta: SnapshotMeta, etfs: EtfRecord[]): EtfListResponse {
  return withEnvelope(meta, {
    data: etfs.map((e) => ({ etf_code: e.etf_code, etf_name: e.etf_name, total: e.total })),
    meta: { total: etfs.length },
  });
}

/** GET /etf/{code}: statistics were computed at build time; holdings resolve to companies here. */
export function etfView(
  meta: SnapshotMeta,
  etf: EtfRecord,
  holdings: EtfHoldingRecord[],
  companyOf: (ticker: string) => CompanyRecord | undefined,
): EtfResponse {
  return withEnvelope(meta, {
    etf_code: etf.etf_code,
    etf_name: etf.etf_name,
    total: etf.total,
    covered: etf.covered,
    holdings_asof: etf.holdings_asof,
    holdings_source_id: etf.source_id,
    holdings_period: etf.holdings_period,
    holdings_min_weight: etf.holdings_min_weight,
    listed_weight: etf.listed_weight,
    avg_score: etf.avg_score,
    min_score: etf.min_score,
    assurance_coverage_pct: etf.assurance_coverage_pct,
    holdings: holdings.map((h) => {
      const c = companyOf(h.ticker);
      return {
        ticker: h.ticker,
        name: h.name,
        weight: h.weight,
        company: c ? { ticker: c.ticker, credibility_score: c.credibility_score, verdict: c.verdict } : null,
      };
    }),
  });
}

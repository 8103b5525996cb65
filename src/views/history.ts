import type { HistoryEntry, HistoryResponse } from '../contract/history.js';
import type { SnapshotMeta } from '../snapshot/schema.js';
import type { CompanyRecord, FlagRecord } from '../snapshot/store.js';
import { withEnvelope } from './envelope.js';

/** This snapshot's entry in a company's history: the summary it serves, with every flag id. */
export function historyEntry(meta: SnapshotMeta, company: CompanyRecord, flags: readonly FlagRecord[]): HistoryEntry {
  return {
    dataset_snapshot_id: meta.dataset_snapshot_id,
    data_asof: meta.data_asof,
    methodology_version: meta.methodology_version,
    credibility_score: company.credibility_score,
    verdict: company.verdict,
    rank: company.rank,
    percentile: company.percentile,
    flags: flags.map((f) => f.flag_id),
    score_breakdown: company.score_breakdown,
  };
}

/** GET /company/{ticker}/history: entries newest first, this snapshot's own first. */
export function historyView(meta: SnapshotMeta, ticker: string, entries: HistoryEntry[]): HistoryResponse {
  return withEnvelope(meta, { ticker, data: entries });
}

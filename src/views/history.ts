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

/** GET /company/{ticker}/history: entries newest first (src/snapshot/newest-first.ts), as the caller ordered them. */
export function historyView(meta: SnapshotMeta, ticker: string, entries: HistoryEntry[]): HistoryResponse {
  return withEnvelope(meta, { ticker, data: entries });
}

/**
 * historyView's bytes up to its `ticker` key: the envelope, the same for every company of a
 * snapshot. The history store keeps it with the snapshot's entries, so a pinned read long after
 * rebuilds the body from bytes that snapshot wrote, not from today's code.
 */
export function historyHead(meta: SnapshotMeta): Buffer {
  const template = JSON.stringify(historyView(meta, 'T', []));
  return Buffer.from(template.slice(0, template.indexOf('"ticker":"T"')));
}

const COMMA = 0x2c;
const CLOSE = Buffer.from(']}');

/**
 * historyView's bytes from its head and the entries' JSON (each as its snapshot serialised it,
 * newest first), in one allocation. The tree writer and the shim's pinned reads both build history
 * bodies here, so a body rebuilt later is the file's bytes. Tickers are [0-9A-Z] (no escaping).
 */
export function historyBody(head: Buffer, ticker: string, entries: readonly Buffer[]): Buffer {
  const open = `"ticker":"${ticker}","data":[`;
  let size = head.length + open.length + Math.max(0, entries.length - 1) + CLOSE.length;
  for (const e of entries) size += e.length;
  const body = Buffer.allocUnsafe(size);
  let at = head.copy(body, 0);
  at += body.write(open, at, 'latin1');
  entries.forEach((e, i) => {
    if (i > 0) body[at++] = COMMA;
    at += e.copy(body, at);
  });
  CLOSE.copy(body, at);
  return body;
}

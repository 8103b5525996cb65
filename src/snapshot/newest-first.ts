import { compareSnapshotIds } from './published.js';

/** What the order of snapshots looks at: any record naming a snapshot, its data date and its publish time. */
export interface DatedSnapshot {
  dataset_snapshot_id: string;
  data_asof: string;
  published_at: string;
}

/**
 * "Newest first" wherever the API lists snapshots (contract 5 and 10: `/snapshots`, every company's
 * history, the feed): by `data_asof` descending, then by `published_at` descending, so a corrected
 * older month published later sorts below the months after it and above its own first publication.
 * Two publishes in the same second are told apart by their ids, which are given out in publish order.
 * One comparator for all three, so they cannot disagree.
 */
export function newestFirst(a: DatedSnapshot, b: DatedSnapshot): number {
  if (a.data_asof !== b.data_asof) return a.data_asof < b.data_asof ? 1 : -1;
  if (a.published_at !== b.published_at) return a.published_at < b.published_at ? 1 : -1;
  return compareSnapshotIds(b.dataset_snapshot_id, a.dataset_snapshot_id);
}

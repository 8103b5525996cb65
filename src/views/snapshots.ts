import type { SnapshotEntry, SnapshotsResponse } from '../contract/snapshots.js';
import type { SnapshotMeta } from '../snapshot/schema.js';
import { withEnvelope } from './envelope.js';

/** GET /snapshots: the published snapshots known to this one, newest first. */
export function snapshotsView(meta: SnapshotMeta, entries: SnapshotEntry[]): SnapshotsResponse {
  const data = [...entries].sort((a, b) => (a.published_at < b.published_at ? 1 : a.published_at > b.published_at ? -1 : a.dataset_snapshot_id < b.dataset_snapshot_id ? 1 : -1));
  return withEnvelope(meta, { data, meta: { total: data.length } });
}

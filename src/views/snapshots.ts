import type { SnapshotEntry, SnapshotsResponse } from '../contract/snapshots.js';
import { newestFirst } from '../snapshot/newest-first.js';
import type { SnapshotMeta } from '../snapshot/schema.js';
import { withEnvelope } from './envelope.js';

/** GET /snapshots: the published snapshots known to this one, newest first (by data date, then publish time). */
export function snapshotsView(meta: SnapshotMeta, entries: SnapshotEntry[]): SnapshotsResponse {
  const data = [...entries].sort(newestFirst);
  return withEnvelope(meta, { data, meta: { total: data.length } });
}

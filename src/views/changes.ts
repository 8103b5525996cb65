import { pageMeta } from './ranking.js';
import type { ChangeItem, ChangesResponse } from '../contract/changes.js';
import type { SnapshotMeta } from '../snapshot/schema.js';
import type { IndexedChange } from '../snapshot/changes-store.js';
import { withEnvelope } from './envelope.js';

export type { IndexedChange };

/** Contract 10 order: |score_delta| descending, then ticker. */
export function compareChanges(a: ChangeItem, b: ChangeItem): number {
  return Math.abs(b.score_delta) - Math.abs(a.score_delta) || (a.ticker < b.ticker ? -1 : a.ticker > b.ticker ? 1 : 0);
}

/** A company's item of /changes with the static page (/changes/page/N) listing it, as its page for people shows it. */
export interface CompanyChange {
  item: ChangeItem;
  page: number;
}

/**
 * One page of changes since the previous snapshot (contract 10): the tree writer renders every
 * 200-item page of the whole list, the shim a page of a filtered one; `meta` as the ranking's.
 */
export function changesView(
  meta: SnapshotMeta,
  fromSnapshotId: string | null,
  items: readonly ChangeItem[],
  page: { total: number; page: number; perPage: number },
): ChangesResponse {
  return withEnvelope(meta, {
    from_snapshot_id: fromSnapshotId,
    data: [...items],
    meta: pageMeta(meta, page),
  });
}

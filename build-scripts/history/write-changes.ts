import { changesResponseSchema } from '../../src/contract/changes.js';
import { LIMITS } from '../../src/contract/vocabulary.js';
import { urls } from '../../src/contract/urls.js';
import type { IndexedChange } from '../../src/snapshot/changes-store.js';
import type { SnapshotMeta } from '../../src/snapshot/schema.js';
import { changesView } from '../../src/views/changes.js';
import { TreeFiles, type TreeStats } from '../output/tree-files.js';
import { writeChangesStore } from './write-changes-store.js';

/**
 * What changed since the previous snapshot (explained, company by company, in the tree writer's
 * pass; `list` in the contract's order): writes `/changes` and every `/changes/page/N` into the
 * tree, and the whole list with each company's industry into the snapshot's changes database
 * (changes.sqlite), which the shim's filtered changes query.
 */
export function writeChanges(o: {
  meta: SnapshotMeta;
  fromSnapshotId: string | null;
  list: IndexedChange[];
  snapshotDir: string;
  treeDir: string;
}): TreeStats {
  const { meta, fromSnapshotId: fromId, list } = o;
  const tree = new TreeFiles(o.treeDir);
  const perPage = LIMITS.changesPerPage;
  const pageCount = Math.ceil(list.length / perPage);
  const page = (n: number) =>
    changesView(
      meta,
      fromId,
      list.slice((n - 1) * perPage, n * perPage).map((c) => c.item),
      { total: list.length, page: n, perPage },
    );
  tree.write({ url: urls.changes, schema: changesResponseSchema, body: page(1) });
  // Page 1 always exists, as the ranking's does, even when nothing changed.
  for (let n = 1; n <= Math.max(1, pageCount); n++) tree.write({ url: urls.changesPage(n), schema: changesResponseSchema, body: page(n) });
  // After the pages, which validated every item against the contract.
  writeChangesStore(o.snapshotDir, fromId, list);
  return tree.stats;
}

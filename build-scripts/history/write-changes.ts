import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { changesResponseSchema } from '../../src/contract/changes.js';
import { LIMITS } from '../../src/contract/vocabulary.js';
import { urls } from '../../src/site/static-paths.js';
import type { SnapshotStore } from '../../src/snapshot/store.js';
import { CHANGES_FILE, type ChangesFile } from '../../src/snapshot/changes-file.js';
import { changesView, compareChanges, type IndexedChange } from '../../src/views/changes.js';
import { TreeFiles, type TreeStats } from '../tree/tree-files.js';
import { pairsInOrder } from './company-pass.js';
import { explainChange } from './explain.js';

/**
 * What changed since the previous snapshot: one ordered pass over both snapshots' companies and
 * facts (range reads, no per-company query), each moved company explained cause by cause. Writes
 * `/changes` and every `/changes/page/N` into the tree, and the whole list with each company's
 * industry beside the database, for the shim's filtered changes.
 */
export function writeChanges(o: { store: SnapshotStore; previous: SnapshotStore | null; snapshotDir: string; treeDir: string }): TreeStats & { changes: ChangesFile } {
  const meta = o.store.meta;
  const from = o.previous ? { asof: o.previous.meta.data_asof, methodologyVersion: o.previous.meta.methodology_version } : null;
  const to = { asof: meta.data_asof, methodologyVersion: meta.methodology_version };
  const list: IndexedChange[] = [];
  if (from) {
    for (const { ticker, before, after } of pairsInOrder(o.previous, o.store)) {
      const item = explainChange(ticker, before, after, from, to);
      if (item) list.push({ industry: (after ?? before)!.company.industry, item });
    }
  }
  list.sort((a, b) => compareChanges(a.item, b.item));
  const fromId = o.previous?.meta.dataset_snapshot_id ?? null;
  const changes: ChangesFile = { from_snapshot_id: fromId, changes: list };
  writeFileSync(join(o.snapshotDir, CHANGES_FILE), JSON.stringify(changes));

  const tree = new TreeFiles(o.treeDir);
  const perPage = LIMITS.changesPerPage;
  const pageCount = Math.ceil(list.length / perPage);
  const page = (n: number) => changesView(meta, fromId, list.slice((n - 1) * perPage, n * perPage).map((c) => c.item), { total: list.length, page: n, perPage });
  tree.write({ url: urls.changes, schema: changesResponseSchema, body: page(1) });
  // Page 1 always exists, as the ranking's does, even when nothing changed.
  for (let n = 1; n <= Math.max(1, pageCount); n++) tree.write({ url: urls.changesPage(n), schema: changesResponseSchema, body: page(n) });
  return { ...tree.stats, changes };
}

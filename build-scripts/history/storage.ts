import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileForUrlPath } from '../../src/contract/api-paths.js';
import { urls } from '../../src/contract/urls.js';
import { HISTORY_DB, HISTORY_STORE } from '../../src/snapshot/history-store.js';
import { publishedSnapshotIds } from '../../src/snapshot/published.js';

/** What company histories take under a snapshots folder (bench/stage.ts reports it; the history tests check it grows linearly). */
export interface HistoryStorage {
  /** The history store's files: each snapshot's own entries. */
  storeBytes: number;
  /** `/company/{t}/history` files in every kept snapshot's tree, and how many. */
  treeFileBytes: number;
  treeFiles: number;
  /** Whole-history databases that builds before the store left in snapshot folders. */
  legacyBytes: number;
  /** The sum of the three, as file sizes, and as blocks taken on disk (a small file takes a whole block). */
  bytes: number;
  diskBytes: number;
}

export function historyStorage(root: string): HistoryStorage {
  const out: HistoryStorage = { storeBytes: 0, treeFileBytes: 0, treeFiles: 0, legacyBytes: 0, bytes: 0, diskBytes: 0 };
  const add = (path: string, field: 'storeBytes' | 'treeFileBytes' | 'legacyBytes') => {
    const s = statSync(path);
    out[field] += s.size;
    out.bytes += s.size;
    out.diskBytes += s.blocks * 512;
  };
  const store = join(root, HISTORY_STORE);
  if (existsSync(store)) for (const name of readdirSync(store)) add(join(store, name), 'storeBytes');
  const historyFile = fileForUrlPath(urls.history('T')).split('/').pop()!;
  const companies = fileForUrlPath(urls.history('T')).split('/').slice(0, -2).join('/');
  for (const id of publishedSnapshotIds(root)) {
    if (existsSync(join(root, id, HISTORY_DB))) add(join(root, id, HISTORY_DB), 'legacyBytes');
    const dir = join(root, id, 'tree', companies);
    if (!existsSync(dir)) continue;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const file = join(dir, e.name, historyFile);
      if (e.isDirectory() && existsSync(file)) {
        add(file, 'treeFileBytes');
        out.treeFiles++;
      }
    }
  }
  return out;
}

import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileForUrlPath } from '../../src/contract/api-paths.js';
import { urls } from '../../src/contract/urls.js';
import { allStoreRecords, HISTORY_DB, HISTORY_STORE, pinnedHistory, storeFile, storeRecords } from '../../src/snapshot/history-store.js';
import { currentSnapshotId } from '../../src/snapshot/published.js';
import { prunedSnapshotIds } from '../../src/snapshot/retention.js';
import { SnapshotStore } from '../../src/snapshot/store.js';
import { historyBody } from '../../src/views/history.js';

/**
 * The build's steps on the history store (src/snapshot/history-store.ts) around publishing, each
 * safe to kill: before the tree, what died unpublished is cleared; at publish, the build's own
 * entries go in; after it, the snapshots no longer current give up their history files.
 */

/**
 * Store files of builds that died between storing their entries and publishing (placed after the
 * last published snapshot, or torn), and a killed import's scratch folder. Run under the build
 * lock, before the build takes its place in the store.
 */
export function removeUnpublishedHistory(root: string): void {
  const dir = join(root, HISTORY_STORE);
  if (!existsSync(dir)) return;
  const counted = new Set(storeRecords(root).map((r) => r.path));
  const { published } = allStoreRecords(root);
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name.startsWith('.import-')) rmSync(path, { recursive: true, force: true });
    else if (name.endsWith('.sqlite') && !counted.has(path) && !published.has(name.slice(0, -'.sqlite'.length))) rmSync(path, { force: true });
  }
}

/**
 * Moves the build's own entries into the store, just before its folder is published. The publish
 * flushes the file system before renaming the folder, so by the time the id is published its
 * entries are on disk; a kill in between leaves a file no reader counts.
 */
export function storeOwnHistory(root: string, workDir: string, id: string): void {
  // As publishWorkDir refuses to replace a published folder, never replace a published snapshot's entries.
  if (existsSync(join(root, id))) throw new Error(`snapshot ${id} is already published; its history entries never change`);
  mkdirSync(join(root, HISTORY_STORE), { recursive: true });
  renameSync(join(workDir, HISTORY_DB), storeFile(root, id));
}

/**
 * After a publish: every kept snapshot but the current one drops its `/company/{t}/history` files,
 * whose bytes the store rebuilds for pinned reads (server/routes/pinned.ts); only the current
 * snapshot serves them as static files. Files go one by one, and each answer is the same with the
 * file or without it, so a kill at any point leaves every snapshot readable; they go in ticker
 * order, so the last one gone means a snapshot is done, and the next build finishes one it was not.
 * Snapshots from before the store (no head) keep theirs, as does one whose files the store would
 * not give back byte for byte (checked on its first and last company first): `refused` names those,
 * which a test or an operator should look at; the publish itself has succeeded either way.
 * `onFile` is called after each file goes (tests kill the process there).
 */
export function dropStaleHistoryFiles(root: string, onFile?: () => void): { dropped: string[]; refused: string[] } {
  const current = currentSnapshotId(root);
  const gone = new Set(prunedSnapshotIds(root));
  const out = { dropped: [] as string[], refused: [] as string[] };
  for (const r of storeRecords(root)) {
    const id = r.dataset_snapshot_id;
    if (id === current || r.head === null || gone.has(id) || !existsSync(join(root, id, 'snapshot.sqlite'))) continue;
    const done = dropHistoryFiles(root, id, onFile);
    if (done !== null) out[done ? 'dropped' : 'refused'].push(id);
  }
  return out;
}

/** True when this call dropped the files, false when the store disagrees with them, null when there were none left. */
function dropHistoryFiles(root: string, id: string, onFile?: () => void): boolean | null {
  const store = SnapshotStore.open(join(root, id));
  const tickers = store.tickers();
  store.close();
  const file = (t: string) => join(root, id, 'tree', fileForUrlPath(urls.history(t)));
  if (tickers.length === 0 || !existsSync(file(tickers.at(-1)!))) return null;
  for (const t of new Set([tickers[0]!, tickers.at(-1)!])) {
    if (!existsSync(file(t))) continue; // the first ones went before a kill
    const rebuilt = pinnedHistory(root, id, t);
    if (!rebuilt || !historyBody(rebuilt.head, t, rebuilt.entries).equals(readFileSync(file(t)))) return false;
  }
  for (const t of tickers) {
    rmSync(file(t), { force: true });
    onFile?.();
  }
  return true;
}

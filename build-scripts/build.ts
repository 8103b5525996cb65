import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { historyOptionsFor, writeChangeStages } from './history/stages.js';
import { dropStaleHistoryFiles, storeOwnHistory } from './history/store-steps.js';
import { SnapshotStore } from '../src/snapshot/store.js';
import { DOWNLOADS_DIR } from '../src/contract/api-paths.js';
import { outsideTreeArchive } from '../src/contract/urls.js';
import { writeIndexFiles } from './index-files.js';
import { writeDownloads } from './downloads/write-downloads.js';
import { buildSnapshotDb, type SnapshotDbSummary } from './snapshot/build-snapshot-db.js';
import type { Progress } from './snapshot/progress.js';
import { acquireBuildLock, makeWorkDir, nextSnapshotId, publishWorkDir, retireUnfinished } from './snapshot/publish.js';
import { pruneSnapshots } from './snapshot/prune.js';
import { snapshotsKeepFromEnv } from '../src/snapshot/retention.js';
import type { PageStats } from './pages/page-files.js';
import { writePages } from './pages/write-pages.js';
import type { TreeStats } from './output/tree-files.js';
import { writeTree } from './tree/write-tree.js';
import type { SnapshotKind } from '../src/contract/vocabulary.js';

export interface BuildOptions {
  sourcesDir: string;
  snapshotsDir: string;
  /**
   * The kind the caller expects: the sources decide (snapshot/snapshot-kind.ts), and a build whose
   * sources are of the other kind fails before anything is published. Undefined: whatever they are.
   */
  kind?: SnapshotKind;
  /** The publish moment: names the snapshot (its date) and is every body's generated_at. */
  now: Date;
  asof?: string;
  maxRejects?: number;
  /** ASSERT_MIN_SCALE (sources' absolute minima for a small test universe). */
  assertScale?: number;
  serviceHost?: string;
  progress: Progress;
  /** How many published snapshots to keep, this one included (default SNAPSHOTS_KEEP, else 24). */
  keep?: number;
  /**
   * false builds the API tree and downloads without the pages for people. History does not depend on
   * them: the bench's history storage publishes 24 snapshots at 100,000 companies, whose pages (over
   * 4 GB each in two languages) would not fit the disk, and the tests of history and publishing
   * skip their cost. Default true.
   */
  pages?: boolean;
  /**
   * Called between stages; tests use it to fail or kill a build midway. 'current' is inside the
   * publish: the folder is in place under its id, and `current` does not name it yet.
   */
  onStage?: (stage: 'database' | 'tree' | 'downloads' | 'pages' | 'publish' | 'current') => void;
}

export interface BuildResult {
  id: string;
  dir: string;
  /** Snapshot ids pruned by this publish (retention). */
  pruned: string[];
  summary: SnapshotDbSummary;
  tree: TreeStats;
  pages: PageStats;
  timings: Record<string, number>;
}

const DEFAULT_SERVICE_HOST = 'esg-credibility.example';

/**
 * sources → snapshot database → static tree → downloads → atomic publish. Everything is written in
 * a private work folder; only a complete, validated build is renamed into place and made current.
 * On any failure the work folder is removed and the published snapshots are untouched. After the
 * publish, the snapshot that was current drops its history files, which the history store answers
 * from then on with the same bytes (history/store-steps.ts).
 */
export async function buildAndPublish(o: BuildOptions): Promise<BuildResult> {
  const keep = o.keep ?? snapshotsKeepFromEnv();
  const release = acquireBuildLock(o.snapshotsDir);
  const work = makeWorkDir(o.snapshotsDir);
  const timings: Record<string, number> = {};
  const timed: Timed = async (name, f) => {
    const start = performance.now();
    try {
      return await f();
    } finally {
      timings[name] = Math.round(performance.now() - start);
    }
  };
  try {
    const publishedAt = o.now.toISOString().replace(/\.\d{3}Z$/, 'Z');
    const id = nextSnapshotId(o.snapshotsDir, publishedAt.slice(0, 10));
    const dbPath = join(work, 'snapshot.sqlite');

    o.onStage?.('database');
    const summary = await timed('database', () =>
      buildSnapshotDb({
        sourcesDir: o.sourcesDir,
        dbPath,
        snapshotId: id,
        publishedAt,
        kind: o.kind,
        asof: o.asof,
        maxRejects: o.maxRejects,
        assertScale: o.assertScale,
        serviceHost: o.serviceHost ?? DEFAULT_SERVICE_HOST,
        progress: o.progress,
      }),
    );

    const { tree, pages } = await writeTreeStages(o, work, id, keep, timed);

    o.onStage?.('publish');
    const dir = await timed('publish', () => {
      // Its history entries join the store first: the publish's flush covers them (history/store-steps.ts).
      storeOwnHistory(o.snapshotsDir, work, id);
      return publishWorkDir(o.snapshotsDir, work, id, () => o.onStage?.('current'));
    });
    const pruned = await timed('prune', () => pruneSnapshots(o.snapshotsDir, keep, id));
    if (pruned.length > 0) o.progress.step(`pruned: ${pruned.join(', ')}`);
    // The snapshot no longer current serves its histories from the store from now on: linear storage.
    const { refused } = await timed('history-files', () => dropStaleHistoryFiles(o.snapshotsDir));
    if (refused.length > 0) o.progress.step(`history files kept (the store does not rebuild them byte for byte): ${refused.join(', ')}`);
    return { id, dir, pruned, summary, tree, pages, timings };
  } catch (e) {
    rmSync(work, { recursive: true, force: true });
    try {
      // A publish that failed once its folder was in place withdraws it now, under the lock.
      retireUnfinished(o.snapshotsDir);
    } catch {
      // The build's own error says more; its link stays, and the next build withdraws the snapshot.
    }
    throw e;
  } finally {
    release();
  }
}

/** Runs one stage of the build, recording how long it took under its name. */
type Timed = <T>(name: string, f: () => T | Promise<T>) => Promise<T>;

/**
 * Everything written from the snapshot database into the work folder's tree: the API tree with its
 * histories and changes, the downloads, the index files, then the pages.
 */
async function writeTreeStages(
  o: BuildOptions,
  work: string,
  id: string,
  keep: number,
  timed: Timed,
): Promise<{ tree: TreeStats; pages: PageStats }> {
  o.onStage?.('tree');
  const treeDir = join(work, 'tree');
  const store = SnapshotStore.open(work);
  try {
    // Company histories and what changed are written in the tree's own pass over the companies.
    const history = await historyOptionsFor(o.snapshotsDir, work);
    const written = await timed('tree', () => writeTree(store, treeDir, { history, onProgress: (n) => o.progress.step(`tree: ${n} files`) }));
    o.progress.step(`tree: ${written.files} files, ${(written.bytes / 1e6).toFixed(1)} MB, ${written.changes.length} companies moved`);
    const changes = await timed('changes', () => writeChangeStages({ store, history, changes: written.changes, treeDir }));

    o.onStage?.('downloads');
    const files = await timed('downloads', () =>
      writeDownloads({
        dbPath: join(work, 'snapshot.sqlite'),
        treeDir,
        outDir: join(treeDir, DOWNLOADS_DIR, id),
        excludeFromArchive: outsideTreeArchive,
      }),
    );
    o.progress.step(`downloads: ${files.length} files`);
    const index = writeIndexFiles({ store, snapshotsDir: o.snapshotsDir, treeDir, id, keep, files });
    const tree = { files: written.files + changes.files + index.files, bytes: written.bytes + changes.bytes + index.bytes };

    // Pages for people, beside the JSON and from the same views (downloads page: the /snapshots body).
    o.onStage?.('pages');
    if (o.pages === false) return { tree, pages: { files: 0, bytes: 0 } };
    const pages = await timed('pages', () => writePages(store, treeDir, index.body));
    o.progress.step(`pages: ${pages.files} files, ${(pages.bytes / 1e6).toFixed(1)} MB`);
    return { tree, pages };
  } finally {
    store.close();
  }
}

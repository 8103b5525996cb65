import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { SnapshotEntry } from '../src/contract/snapshots.js';
import { snapshotsResponseSchema } from '../src/contract/snapshots.js';
import { publishedSnapshotIds } from '../src/snapshot/published.js';
import { historyOptionsFor, writeChangeStages } from './history/stages.js';
import { dropStaleHistoryFiles, storeOwnHistory } from './history/store-steps.js';
import { SnapshotStore } from '../src/snapshot/store.js';
import { DOWNLOADS_DIR, fileForUrlPath, outsideTreeArchive, urls } from '../src/contract/urls.js';
import { snapshotsView } from '../src/views/snapshots.js';
import { openApiDocument } from '../src/contract/openapi.js';
import { openApiExamples } from './tree/openapi-examples.js';
import { writeDownloads } from './downloads/write-downloads.js';
import { buildSnapshotDb, type SnapshotDbSummary } from './snapshot/build-snapshot-db.js';
import type { Progress } from './snapshot/progress.js';
import { acquireBuildLock, makeWorkDir, nextSnapshotId, publishWorkDir, retireUnfinished } from './snapshot/publish.js';
import { pruneSnapshots } from './snapshot/prune.js';
import { prunedSnapshotIds, snapshotsKeepFromEnv } from '../src/snapshot/retention.js';
import type { PageStats } from './pages/page-files.js';
import { writePages } from './pages/write-pages.js';
import { TreeFiles, type TreeStats } from './output/tree-files.js';
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

/** The `/snapshots` entry a published snapshot wrote about itself. */
function entryOf(snapshotDir: string, id: string): SnapshotEntry | undefined {
  const file = join(snapshotDir, 'tree', fileForUrlPath(urls.snapshots));
  if (!existsSync(file)) return undefined;
  const parsed = snapshotsResponseSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  return parsed.success ? parsed.data.data.find((e) => e.dataset_snapshot_id === id) : undefined;
}

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
  const timed = async <T>(name: string, f: () => T | Promise<T>): Promise<T> => {
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
    const treeDir = join(work, 'tree');

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

    o.onStage?.('tree');
    const store = SnapshotStore.open(work);
    let tree: TreeStats;
    let pages: PageStats;
    try {
      // Company histories and what changed are written in the tree's own pass over the companies.
      const history = await historyOptionsFor(o.snapshotsDir, work);
      const written = await timed('tree', () => writeTree(store, treeDir, { history, onProgress: (n) => o.progress.step(`tree: ${n} files`) }));
      o.progress.step(`tree: ${written.files} files, ${(written.bytes / 1e6).toFixed(1)} MB, ${written.changes.length} companies moved`);
      const changes = await timed('changes', () => writeChangeStages({ store, history, changes: written.changes, treeDir }));
      tree = { files: written.files + changes.files, bytes: written.bytes + changes.bytes };

      o.onStage?.('downloads');
      const downloadsUrl = urls.downloads(id);
      const files = await timed('downloads', () =>
        writeDownloads({
          dbPath,
          treeDir,
          outDir: join(treeDir, DOWNLOADS_DIR, id),
          excludeFromArchive: outsideTreeArchive,
        }),
      );
      o.progress.step(`downloads: ${files.length} files`);

      const meta = store.meta;
      const self: SnapshotEntry = {
        dataset_snapshot_id: id,
        data_asof: meta.data_asof,
        methodology_version: meta.methodology_version,
        kind: meta.kind,
        published_at: meta.published_at,
        counts: { companies: store.companyCount(), penalties: store.penaltyCount(), etfs: store.etfs().length, sources: store.sources().length },
        files: files.map((f) => ({ path: `${downloadsUrl}/${f.name}`, bytes: f.bytes, sha256: f.sha256, mediatype: f.mediatype })),
      };
      // /snapshots lists what stays after this publish prunes the oldest beyond `keep`.
      const gone = new Set(prunedSnapshotIds(o.snapshotsDir));
      const earlier = publishedSnapshotIds(o.snapshotsDir)
        .filter((old) => !gone.has(old))
        .slice(1 - keep || Infinity)
        .flatMap((old) => entryOf(join(o.snapshotsDir, old), old) ?? []);
      const body = snapshotsView(meta, [...earlier, self]);
      const snapshotsFile = new TreeFiles(treeDir);
      snapshotsFile.write({ url: urls.snapshots, schema: snapshotsResponseSchema, body });
      // The OpenAPI document last: its examples are bodies of this tree, /snapshots among them.
      snapshotsFile.write({
        url: urls.openapi,
        schema: null,
        body: openApiDocument(meta.methodology_version, openApiExamples(store, treeDir, body)),
      });
      tree = { files: tree.files + 2, bytes: tree.bytes + snapshotsFile.stats.bytes };

      // Pages for people, beside the JSON and from the same views (downloads page: the body above).
      o.onStage?.('pages');
      if (o.pages === false) pages = { files: 0, bytes: 0 };
      else {
        pages = await timed('pages', () => writePages(store, treeDir, body));
        o.progress.step(`pages: ${pages.files} files, ${(pages.bytes / 1e6).toFixed(1)} MB`);
      }
    } finally {
      store.close();
    }

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

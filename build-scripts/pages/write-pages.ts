import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { SnapshotsResponse } from '../../src/contract/snapshots.js';
import { faviconIco } from '../../src/site/favicon.js';
import { scriptMessagesJs } from '../../src/site/i18n/index.js';
import { LOCALES, type Locale } from '../../src/site/i18n/locales.js';
import { ASSETS_DIR, fileForPageUrl, pageUrls, SCALAR_ASSET, SCRIPT_MESSAGES } from '../../src/site/i18n/paths.js';
import type { SnapshotStore } from '../../src/snapshot/store.js';
import { linkOrCopy } from '../downloads/link-or-copy.js';
import { planChunks, type ChunkPlan } from '../tree/company-chunks.js';
import type { PageStats } from './page-files.js';

/**
 * Companies per claimed chunk: half the JSON tree's, as a page costs several times a JSON file and
 * the shared pages (job 0) take one worker for a while; smaller chunks let the others even out.
 */
const CHUNK_SIZE = 500;

const ASSET_SOURCES = join(dirname(fileURLToPath(import.meta.url)), '../../src/site/assets');
/** Scalar's browser bundle (the API reference on /docs/), served from the site itself. */
const SCALAR_BUNDLE = join(dirname(createRequire(import.meta.url).resolve('@scalar/api-reference')), 'browser/standalone.js');

function runWorker(
  snapshotDir: string,
  treeDir: string,
  plan: ChunkPlan,
  snapshots: SnapshotsResponse,
  locales: readonly Locale[],
): Promise<PageStats> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./pages-worker-entry.mjs', import.meta.url), {
      workerData: { snapshotDir, treeDir, plan, snapshots, locales },
    });
    let result: PageStats | null = null;
    let failure: Error | null = null;
    worker.once('message', (m: { stats?: PageStats; error?: { message: string } }) => {
      if (m.error) failure = new Error(`page worker: ${m.error.message}`);
      else result = m.stats!;
    });
    worker.once('error', (e) => (failure ??= e));
    worker.once('exit', (code) => (result ? resolve(result) : reject(failure ?? new Error(`page worker exited with code ${code}`))));
  });
}

/** The static files every page uses: the stylesheet, the small scripts and their texts in every language, Scalar's bundle, the icon. */
function copyAssets(treeDir: string): number {
  const out = join(treeDir, ASSETS_DIR);
  mkdirSync(dirname(join(out, SCALAR_ASSET)), { recursive: true });
  writeFileSync(join(treeDir, fileForPageUrl(pageUrls.favicon)), faviconIco());
  writeFileSync(join(treeDir, fileForPageUrl(pageUrls.asset(SCRIPT_MESSAGES))), scriptMessagesJs());
  const names = readdirSync(ASSET_SOURCES);
  for (const name of names) copyFileSync(join(ASSET_SOURCES, name), join(out, name));
  linkOrCopy(SCALAR_BUNDLE, join(out, SCALAR_ASSET));
  return names.length + 3;
}

/**
 * Renders the pages for people (contract section 8) into the snapshot's tree, beside the JSON:
 * every company page, the rankings and their filters, ETFs, sources, methodology, downloads, docs,
 * in every language (`locales`, by default all: English at the root, the others under their
 * prefix; a worker renders each page's languages one after the other from the same props).
 * Rendering happens only in worker threads (they load .astro components through astro-hooks.mjs),
 * even for a small snapshot: the shared pages and the company pages then render side by side. They
 * claim jobs from one shared counter, like the JSON tree's writer. `snapshots` is the
 * /api/v1/snapshots body the downloads page shows. Company pages also show the history and changes
 * the build already wrote into the snapshot's own tree (`store.dir/tree`, which `treeDir` is in a build).
 */
export async function writePages(
  store: SnapshotStore,
  treeDir: string,
  snapshots: SnapshotsResponse,
  o: { threads?: number; locales?: readonly Locale[] } = {},
): Promise<PageStats> {
  const tickers = store.tickers();
  const plan = planChunks(tickers, CHUNK_SIZE);
  // One worker per core (at most 8), never more than there are jobs (the shared pages, then each chunk).
  const jobs = plan.bounds.length;
  const threads = Math.max(1, Math.min(o.threads ?? availableParallelism(), 8, jobs));
  const assets = copyAssets(treeDir);
  const done = await Promise.allSettled(Array.from({ length: threads }, () => runWorker(store.dir, treeDir, plan, snapshots, o.locales ?? LOCALES)));
  const failed = done.find((d) => d.status === 'rejected');
  if (failed) throw failed.reason;
  return done.reduce(
    (a, d) => {
      const s = (d as PromiseFulfilledResult<PageStats>).value;
      return { files: a.files + s.files, bytes: a.bytes + s.bytes };
    },
    { files: assets, bytes: 0 },
  );
}

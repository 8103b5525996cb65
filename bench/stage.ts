import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { writeDownloads } from '../build-scripts/downloads/write-downloads.js';
import { generateDemo } from '../build-scripts/demo/generate.js';
import { buildSnapshotDb } from '../build-scripts/snapshot/build-snapshot-db.js';
import { silentProgress } from '../build-scripts/snapshot/progress.js';
import { writePages } from '../build-scripts/pages/write-pages.js';
import { LOCALES } from '../src/site/i18n/locales.js';
import { writeTree } from '../build-scripts/tree/write-tree.js';
import { generateDemoSeries } from '../build-scripts/demo/series.js';
import { writeChangeStages } from '../build-scripts/history/stages.js';
import { historyStorage, type HistoryStorage } from '../build-scripts/history/storage.js';
import { demoPublishTime } from '../build-scripts/cli/defaults.js';
import { HISTORY_DB, memberAt } from '../src/snapshot/history-store.js';
import { DOWNLOADS_DIR } from '../src/contract/api-paths.js';
import { outsideTreeArchive } from '../src/contract/urls.js';
import { SnapshotStore } from '../src/snapshot/store.js';
import { ChangesStore } from '../src/snapshot/changes-store.js';
import { scaledChanges } from '../build-scripts/history/scaled-changes.js';
import { writeChangesStore } from '../build-scripts/history/write-changes-store.js';
import { snapshotsView } from '../src/views/snapshots.js';
import { buildAndPublish } from '../build-scripts/build.js';
import { refresh } from '../build-scripts/refresh.js';
import { writePlacedForms } from './placed-forms.js';

/** The demo universe's sizes are not the real market's: the sources' absolute minima are scaled down. */
const BENCH_ASSERT_SCALE = 0.001;
/** history-storage builds each snapshot's pages up to this many companies (beyond, 24 trees of pages outgrow the disk). */
const PAGES_BUILT_UP_TO = 20_000;

/**
 * One build stage in its own process, so its time and peak memory are its own. Prints one JSON
 * line: { ms, maxRssMb, ...facts }. Usage: stage.ts <stage> <work dir> [companies] [more]
 */
const [stage, work, companies] = process.argv.slice(2) as [string, string, string?];
const sources = join(work, 'sources');
const dbDir = join(work, 'snapshot');
const tree = join(dbDir, 'tree');
/** The next month's snapshot (the history pass and changes stage). */
const nextDir = join(work, 'snapshot-next');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

const start = performance.now();
const facts: Record<string, unknown> = {};
let measuredMs: number | undefined;
switch (stage) {
  case 'generate': {
    rmSync(work, { recursive: true, force: true });
    const r = await generateDemo({ outDir: sources, companies: Number(companies) });
    facts.rows = Object.values(r.counts).reduce((a, b) => a + b, 0);
    break;
  }
  case 'snapshot': {
    mkdirSync(dbDir, { recursive: true });
    const s = await buildSnapshotDb({
      sourcesDir: sources,
      dbPath: join(dbDir, 'snapshot.sqlite'),
      snapshotId: '2026-11-01',
      publishedAt: '2026-11-01T00:00:00Z',
      kind: 'demo',
      serviceHost: 'bench.example',
      progress: silentProgress,
    });
    facts.companies = s.companies;
    break;
  }
  case 'tree': {
    // Each measurement starts from no tree and no dirty pages, like the baseline. As a first build
    // writes it: every company's history (its first entry) and an empty /changes in the same pass,
    // which the pages then show.
    rmSync(tree, { recursive: true, force: true });
    execFileSync('sync');
    const store = SnapshotStore.open(dbDir);
    const history = { snapshotDir: dbDir, previousDir: null, earlier: [], previousId: null };
    const t0 = performance.now();
    const written = await writeTree(store, tree, { history });
    const changes = writeChangeStages({ store, history, changes: written.changes, treeDir: tree });
    measuredMs = performance.now() - t0;
    store.close();
    Object.assign(facts, { files: written.files + changes.files, bytes: written.bytes + changes.bytes });
    break;
  }
  case 'tree-baseline': {
    // The same bytes in the order one tree writer writes them (company by company, in ticker order,
    // then the rest), with nothing but mkdirSync + writeFileSync: the floor for the tree stage.
    const rel = filesUnder(join(tree, 'api'))
      .map((f) => relative(tree, f))
      .filter((f) => !f.startsWith(`${DOWNLOADS_DIR}/`));
    const companyKey = (f: string) => /^api\/v1\/company\/([0-9A-Z]+)(\/canonical)?\.json$/.exec(f);
    rel.sort((a, b) => {
      const ka = companyKey(a);
      const kb = companyKey(b);
      if (!ka || !kb) return ka ? -1 : kb ? 1 : 0;
      return ka[1] !== kb[1] ? (ka[1]! < kb[1]! ? -1 : 1) : (ka[2] ? 1 : 0) - (kb[2] ? 1 : 0);
    });
    const contents = rel.map((f) => [f, readFileSync(join(tree, f))] as const);
    const out = join(work, 'baseline');
    rmSync(out, { recursive: true, force: true });
    execFileSync('sync');
    const t0 = performance.now();
    const made = new Set<string>();
    for (const [rel, bytes] of contents) {
      const file = join(out, rel);
      const dir = dirname(file);
      if (!made.has(dir)) {
        mkdirSync(dir, { recursive: true });
        made.add(dir);
      }
      writeFileSync(file, bytes);
    }
    measuredMs = performance.now() - t0;
    facts.files = contents.length;
    rmSync(out, { recursive: true, force: true });
    break;
  }
  case 'pages':
  case 'pages-en': {
    // Pages beside the JSON tree (which must exist); every run starts from no pages. `pages` writes
    // every language, `pages-en` English only (the one-language figure the two languages compare with).
    for (const entry of readdirSync(tree)) if (entry !== 'api') rmSync(join(tree, entry), { recursive: true, force: true });
    execFileSync('sync');
    const store = SnapshotStore.open(dbDir);
    const counts = { companies: store.companyCount(), penalties: store.penaltyCount(), etfs: store.etfs().length, sources: store.sources().length };
    const self = {
      dataset_snapshot_id: store.meta.dataset_snapshot_id,
      data_asof: store.meta.data_asof,
      methodology_version: store.meta.methodology_version,
      kind: store.meta.kind,
      published_at: store.meta.published_at,
      counts,
      files: [],
    };
    const t0 = performance.now();
    const stats = await writePages(store, tree, snapshotsView(store.meta, [self]), { locales: stage === 'pages-en' ? ['en'] : LOCALES });
    measuredMs = performance.now() - t0;
    store.close();
    Object.assign(facts, stats);
    break;
  }
  case 'downloads': {
    // Into the folder a published snapshot has (evidence packs read its CITATION.cff from there).
    const id = SnapshotStore.open(dbDir);
    const outDir = join(tree, DOWNLOADS_DIR, id.meta.dataset_snapshot_id);
    id.close();
    // The pages stage wrote the folder's own page there; the downloads start from an empty folder, as in a build.
    rmSync(outDir, { recursive: true, force: true });
    const files = await writeDownloads({
      dbPath: join(dbDir, 'snapshot.sqlite'),
      treeDir: tree,
      outDir,
      excludeFromArchive: outsideTreeArchive,
    });
    facts.files = files.length;
    facts.bytes = files.reduce((a, f) => a + f.bytes, 0);
    break;
  }
  case 'evolve': {
    // The next month of the same universe (build-scripts/demo/evolve.ts), built into its own snapshot
    // database; the first month's history database (written with its tree) is where its history starts.
    const months = await generateDemoSeries({ outDir: join(work, 'series'), companies: Number(companies), months: 2, asof: '2026-10-31' });
    rmSync(nextDir, { recursive: true, force: true });
    mkdirSync(nextDir, { recursive: true });
    await buildSnapshotDb({
      sourcesDir: months[1]!.dir,
      dbPath: join(nextDir, 'snapshot.sqlite'),
      snapshotId: '2026-12-01',
      publishedAt: '2026-12-01T00:00:00Z',
      kind: 'demo',
      serviceHost: 'bench.example',
      progress: silentProgress,
    });
    break;
  }
  case 'next-tree':
  case 'next-tree-history': {
    // The next month's JSON tree alone, or with the history pass and the changes stage as the build
    // runs them (histories and changes worked out in the tree's pass, then /changes and the feed).
    const nextTree = join(nextDir, 'tree');
    rmSync(nextTree, { recursive: true, force: true });
    execFileSync('sync');
    const store = SnapshotStore.open(nextDir);
    // The first month's own entries (written by the tree stage) are the history store it builds on.
    const first = stage === 'next-tree-history' ? memberAt(join(dbDir, HISTORY_DB)) : null;
    const history = first ? { snapshotDir: nextDir, previousDir: dbDir, earlier: [first], previousId: first.dataset_snapshot_id } : undefined;
    const t0 = performance.now();
    const written = await writeTree(store, nextTree, { history });
    const changes = history ? writeChangeStages({ store, history, changes: written.changes, treeDir: nextTree }) : { files: 0, bytes: 0 };
    measuredMs = performance.now() - t0;
    store.close();
    Object.assign(facts, { files: written.files + changes.files, bytes: written.bytes + changes.bytes, changed: written.changes.length });
    break;
  }
  case 'history-storage': {
    // What company histories take on disk after k published snapshots of the evolving demo at this
    // size (whole builds, SNAPSHOTS_KEEP 24): the history store, the kept trees' history files, and
    // any whole-history database. Usage: stage.ts history-storage <work dir> <companies> [6,12,24]
    const counts = (process.argv[5] ?? '6,12,24').split(',').map(Number);
    const months = await generateDemoSeries({ outDir: join(work, 'series-storage'), companies: Number(companies), months: Math.max(...counts) });
    const snapshotsDir = join(work, 'published-history');
    rmSync(snapshotsDir, { recursive: true, force: true });
    const storage: (HistoryStorage & { snapshots: number; folderDiskBytes: number })[] = [];
    // Beside the history's bytes, the whole folder's (du: blocks on disk), for scale.
    const folderDiskBytes = () => Number(execFileSync('du', ['-s', '-B1', snapshotsDir], { encoding: 'utf8' }).split('\t')[0]);
    // Whole builds carry their pages: at 100,000 companies over 4 GB a snapshot on disk in two
    // languages, so 24 kept snapshots would not fit this machine's disk. History's bytes do not depend
    // on the pages: above PAGES_BUILT_UP_TO companies each snapshot is built without them (its tree
    // keeps the API and downloads), and the folder's figure says so.
    const dropPages = Number(companies) > PAGES_BUILT_UP_TO;
    for (const [i, m] of months.entries()) {
      await buildAndPublish({
        sourcesDir: m.dir,
        snapshotsDir,
        kind: 'demo',
        now: demoPublishTime(m.asof),
        assertScale: BENCH_ASSERT_SCALE,
        serviceHost: 'bench.example',
        progress: silentProgress,
        keep: 24,
        pages: !dropPages,
      });
      if (counts.includes(i + 1)) storage.push({ snapshots: i + 1, ...historyStorage(snapshotsDir), folderDiskBytes: folderDiskBytes() });
    }
    facts.storage = storage;
    facts.pagesDropped = dropPages ? 1 : 0;
    // Left for the bench's own removal of its work folder, once the results are written.
    break;
  }
  case 'changes-month': {
    // The filtered /changes load's month: the evolving demo's second month, whose as-of
    // date passes the reporting deadline (the expected reporting year moves), both months published
    // whole into <work>/published-changes. Under methodology 1.1 that moves about 14 % of the
    // companies (those still disclosing for the old year); a year boundary can move nearly all of
    // them (83,625 of 100,000 once), so the published month's changes database is then rewritten
    // with every company moved, copies of its own items (scaledChanges), as the memory test does.
    const months = await generateDemoSeries({ outDir: join(work, 'series-changes'), companies: Number(companies), months: 2 });
    const snapshotsDir = join(work, 'published-changes');
    rmSync(snapshotsDir, { recursive: true, force: true });
    for (const m of months) {
      await buildAndPublish({
        sourcesDir: m.dir,
        snapshotsDir,
        kind: 'demo',
        now: demoPublishTime(m.asof),
        assertScale: BENCH_ASSERT_SCALE,
        serviceHost: 'bench.example',
        progress: silentProgress,
      });
    }
    rmSync(join(work, 'series-changes'), { recursive: true, force: true });
    const current = SnapshotStore.open(join(snapshotsDir, 'current'));
    const changes = ChangesStore.open(current.dir);
    facts.monthMoved = changes.page({}, 0, 1).total;
    const real = [...changes.entries()];
    const from = changes.fromSnapshotId;
    changes.close();
    writeChangesStore(current.dir, from, scaledChanges(real, Number(companies)));
    const scaled = ChangesStore.open(current.dir);
    facts.moved = scaled.page({}, 0, 1).total;
    scaled.close();
    current.close();
    break;
  }
  case 'placed-forms': {
    // The same universe in the forms the build read before it spoke the publishers' real ones.
    await writePlacedForms(sources, join(work, 'sources-placed'));
    break;
  }
  case 'snapshot-real':
  case 'snapshot-placed': {
    // The database stage (adapters, scoring, writing) from the real forms or from the placed ones.
    const out = join(work, stage);
    rmSync(out, { recursive: true, force: true });
    mkdirSync(out, { recursive: true });
    const s = await buildSnapshotDb({
      sourcesDir: stage === 'snapshot-real' ? sources : join(work, 'sources-placed'),
      dbPath: join(out, 'snapshot.sqlite'),
      snapshotId: '2026-11-01',
      publishedAt: '2026-11-01T00:00:00Z',
      kind: 'demo',
      serviceHost: 'bench.example',
      progress: silentProgress,
    });
    facts.companies = s.companies;
    break;
  }
  case 'build':
  case 'refresh': {
    // A whole build from the real-form folder, or `npm run refresh` fetching that folder from the
    // loopback publishers (their URLs in FETCH_URL_*, set by run.ts) and then building: the fetch must
    // not raise the build's peak memory. The folder is the demo universe, so both build a demo
    // snapshot (a production one is refused: snapshot/snapshot-kind.ts); the kinds differ only in the
    // sources' absolute minima, a check over counts.
    const snapshotsDir = join(work, `published-${stage}`);
    rmSync(snapshotsDir, { recursive: true, force: true });
    const common = {
      snapshotsDir,
      now: new Date('2026-11-02T00:00:00Z'),
      assertScale: BENCH_ASSERT_SCALE,
      serviceHost: 'bench.example',
      progress: silentProgress,
    };
    if (stage === 'build') {
      await buildAndPublish({ ...common, sourcesDir: sources, kind: 'demo' });
    } else {
      const { fetched } = await refresh({
        ...common,
        sourcesDir: join(work, 'refetched'),
        kind: 'demo',
        env: { ...process.env, ASSERT_MIN_SCALE: String(BENCH_ASSERT_SCALE) },
        http: { minIntervalMs: 0 },
        log: () => undefined,
      });
      facts.answers = fetched.files.length;
    }
    rmSync(snapshotsDir, { recursive: true, force: true });
    break;
  }
  default:
    throw new Error(`unknown stage ${stage}`);
}
const ms = measuredMs ?? performance.now() - start;
writeFileSync(1, `${JSON.stringify({ ms: Math.round(ms), maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024), ...facts })}\n`);

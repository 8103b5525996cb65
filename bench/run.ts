import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { KeyStore } from '../server/access/key-store.js';
import { SnapshotStore } from '../src/snapshot/store.js';
import { CAUSE_KINDS } from '../src/contract/vocabulary.js';
import { load, median, medianOf, medianRatio, medians, wrkLoad, type LoadRequest, type LoadResult } from './load.js';
import { paced, saturated } from './paced.js';
import { stallProbe, type StallFigures } from './stall-probe.js';
import { drainRatio, measureDrain } from './drain.js';
import { measureCounters, measureKeyStore, type AccessFigures } from './access.js';
import { checkShare, measureOAuth, type OAuthFigures } from './oauth.js';
import { startPublisherReplay } from './publisher-replay.js';
import { checkOut } from './checkout.js';
import {
  buildWithRevision,
  checkAnswers,
  mcpLookups,
  mcpSection,
  measureMcpRevisions,
  mergeSection,
  MCP_RATE,
  MCP_REVISIONS,
  type McpLookup,
  type McpRevisionFigures,
} from './mcp.js';
import { measureRouter } from './router.js';
import {
  PAGES_ALL_LANGUAGES,
  PAGES_ONE_LANGUAGE,
  met,
  n,
  renderMarkdown,
  type BenchResults,
  type BuildFigures,
  type FormsFigures,
  type FrontFigures,
  type HistoryRuns,
  type LoggingFigures,
  type TailFigures,
  type ChangesFigures,
  type StorageFigures,
  type MeteringFigures,
  type ServeFigures,
  type TreeRuns,
} from './report.js';
import {
  busyOver,
  cpuMs,
  ensureWrk,
  firstChildPid,
  peakRssMb,
  profiled,
  startNginx,
  startRedis,
  startShim,
  startShippedNginx,
  type Running,
  type ShimProfile,
} from './servers.js';
import { urls } from '../src/contract/urls.js';

/**
 * npm run bench [-- --companies 100000] [--sizes 100000] [--storage-companies N|0] [--runs 3] [--seconds 3] [--port 18600] [--rev REV] [--only tail [--work DIR] | --only drain | --only access [--access-keys N] [--access-calls N] | --only mcp [--work DIR] [--rev REV] [--rounds N] | --only router]
 * Measures, in one run on this machine: each build stage at 1,800 companies (and at --companies N),
 * the tree writer against plain fs writes of the same bytes, and serving over loopback — a static
 * file through the shim and through nginx, and every dynamic endpoint — as throughput, latency and
 * ratios. Writes bench/results.md and bench/results.json.
 */
const { values } = parseArgs({
  options: {
    companies: { type: 'string' },
    runs: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '3' },
    out: { type: 'string', default: 'bench' },
    dir: { type: 'string' },
    port: { type: 'string', default: '18600' },
    // History storage takes 24 whole builds: at 100,000 companies over an hour, so a smaller universe by default; 0 skips it.
    'storage-companies': { type: 'string', default: '1800' },
    // Only these sizes (comma-separated), e.g. `--sizes 100000` to measure the large universe alone.
    sizes: { type: 'string' },
    // `--only tail`: build each size's snapshot and tree, measure the tail under 50 connections, print it (no results files);
    // `--only drain` likewise measures what the graceful shutdown's machinery costs (bench/drain.ts);
    // `--only access` the quota counters and the key store at scale (bench/access.ts), on the first size;
    // `--only oauth` MCP lookups with an OAuth access token against a key, and a token check's cost (bench/oauth.ts);
    // `--only mcp` MCP lookups at 2026-07-28 and 2025-11-25, and at 2025-11-25 on --rev's shim (bench/mcp.ts), at
    // --companies N (1,800 without), its section written into results.md in place of the last one at that size;
    // `--only router` the router's reading of dynamic requests against the handlers' own parsing before it (bench/router.ts).
    only: { type: 'string' },
    // The MCP stage's code before (e.g. the commit before a change to /mcp): its shim at 2025-11-25 beside this tree's.
    rev: { type: 'string' },
    // Rounds of the MCP stage (default: --runs, at least 5): its p99s are a few ms, and one hiccup of the machine moves one.
    rounds: { type: 'string' },
    // The key store's size, and the calls a metering run makes, for the access stage.
    'access-keys': { type: 'string', default: '1000000' },
    'access-calls': { type: 'string', default: '200000' },
    // With `--only tail`: a work folder to keep between runs (one size); its snapshot and tree are built only when missing.
    work: { type: 'string' },
  },
});
const runs = Number(values.runs);
const seconds = Number(values.seconds);
const sizes = values.sizes ? values.sizes.split(',').map(Number) : [...new Set([1800, ...(values.companies ? [Number(values.companies)] : [])])];
if (values.only !== undefined && !['tail', 'drain', 'access', 'oauth', 'mcp', 'router'].includes(values.only))
  throw new Error(`--only: the stages that run alone are tail, drain, access, oauth, mcp and router, not ${values.only}`);
// The MCP stage alone measures one size: --companies N's, else the first of --sizes (1,800 without either).
const mcpAloneSize = values.companies && !values.sizes ? Number(values.companies) : sizes[0]!;
if (values.work !== undefined && !((values.only === 'tail' && sizes.length === 1) || values.only === 'mcp'))
  throw new Error('--work: with --only tail and one size (--sizes N), or with --only mcp');
if (values.rev !== undefined && values.only !== undefined && values.only !== 'mcp') throw new Error('--rev: with --only mcp, or in a whole run');
const mcpRounds = values.rounds === undefined ? Math.max(runs, 5) : Number(values.rounds);
if (!(Number.isInteger(mcpRounds) && mcpRounds > 0)) throw new Error(`--rounds: a whole number above 0, not ${values.rounds}`);
if (sizes.some((n) => !Number.isInteger(n) || n < 100)) throw new Error(`--sizes: whole numbers of companies, at least 100: ${values.sizes}`);
// On disk by default, where snapshots are written (--dir /dev/shm measures in memory instead).
const workBase = values.dir ?? tmpdir();
const root = mkdtempSync(join(workBase, 'esg-bench-'));
const log = (m: string) => process.stderr.write(`[bench] ${m}\n`);

/** A stage while this process keeps serving (the loopback publishers of the refresh stage live here). */
function stageAsync(
  name: string,
  work: string,
  companies: number,
  env: Record<string, string>,
): Promise<{ ms: number; maxRssMb: number } & Record<string, number>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/stage.ts', name, work, String(companies)], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop()!)) : reject(new Error(`stage ${name} exited ${code}`)),
    );
  });
}

/**
 * Reading the publishers' real forms against the forms read before (one joined MOENV file, the MOPS
 * CSVs), the database stage in rounds; then a whole build against `npm run refresh`
 * fetching the same folder from loopback publishers and building it, by peak memory.
 */
async function formsFigures(companies: number, work: string): Promise<FormsFigures> {
  stage('placed-forms', work, companies);
  const [realMs = [], placedMs = []] = await inRounds([
    () => stage('snapshot-real', work, companies).ms,
    () => stage('snapshot-placed', work, companies).ms,
  ]);
  const build = stage('build', work, companies);
  const publishers = await startPublisherReplay(join(work, 'sources'));
  try {
    const refreshed = await stageAsync('refresh', work, companies, publishers.urls);
    log(
      `${companies}: real forms ${realMs.join('/')} ms, placed forms ${placedMs.join('/')} ms; build peak ${build.maxRssMb} MB, refresh peak ${refreshed.maxRssMb} MB (${refreshed.answers} answers)`,
    );
    return {
      realMs,
      placedMs,
      buildMs: build.ms,
      buildRssMb: build.maxRssMb,
      refreshMs: refreshed.ms,
      refreshRssMb: refreshed.maxRssMb,
      answers: refreshed.answers!,
    };
  } finally {
    await publishers.close();
  }
}

function stage(name: string, work: string, companies?: number): { ms: number; maxRssMb: number } & Record<string, number> {
  const out = execFileSync(process.execPath, ['--import', 'tsx', 'bench/stage.ts', name, work, String(companies ?? '')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(out.trim().split('\n').pop()!);
}

async function buildFigures(companies: number, work: string): Promise<BuildFigures> {
  const stages: BuildFigures['stages'] = [];
  const timed = (name: string, label: string) => {
    const r = stage(name, work, companies);
    stages.push({ stage: label, ms: r.ms, maxRssMb: r.maxRssMb });
    log(`${companies}: ${label} ${r.ms} ms, peak ${r.maxRssMb} MB`);
    return r;
  };
  timed('generate', 'demo generation');
  timed('snapshot', 'adapters + snapshot');
  const tree = timed('tree', 'JSON tree');
  // The tree writer against plain writes before the pages and downloads: each of its runs writes the
  // tree afresh, API files only, and the serving figures need the whole tree (packs read downloads).
  const medium = workBase === MEMORY_DIR ? 'memory (tmpfs)' : 'disk';
  const onDisk = await alternateTreeRuns(companies, work, medium);
  // English only first, then every language (what a build writes, and what the later stages find).
  timed('pages-en', PAGES_ONE_LANGUAGE);
  timed('pages', PAGES_ALL_LANGUAGES);
  timed('downloads', 'downloads');
  const forms = await formsFigures(companies, work);
  timed('evolve', 'next month: evolve, adapters + snapshot (setup)');
  const history = [await historyRuns(companies, work, medium)];
  const alsoInMemory = workBase !== MEMORY_DIR && existsSync(MEMORY_DIR);
  const inMemory = alsoInMemory
    ? await inMemoryCopy(work, async (memWork) => {
        history.push(await historyRuns(companies, memWork, 'memory (tmpfs)'));
        return alternateTreeRuns(companies, memWork, 'memory (tmpfs)');
      })
    : null;
  return { companies, stages, history, forms, tree: { files: tree.files!, bytes: tree.bytes!, media: inMemory ? [onDisk, inMemory] : [onDisk] } };
}

/** History's storage after 6, 12 and 24 published snapshots (stage.ts history-storage). */
function storageFigures(companies: number, work: string): StorageFigures {
  const out = execFileSync(process.execPath, ['--import', 'tsx', 'bench/stage.ts', 'history-storage', work, String(companies), '6,12,24'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const r = JSON.parse(out.trim().split('\n').pop()!) as { storage: StorageFigures['points']; pagesDropped: number };
  log(`${companies}: history storage ${r.storage.map((p) => `${p.snapshots}: ${(p.bytes / 1e6).toFixed(1)} MB`).join(', ')}`);
  return { companies, points: r.storage, pagesDropped: r.pagesDropped === 1 };
}

/**
 * The next month's tree alone and with the history pass and changes stage, in rounds as for the tree
 * writer (the same disk noise): what history and changes add to the tree stage.
 */
async function historyRuns(companies: number, work: string, medium: string): Promise<HistoryRuns> {
  let changed = 0;
  // Five rounds at least: on this disk the same tree took 15 to 28 s from one round to the next,
  // and the ratio of one round's pair moved between 1.06 and 2.1 (bench/results.md).
  const [treeMs, withHistoryMs] = await inRounds(
    [
      () => stage('next-tree', work, companies).ms,
      () => {
        const w = stage('next-tree-history', work, companies);
        changed = w.changed!;
        return w.ms;
      },
    ],
    Math.max(runs, 5),
  );
  log(`${companies}, ${medium}: next month's tree ${treeMs!.join(', ')} ms; with history and changes ${withHistoryMs!.join(', ')} ms`);
  return { medium, treeMs: treeMs!, withHistoryMs: withHistoryMs!, changed };
}

/** tmpfs, where a file write costs only the kernel's own work. */
const MEMORY_DIR = '/dev/shm';

/**
 * Tree writer and plain-fs baseline, in rounds (`inRounds`), each run from a synced file system
 * (stage.ts): writing 200k files is at the mercy of the kernel's writeback and the device. The
 * baseline writes beside the tree and removes what it wrote, so what is served afterwards is the
 * tree the writer made.
 */
async function alternateTreeRuns(companies: number, work: string, medium: string): Promise<TreeRuns> {
  const [treeMs, baselineMs] = await inRounds([() => stage('tree', work, companies).ms, () => stage('tree-baseline', work, companies).ms]);
  log(`${companies}, ${medium}: tree ${treeMs!.join(', ')} ms; plain fs ${baselineMs!.join(', ')} ms`);
  return { medium, treeMs: treeMs!, baselineMs: baselineMs! };
}

/**
 * The same comparisons with the databases and the trees on tmpfs: no disk noise, the writers' cost
 * laid bare. Copies the snapshot (with its history) and the next month's database.
 */
async function inMemoryCopy<T>(work: string, measure: (memWork: string) => Promise<T>): Promise<T> {
  const memWork = mkdtempSync(join(MEMORY_DIR, 'esg-bench-tree-'));
  try {
    for (const [dir, files] of [
      ['snapshot', ['snapshot.sqlite', 'history.sqlite']],
      ['snapshot-next', ['snapshot.sqlite']],
    ] as const) {
      mkdirSync(join(memWork, dir));
      for (const f of files) copyFileSync(join(work, dir, f), join(memWork, dir, f));
    }
    return await measure(memWork);
  } finally {
    rmSync(memWork, { recursive: true, force: true });
  }
}

function sampleRequests(store: SnapshotStore) {
  const tickers = store
    .firstTickers(store.companyCount())
    .filter((_, i) => i % 7 === 0)
    .slice(0, 500);
  const industries = [...new Set([...store.companies()].slice(0, 5000).map((c) => c.industry))];
  const names = tickers.slice(0, 200).map((t) => store.company(t)!);
  const pick = <T>(xs: T[], i: number) => xs[i % xs.length]!;
  const n = 200;
  const enc = encodeURIComponent;
  const list = (f: (i: number) => LoadRequest) => Array.from({ length: n }, (_, i) => f(i));
  return {
    static: list((i) => ({ path: urls.company(pick(tickers, i)) })),
    canonical: list((i) => ({ path: `${urls.canonical(pick(tickers, i))}?fields=penalties,carbon,flags` })),
    'ranking industry': list((i) => ({ path: `${urls.ranking}?industry=${enc(pick(industries, i))}&page=${(i % 3) + 1}` })),
    'ranking gf': list((i) => ({
      path: `${urls.ranking}?gf=${pick(['GF-F01', 'GF-P02', 'GF-A01', 'GF-P01', 'GF-D01', 'GF-C01', 'GF-V01', 'GF-D02'], i)}&sort=${i % 2 ? 'score_asc' : 'score_desc'}`,
    })),
    'ranking q': list((i) => {
      const name = [...pick(names, i).company_name];
      const len = 1 + (i % 4);
      const from = i % Math.max(1, name.length - len);
      return { path: `${urls.ranking}?q=${enc(name.slice(from, from + len).join(''))}` };
    }),
    'compare 5': list((i) => ({ path: `${urls.compare}?tickers=${[0, 1, 2, 3, 4].map((k) => pick(tickers, i * 5 + k)).join(',')}` })),
    'batch 100': list((i) => ({
      method: 'POST',
      path: urls.batch,
      body: JSON.stringify({ tickers: Array.from({ length: 100 }, (_, k) => pick(tickers, i * 100 + k)) }),
    })),
  };
}

/** 50-company evidence packs, each a different set of companies. */
function packRequests(store: SnapshotStore): LoadRequest[] {
  const tickers = store.firstTickers(store.companyCount()).filter((_, i) => i % 13 === 0);
  return Array.from({ length: 200 }, (_, i) => ({
    method: 'POST',
    path: urls.packs,
    body: JSON.stringify({ tickers: Array.from({ length: 50 }, (_, k) => tickers[(i * 50 + k) % tickers.length]!) }),
  }));
}

/** Evidence packs a second in the packs load. */
const PACK_RATE = 10;

/**
 * What every serving measurement starts from: the built snapshot published as `current`, the sample
 * requests, and keys. `npm start` meters every computed call; the load carries commercial keys whose
 * quotas it never spends, so every call is counted (calls/day, calls/min, and batch/day or csv/day)
 * and answered. batch/day is 10,000 per key whatever the key's own limits: the requests take turns
 * among 20 keys.
 */
function servingSetup(work: string) {
  const published = join(work, 'published');
  mkdirSync(published, { recursive: true });
  symlinkSync('../snapshot', join(published, 'current'));
  const store = SnapshotStore.open(join(work, 'snapshot'));
  const requests = sampleRequests(store);
  const packs = packRequests(store);
  store.close();
  const keysDb = join(work, 'keys.sqlite');
  const keyStore = KeyStore.open(keysDb);
  const keys = Array.from({ length: 20 }, () => keyStore.create({ tier: 'commercial', owner: 'bench', daily: 1e12, perMinute: 1e12 }).key);
  keyStore.close();
  const withKey = (reqs: LoadRequest[]) => reqs.map((r, i) => ({ ...r, headers: { ...r.headers, 'X-API-Key': keys[i % keys.length]! } }));
  return { published, requests, packs, keysDb, withKey };
}

async function serveFigures(companies: number, work: string, port: number): Promise<ServeFigures> {
  const { published, requests, packs, keysDb, withKey } = servingSetup(work);

  const shim = await startShim(published, port, { KEYS_DB: keysDb });
  const nginx = await startNginx(join(work, 'snapshot', 'tree'), port + 1, work);
  const bare = await startShim(published, port + 2, {}, 'bench/unmetered-shim.ts');
  const redis = await startRedis(port + 3);
  const shimRedis = typeof redis === 'string' ? null : await startShim(published, port + 4, { KEYS_DB: keysDb, REDIS_URL: redis.url });
  // The shipped front (deploy/): the generated config, in front of the metered shim.
  const front = await startShippedNginx(published, port + 5, work, [`127.0.0.1:${port}`]);
  // The metered shim again, writing a line per request to a file: what request logs cost.
  const logFile = join(work, 'shim-requests.log');
  const logged = await startShim(published, port + 6, { KEYS_DB: keysDb, LOG_LEVEL: 'info' }, undefined, logFile);
  const throughput: ServeFigures['throughput'] = [];
  const atRate: ServeFigures['atRate'] = [];
  const metering: MeteringFigures[] = [];
  const measure = (base: string, reqs: LoadRequest[]) => medianOf(runs, () => load(base, reqs, { seconds, connections: 10 }));
  try {
    const warm = async (base: string, reqs: LoadRequest[]) => load(base, reqs, { seconds: 1, connections: 4 });
    await warm(shim.base, requests.static);
    const shimStatic = await measure(shim.base, requests.static);
    throughput.push({ name: 'static company file, shim', ...shimStatic });
    log(`${companies}: static via shim ${shimStatic.rps.toFixed(0)} req/s`);
    let nginxStatic: LoadResult | null = null;
    if (typeof nginx !== 'string') {
      nginxStatic = await measure(nginx.base, requests.static);
      throughput.push({ name: 'static company file, nginx (1 worker)', ...nginxStatic });
      log(`${companies}: static via nginx ${nginxStatic.rps.toFixed(0)} req/s`);
    }
    for (const [name, reqs] of Object.entries(requests)) {
      if (name === 'static') continue;
      // The same requests to all three, key header included, so the difference is the metering alone.
      const keyed = withKey(reqs);
      const modes = [
        { label: 'without metering', server: bare },
        { label: 'metered, memory', server: shim },
        ...(shimRedis ? [{ label: 'metered, Redis', server: shimRedis }] : []),
      ].map((m) => ({ ...m, base: m.server.base, reqs: keyed }));
      for (const m of modes) await warm(m.base, m.reqs);
      // Runs alternate between the modes in rounds, so a slow spell on the shared machine hits all of
      // them; the ratio is the median of each round's own ratio (runs seconds apart, on the machine
      // as it was then), over seven rounds at least, as it is a small difference between noisy figures.
      const cpu = modes.map((): number[] => []);
      const perMode = await inRounds(
        modes.map((m, i) => () => loadWithCpu(m.server, m.reqs, cpu[i]!)),
        Math.max(runs, 7),
      );
      const results = perMode.map(medians);
      const rps = (k: number) => perMode[k]!.map((r) => r.rps);
      const ratioTo = (k: number) => medianRatio(rps(k), rps(0));
      modes.forEach((m, i) => {
        throughput.push({ name: `${name} (${m.label})`, ...results[i]!, ratioToStatic: results[i]!.rps / shimStatic.rps });
        log(
          `${companies}: ${name} ${m.label}: ${results[i]!.rps.toFixed(0)} req/s, p99 ${results[i]!.p99} ms, shim CPU ${median(cpu[i]!).toFixed(0)} µs per call`,
        );
      });
      const cpuUs = (i: number) => (cpu[i]!.length > 0 ? median(cpu[i]!) : null);
      metering.push({
        name,
        without: results[0]!.rps,
        memory: results[1]!.rps,
        redis: results[2]?.rps ?? null,
        ratio: { memory: ratioTo(1), redis: results[2] ? ratioTo(2) : null },
        cpuUs: { without: cpuUs(0), memory: cpuUs(1), redis: cpuUs(2) },
      });
      for (const m of modes) {
        const fixed = await medianOf(runs, () => paced(m.base, m.reqs, { seconds, rate: 500 }));
        atRate.push({ name: `${name} (${m.label})`, ...fixed });
        log(`${companies}: ${name} ${m.label} at 500 req/s: p50 ${fixed.p50} ms, p99 ${fixed.p99} ms`);
      }
    }
    // Evidence packs as `npm start` answers them (metered): 10 a second, each 50 companies. A
    // commercial key may make 50 packs a day, so the load takes turns among the 20 keys.
    const packSeconds = Math.max(seconds, 10);
    const packLoad = withKey(packs);
    await paced(shim.base, packLoad.slice(0, 10), { seconds: 1, rate: 10 });
    const packsAtRate = await paced(shim.base, packLoad.slice(10), { seconds: packSeconds, rate: PACK_RATE });
    log(
      `${companies}: 50-company packs at ${PACK_RATE}/s for ${packSeconds} s: p50 ${packsAtRate.p50} ms, p99 ${packsAtRate.p99} ms, ${packsAtRate.non2xx} not 2xx${packsAtRate.statuses ? ` (${JSON.stringify(packsAtRate.statuses)})` : ''}`,
    );
    const mcp = await measureMcp(companies, shim, requests.static!, withKey);
    const frontFigures =
      typeof nginx !== 'string' && typeof front !== 'string'
        ? await measureFront(companies, nginx, front, shim, requests, withKey, throughput)
        : null;
    const logging = await measureLogging(companies, shim, logged, logFile, requests, withKey);
    const { stalls, tail } = await measureTail(companies, published, keysDb, port + 8, requests, withKey);
    const changes = await measureChanges(companies, work, port + 7, keysDb, withKey);
    // Ports 9 and 10 (the next size's first port, free again once these shims are stopped).
    const drain = await measureDrain(published, port + 9, requests, { seconds, rounds: runs, inRounds, log, companies });
    return {
      companies,
      throughput,
      atRate,
      packs: { rate: PACK_RATE, ...packsAtRate },
      mcp,
      metering,
      meteringNote: typeof redis === 'string' ? redis : null,
      shimToNginx: nginxStatic ? shimStatic.rps / nginxStatic.rps : null,
      nginxNote: typeof nginx === 'string' ? nginx : null,
      front: frontFigures,
      logging,
      tail,
      stalls,
      changes,
      drain,
      frontNote: typeof nginx === 'string' ? nginx : typeof front === 'string' ? front : null,
      serverPeakRssMb: peakRssMb(shim.pid),
    };
  } finally {
    await Promise.all([shim.stop(), bare.stop(), logged.stop(), shimRedis?.stop()]);
    if (typeof nginx !== 'string') await nginx.stop();
    if (typeof front !== 'string') await front.stop();
    if (typeof redis !== 'string') await redis.stop();
  }
}

/**
 * The shipped nginx front: a static company file through the generated config against
 * bare nginx on the same file (the config's maps, headers and access log are its whole cost), and
 * every dynamic endpoint through it against the same shim alone (the proxy hop); in rounds, the
 * ratio the median of the rounds' own ratios, as everywhere here. The static files are compared
 * with wrk when it is installed: the config sends the contract's headers (about 340 bytes more per
 * file than bare nginx), and autocannon, parsing them in JavaScript on the same two cores, makes
 * its own cost per byte part of the servers' figures. Its run is kept beside, with each nginx
 * worker's CPU per request, so the three can be read together.
 */
async function measureFront(
  companies: number,
  bare: Running,
  front: Running,
  shim: Running,
  requests: Record<string, LoadRequest[]>,
  withKey: (reqs: LoadRequest[]) => LoadRequest[],
  throughput: ServeFigures['throughput'],
): Promise<FrontFigures> {
  const run = (base: string, reqs: LoadRequest[]) => () => load(base, reqs, { seconds, connections: 10 });
  const paths = requests.static!.map((r) => r.path);
  const useWrk = ensureWrk();
  const workers = [bare, front].map((n) => firstChildPid(n.pid));
  const cpu: [number[], number[]] = [[], []];
  const staticRun = (i: 0 | 1) => async () => {
    const server = i === 0 ? bare : front;
    const worker = workers[i] ?? null;
    const before = worker === null ? null : cpuMs(worker);
    const r = useWrk
      ? wrkLoad(server.base, paths, { seconds, connections: 10 })!
      : await load(server.base, requests.static!, { seconds, connections: 10 });
    const after = worker === null ? null : cpuMs(worker);
    if (before !== null && after !== null && r.rps > 0) cpu[i].push((1000 * (after - before)) / (r.rps * seconds));
    return r;
  };
  await load(front.base, requests.static!, { seconds: 1, connections: 4 });
  const [bareRuns = [], shippedRuns = []] = await inRounds([staticRun(0), staticRun(1)], Math.max(runs, 5));
  const [bareAc = [], shippedAc = []] = useWrk
    ? await inRounds([run(bare.base, requests.static!), run(front.base, requests.static!)], Math.max(runs, 5))
    : [bareRuns, shippedRuns];
  throughput.push({ name: `static company file, nginx with the shipped config (1 worker${useWrk ? ', wrk' : ''})`, ...medians(shippedRuns) });
  const figures: FrontFigures = {
    static: {
      generator: useWrk ? 'wrk' : 'autocannon',
      bare: bareRuns.map((r) => r.rps),
      shipped: shippedRuns.map((r) => r.rps),
      autocannon: { bare: bareAc.map((r) => r.rps), shipped: shippedAc.map((r) => r.rps) },
      cpuUs: { bare: cpu[0].length ? median(cpu[0]) : null, shipped: cpu[1].length ? median(cpu[1]) : null },
      errors: [...bareRuns, ...shippedRuns].reduce((a, r) => a + r.errors + r.non2xx, 0),
    },
    dynamic: [],
  };
  log(`${companies}: static via the shipped nginx config ${medians(shippedRuns).rps.toFixed(0)} req/s (bare ${medians(bareRuns).rps.toFixed(0)})`);
  for (const [name, reqs] of Object.entries(requests)) {
    if (name === 'static') continue;
    const keyed = withKey(reqs);
    await load(front.base, keyed, { seconds: 1, connections: 4 });
    const [direct = [], via = []] = await inRounds([run(shim.base, keyed), run(front.base, keyed)], Math.max(runs, 5));
    throughput.push({ name: `${name} (metered, memory), through nginx`, ...medians(via) });
    figures.dynamic.push({
      name,
      direct: direct.map((r) => r.rps),
      viaNginx: via.map((r) => r.rps),
      errors: [...direct, ...via].reduce((a, r) => a + r.errors + r.non2xx, 0),
    });
    log(`${companies}: ${name} through nginx ${medians(via).rps.toFixed(0)} req/s, shim alone ${medians(direct).rps.toFixed(0)}`);
  }
  return figures;
}

/**
 * One throughput run (10 connections), pushing the server's own CPU time per request (µs, from
 * /proc) onto `cpu`: steadier than req/s on a machine the load generator shares.
 */
async function loadWithCpu(server: Running, reqs: LoadRequest[], cpu: number[]): Promise<LoadResult> {
  const before = cpuMs(server.pid);
  const r = await load(server.base, reqs, { seconds, connections: 10 });
  const after = cpuMs(server.pid);
  if (before !== null && after !== null && r.rps > 0) cpu.push((1000 * (after - before)) / (r.rps * seconds));
  return r;
}

/**
 * Request logs: the metered shim with request lines off against the same shim writing a
 * line per request to a file, on the company-file fast path and two endpoints through Express; in
 * rounds, with the shims' CPU per request. Then every line the logged shim wrote is parsed.
 */
async function measureLogging(
  companies: number,
  quiet: Running,
  logged: Running,
  logFile: string,
  requests: Record<string, LoadRequest[]>,
  withKey: (reqs: LoadRequest[]) => LoadRequest[],
): Promise<LoggingFigures[]> {
  const figures: LoggingFigures[] = [];
  const cases: [string, LoadRequest[]][] = [
    ['static company file (fast path)', requests.static!],
    ['canonical with fields (metered)', withKey(requests.canonical!)],
    ['ranking industry (metered)', withKey(requests['ranking industry']!)],
  ];
  for (const [name, reqs] of cases) {
    const cpu: [number[], number[]] = [[], []];
    for (const server of [quiet, logged]) await load(server.base, reqs, { seconds: 1, connections: 4 });
    const [off = [], on = []] = await inRounds([() => loadWithCpu(quiet, reqs, cpu[0]), () => loadWithCpu(logged, reqs, cpu[1])], Math.max(runs, 7));
    const us = (xs: number[]) => (xs.length > 0 ? median(xs) : null);
    figures.push({ name, quiet: off.map((r) => r.rps), logged: on.map((r) => r.rps), cpuUs: { quiet: us(cpu[0]), logged: us(cpu[1]) } });
    log(
      `${companies}: ${name}: lines off ${medians(off).rps.toFixed(0)} req/s, a line per request ${medians(on).rps.toFixed(0)} req/s; CPU ${us(cpu[0])?.toFixed(0)} / ${us(cpu[1])?.toFixed(0)} µs`,
    );
  }
  await new Promise((r) => setTimeout(r, 100)); // the last lines leave the shim's 20 ms batch
  let lines = 0;
  for (const line of readFileSync(logFile, 'utf8').split('\n')) {
    if (line === '') continue;
    const parsed = JSON.parse(line) as { message?: string };
    if (parsed.message === 'request') lines++;
  }
  figures.at(-1)!.lines = lines;
  return figures;
}

/**
 * Filtered `/changes` on a month in which every company moved (the `changes-month`
 * stage: the demo's year-boundary month published whole, its changes scaled to every company): a
 * metered shim started as `npm start` starts it, paced at the fixed rate over causes, industries,
 * |score_delta| bounds and pages, and its peak RSS.
 */
async function measureChanges(
  companies: number,
  work: string,
  port: number,
  keysDb: string,
  withKey: (reqs: LoadRequest[]) => LoadRequest[],
): Promise<ChangesFigures> {
  const { moved, monthMoved } = stage('changes-month', work, companies);
  const published = join(work, 'published-changes');
  const store = SnapshotStore.open(join(published, 'current'));
  const industries = [...new Set([...store.companies()].slice(0, 5000).map((c) => c.industry))];
  store.close();
  const pages = Math.max(1, Math.floor(moved! / 50));
  const requests: LoadRequest[] = Array.from({ length: 400 }, (_, i) => {
    const q = new URLSearchParams();
    if (i % 2 === 0) q.set('cause', CAUSE_KINDS[i % CAUSE_KINDS.length]!);
    if (i % 3 === 0) q.set('industry', industries[i % industries.length]!);
    if (i % 5 === 0) q.set('min_abs_delta', String(i % 7));
    q.set('limit', '50');
    q.set('page', String(1 + ((i * 7919) % pages))); // deep pages too, past the end now and then
    return { path: `${urls.changes}?${q}` };
  });
  const shim = await startShim(published, port, { KEYS_DB: keysDb });
  try {
    const keyed = withKey(requests);
    await paced(shim.base, keyed, { rate: 100, seconds: 2 });
    const result = await medianOf(runs, () => paced(shim.base, keyed, { rate: FIXED_RATE, seconds: Math.max(seconds, 5) }));
    const peak = peakRssMb(shim.pid);
    log(
      `${companies}: filtered /changes, ${moved} moved (the month itself ${monthMoved}), at ${FIXED_RATE} req/s: p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms; peak RSS ${peak} MB`,
    );
    return { moved: moved!, monthMoved: monthMoved!, rate: FIXED_RATE, result, peakRssMb: peak };
  } finally {
    await shim.stop();
  }
}

/**
 * MCP company lookups at each protocol revision /mcp serves (bench/mcp.ts), metered as
 * `npm start` meters them, paced at MCP_RATE calls a second; every lookup first checked once.
 */
async function measureMcp(
  companies: number,
  shim: Running,
  companyRequests: LoadRequest[],
  withKey: (reqs: LoadRequest[]) => LoadRequest[],
): Promise<McpLookup[]> {
  const rows: McpLookup[] = [];
  for (const revision of MCP_REVISIONS) {
    const keyed = withKey(mcpLookups(companyRequests, revision));
    await checkAnswers(shim.base, keyed, `MCP at ${revision}`);
    await paced(shim.base, keyed, { rate: 100, seconds: 2 });
    const result = await medianOf(runs, () => paced(shim.base, keyed, { rate: MCP_RATE, seconds: Math.max(seconds, 5) }));
    log(
      `${companies}: MCP company lookup at ${revision}, ${MCP_RATE} calls/s: p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, ${result.non2xx} not 2xx`,
    );
    rows.push({ revision, rate: MCP_RATE, ...result });
  }
  return rows;
}

/** The fixed rate of the latency figures. */
const FIXED_RATE = 500;

/**
 * The tail under many connections: first the machine's own stalls (stall-probe.c, the
 * floor under any p99), then every dynamic endpoint at saturation with 50 connections (the median
 * of `runs` runs), then paced at two thirds of the rate it reached, over at most 50 connections, on
 * a shim of its own with /metrics: its GC pauses and worst event-loop delay over each paced run say
 * how much of the tail is the shim's (bench/results.md has what they showed).
 */
async function measureTail(
  companies: number,
  published: string,
  keysDb: string,
  port: number,
  requests: Record<string, LoadRequest[]>,
  withKey: (reqs: LoadRequest[]) => LoadRequest[],
): Promise<{ stalls: StallFigures | null; tail: TailFigures[] }> {
  const stalls = await stallProbe();
  if (stalls) log(`${companies}: the machine's own stalls, one loop per core: longest gaps ${stalls.probes.map((p) => p.maxGapMs).join(', ')} ms`);
  const figures: TailFigures[] = [];
  const shim = await startShim(published, port, { KEYS_DB: keysDb, METRICS_PORT: String(port + 1), METRICS_HOST: '127.0.0.1' });
  try {
    for (const [name, reqs] of Object.entries(requests)) {
      if (name === 'static') continue;
      const keyed = withKey(reqs);
      await saturated(shim.base, keyed, { seconds: 1, connections: 50 });
      // `runs` pairs, each a saturation run and then a paced run at two thirds of that run's rate: on
      // this machine the speed moves by a third and more from one minute to the next, and a rate
      // taken from the median of runs a minute before was, in a slow minute, more than the shim could
      // do (its thread 80-97 % busy where two thirds should keep it near 65 %; bench/results.md).
      // Saturation from the C client in a closed loop (paced.ts): autocannon held POST /batch to half
      // of what the shim answered. Its figures are the median of the runs, as every throughput here.
      const saturations: { result: LoadResult; busy: number | null }[] = [];
      // The paced runs' figures are those of the run with the median p99 (one hiccup of the machine
      // in 5 s, a 15 ms slice of a core taken, moved one run's p99 by tens of ms).
      const pacedRuns: { result: LoadResult & { rate: number }; profile: ShimProfile; busy: number | null }[] = [];
      for (let i = 0; i < runs; i++) {
        const satBusy = busyOver(shim.pid);
        const sat = await saturated(shim.base, keyed, { seconds: Math.max(seconds, 5), connections: 50 });
        saturations.push({ result: sat, busy: satBusy() });
        const rate = Math.max(1, Math.round((sat.rps * 2) / 3));
        const runBusy = busyOver(shim.pid);
        const run = await profiled(`http://127.0.0.1:${port + 1}`, () =>
          paced(shim.base, keyed, { rate, seconds: Math.max(seconds, 5), connections: 50 }),
        );
        pacedRuns.push({ result: { ...run.result, rate }, profile: run.profile, busy: runBusy() });
      }
      const saturation = medians(saturations.map((s) => s.result));
      const satShares = saturations.map((s) => s.busy);
      // The runs are of one length: the share over them all is the mean of each run's.
      const saturationBusy = satShares.every((b) => b !== null) ? satShares.reduce((a, b) => a + b!, 0) / satShares.length : null;
      const { result, profile, busy: pacedBusy } = [...pacedRuns].sort((a, b) => a.result.p99 - b.result.p99)[Math.floor(pacedRuns.length / 2)]!;
      const busy = saturationBusy !== null && pacedBusy !== null ? { saturation: saturationBusy, paced: pacedBusy } : undefined;
      figures.push({
        name,
        saturation,
        paced: result,
        pacedP99s: pacedRuns.map((r) => r.result.p99),
        pacedRates: pacedRuns.map((r) => r.result.rate),
        profile,
        ...(busy && { busy }),
      });
      log(
        `${companies}: ${name}, 50 connections: saturation ${saturation.rps.toFixed(0)} req/s p50 ${saturation.p50} p99 ${saturation.p99} ms; paced ${result.rate} req/s (runs at ${pacedRuns.map((r) => r.result.rate).join(', ')}) p50 ${result.p50.toFixed(1)} p99 ${result.p99.toFixed(1)} ms; shim GC ${profile.gcPauses} pauses ${profile.gcPauseMs} ms (mark-compact ${profile.majorPauses}, ${profile.majorPauseMs} ms), loop delay max ${profile.loopLagMaxMs} ms${busy ? `; shim thread busy ${(busy.saturation * 100).toFixed(0)} % / ${(busy.paced * 100).toFixed(0)} %` : ''}`,
      );
    }
  } finally {
    await shim.stop();
  }
  return { stalls, tail: figures };
}

/**
 * `times` rounds of one run of each function, back to back, the order reversed every other round so
 * none always runs first; every function's results, round by round. On this machine's disk the first
 * heavy write after a pause is several times faster than the next ones (the same tree took 13 s,
 * then 52 and 70 s), and req/s on the shared cores drift by ±15 %: a fixed order, or the best run of
 * each, would credit whichever ran first. Ratios are the median of the rounds' own (`medianRatio`).
 */
async function inRounds<T>(fns: (() => T | Promise<T>)[], times = runs): Promise<T[][]> {
  const results = fns.map((): T[] => []);
  for (let i = 0; i < times; i++) {
    const order = [...fns.keys()];
    if (i % 2 === 1) order.reverse();
    for (const k of order) results[k]![i] = await fns[k]!();
  }
  return results;
}

/** The bounded quota counters against MemoryStore, in rounds; a shim on a key store of --access-keys keys. */
async function accessFigures(published: string, port: number): Promise<AccessFigures> {
  const counters = await measureCounters({ calls: Number(values['access-calls']), rounds: Math.max(runs, 7), log });
  const keyStore = await measureKeyStore({
    published,
    port,
    keys: Number(values['access-keys']),
    rate: 500,
    seconds: Math.max(seconds, 8),
    rounds: runs,
    log,
  });
  return { counters, keyStore };
}

/**
 * The work folder's snapshot as the stages that serve it read it: the serving stage's published
 * link (made here when a stage runs alone, `--only oauth` or `--only mcp`), and its sample requests.
 */
function publishedWork(work: string): { published: string; requests: ReturnType<typeof sampleRequests> } {
  const published = join(work, 'published');
  if (!existsSync(join(published, 'current'))) {
    mkdirSync(published, { recursive: true });
    symlinkSync('../snapshot', join(published, 'current'));
  }
  const store = SnapshotStore.open(join(work, 'snapshot'));
  const requests = sampleRequests(store);
  store.close();
  return { published, requests };
}

/** MCP lookups with an access token against a key, and a token check against a metered REST call. */
async function oauthFigures(companies: number, work: string, port: number): Promise<OAuthFigures> {
  const { published, requests } = publishedWork(work);
  const keysDb = join(work, 'keys.sqlite');
  return measureOAuth({
    companies,
    published,
    keysDb,
    port,
    mcp: mcpLookups(requests.static!, '2025-11-25'),
    rest: requests.canonical!,
    rate: MCP_RATE,
    seconds: Math.max(seconds, 5),
    rounds: runs,
    log,
  });
}

/**
 * MCP lookups at 2026-07-28 and 2025-11-25 on this tree's shim, and with --rev at
 * 2025-11-25 on that revision's shim (its own checkout, removed at the end), on this work folder's
 * snapshot (published as the serving stage publishes it when this stage runs alone).
 */
async function mcpFigures(companies: number, work: string, port: number): Promise<McpRevisionFigures> {
  const { published, requests } = publishedWork(work);
  const checkout = values.rev === undefined ? null : checkOut(values.rev);
  try {
    return await measureMcpRevisions({
      companies,
      published,
      keysDb: join(work, 'keys.sqlite'),
      port,
      companyRequests: requests.static!,
      earlier: checkout
        ? { rev: values.rev!, tree: checkout.tree, buildOwn: () => buildWithRevision(checkout.tree, join(work, 'revision'), companies) }
        : undefined,
      rate: MCP_RATE,
      seconds: Math.max(seconds, 5),
      rounds: mcpRounds,
      log,
    });
  } finally {
    checkout?.remove();
  }
}

const started = Date.now();

/** A folder removed by `rm -rf` in a process of its own while the run goes on; settles when it is gone. */
function removeInBackground(dir: string): Promise<void> {
  return new Promise((resolve) => spawn('rm', ['-rf', dir], { stdio: 'ignore' }).on('close', () => resolve()));
}
let removing: Promise<void> | undefined;

const results: BenchResults = {
  measured_at: new Date().toISOString(),
  machine: { cores: cpus().length, cpu: cpus()[0]?.model ?? 'unknown', node: process.version, platform: `${process.platform} ${process.arch}` },
  settings: {
    runs,
    seconds,
    connections: 10,
    fixedRate: 500,
    workDir: workBase,
    pacedGenerator: 'C',
    tailSaturationRuns: runs,
    tailGenerator: 'C',
    tailPacedRuns: runs,
    tailPaired: true,
  },
  builds: [],
  serving: [],
  durationSeconds: 0,
};

function writeResults(): void {
  results.durationSeconds = Math.round((Date.now() - started) / 1000);
  mkdirSync(values.out, { recursive: true });
  writeFileSync(join(values.out, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(join(values.out, 'results.md'), renderMarkdown(results));
}

try {
  let port = Number(values.port);
  if (values.only === 'tail') {
    // The tail alone, on a snapshot and tree built for it: a quick check, not a results file.
    for (const companies of sizes) {
      const work = values.work ?? join(root, String(companies));
      if (!existsSync(join(work, 'snapshot', 'tree'))) for (const name of ['generate', 'snapshot', 'tree']) stage(name, work, companies);
      // A kept folder serves again: its previous run's published link and keys go first.
      for (const made of ['published', 'keys.sqlite']) rmSync(join(work, made), { recursive: true, force: true });
      const { published, requests, keysDb, withKey } = servingSetup(work);
      const { stalls, tail } = await measureTail(companies, published, keysDb, port, requests, withKey);
      process.stdout.write(`${JSON.stringify({ companies, stalls, tail }, null, 2)}\n`);
      if (values.work === undefined) rmSync(work, { recursive: true, force: true });
      port += 10;
    }
    rmSync(root, { recursive: true, force: true });
    process.exit(0); // before the whole run's stages below
  }
  if (values.only === 'router') {
    process.stdout.write(`${JSON.stringify(measureRouter(), null, 2)}\n`);
    rmSync(root, { recursive: true, force: true });
    process.exit(0);
  }
  if (values.only === 'access') {
    const work = join(root, String(sizes[0]));
    for (const name of ['generate', 'snapshot', 'tree']) stage(name, work, sizes[0]!);
    const access = await accessFigures(servingSetup(work).published, port);
    process.stdout.write(`${JSON.stringify(access, null, 2)}\n`);
    rmSync(root, { recursive: true, force: true });
    process.exit(0);
  }
  if (values.only === 'oauth') {
    const work = join(root, String(sizes[0]));
    for (const name of ['generate', 'snapshot', 'tree']) stage(name, work, sizes[0]!);
    const oauth = await oauthFigures(sizes[0]!, work, port);
    process.stdout.write(`${JSON.stringify({ ...oauth, checkShare: checkShare(oauth) }, null, 2)}\n`);
    rmSync(root, { recursive: true, force: true });
    process.exit(0);
  }
  if (values.only === 'mcp') {
    // A kept folder (--work) is built only where it lacks the snapshot and tree.
    const work = values.work ?? join(root, String(mcpAloneSize));
    if (!existsSync(join(work, 'snapshot', 'tree'))) for (const name of ['generate', 'snapshot', 'tree']) stage(name, work, mcpAloneSize);
    const figures = await mcpFigures(mcpAloneSize, work, port);
    process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
    const command = `npm run bench -- ${process.argv.slice(2).join(' ')}`;
    mergeSection(join(values.out, 'results.md'), mcpSection(figures, n, met, { targets: true, command }));
    log(`the MCP section is in ${join(values.out, 'results.md')}`);
    rmSync(root, { recursive: true, force: true });
    process.exit(0);
  }
  if (values.only === 'drain') {
    for (const companies of sizes) {
      const work = join(root, String(companies));
      for (const name of ['generate', 'snapshot', 'tree']) stage(name, work, companies);
      const { published, requests } = servingSetup(work);
      const drain = await measureDrain(published, port, requests, { seconds, rounds: runs, inRounds, log, companies });
      process.stdout.write(`${JSON.stringify({ companies, drain: drain.map((d) => ({ ...d, ratio: drainRatio(d) })) }, null, 2)}\n`);
      rmSync(work, { recursive: true, force: true });
      port += 10;
    }
    rmSync(root, { recursive: true, force: true });
    process.exit(0);
  }
  const storageCompanies = Number(values['storage-companies']);
  for (const companies of sizes) {
    const work = join(root, String(companies));
    results.builds.push(await buildFigures(companies, work));
    results.serving.push(await serveFigures(companies, work, port));
    // Once a run, on the first size's snapshot: the key store's size is what it measures.
    results.access ??= await accessFigures(join(work, 'published'), port + 500);
    results.oauth ??= await oauthFigures(companies, work, port + 510);
    // Once a run, at the largest size (the targets' own, 100,000 companies).
    if (companies === sizes.at(-1)) results.mcpRevisions = await mcpFigures(companies, work, port + 520);
    port += 10;
    // Written as each size is done, before its folder's removal (at 100,000 companies some two
    // million files, over 13 minutes here) and the storage stage (an hour): a stop in either
    // cannot cost the figures. Written again with the storage figures at the end.
    writeResults();
    // The last size's folder goes while the storage stage runs, which counts bytes, not time: the
    // whole run at 100,000 companies is then some 13 minutes shorter. Earlier sizes go before the
    // next size's timed stages.
    if (companies === sizes.at(-1) && storageCompanies > 0) removing = removeInBackground(work);
    else rmSync(work, { recursive: true, force: true });
  }
  // Once per run, at --storage-companies, and last: it only counts bytes, and at 100,000 companies
  // its 24 published snapshots are some 7 million files, whose removal took over an hour here.
  if (storageCompanies > 0) {
    const storageWork = join(root, 'storage');
    mkdirSync(storageWork, { recursive: true });
    results.builds[0]!.storage = storageFigures(storageCompanies, storageWork);
  }
  writeResults();
  log(`done in ${results.durationSeconds} s: ${join(values.out, 'results.md')}; removing the work folders`);
} finally {
  await removing;
  rmSync(root, { recursive: true, force: true });
}

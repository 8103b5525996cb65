import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { load, median, medianRatio, type LoadRequest, type LoadResult } from './load.js';
import { cpuMs } from './servers.js';
import { urls } from '../src/contract/urls.js';
import { API_BASE } from '../src/contract/api-paths.js';

/**
 * npm run bench:serving-against -- --rev REV [--companies 1800] [--rounds 5] [--seconds 3] [--connections 10] [--port 18700]
 *
 * The shim of this tree against the shim of an earlier revision, serving the same published
 * snapshot (built by this tree) in one run on this machine: for each endpoint, rounds of a load
 * against each in turn, the order swapped every other round, so that the machine's slow spells fall
 * on both. Prints each endpoint's req/s, the shim's CPU per request (steadier on a shared machine)
 * and p99 on both sides, and the medians of the paired ratios (this tree ÷ the revision), for targets such as "static file and dynamic endpoints at least
 * as fast as today". Both shims are bench/unmetered-shim.ts (no keys or quotas): the
 * routing and serving code alone. The revision is checked out into a temporary git worktree and
 * removed at the end; it uses this tree's node_modules and must read this tree's snapshot format.
 */
const { values } = parseArgs({
  options: {
    rev: { type: 'string' },
    companies: { type: 'string', default: '1800' },
    rounds: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '10' },
    port: { type: 'string', default: '18700' },
  },
});
if (!values.rev) throw new Error('--rev REV: the revision to compare with (e.g. the commit before a change)');
const rounds = Number(values.rounds);
const o = { seconds: Number(values.seconds), connections: Number(values.connections) };
const here = resolve(import.meta.dirname, '..');
const scratch = mkdtempSync(join(tmpdir(), 'bench-serving-against-'));
const base = join(scratch, 'tree');
const snapshotsDir = join(scratch, 'snapshots');

async function startShim(tree: string, port: number): Promise<{ base: string; pid: number; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ['--max-semi-space-size=4', '--max-old-space-size=160', '--import', 'tsx', 'bench/unmetered-shim.ts'], {
    cwd: tree,
    env: { ...process.env, SNAPSHOTS_DIR: snapshotsDir, PORT: String(port), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 60_000; ;) {
    if (child.exitCode !== null) throw new Error(`${tree}: the shim exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`${tree}: the shim was not ready within 60 s`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const stop = () =>
    new Promise<void>((done) => {
      if (child.exitCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGTERM');
    });
  return { base: url, pid: child.pid!, stop };
}

execFileSync('git', ['worktree', 'add', '--detach', base, values.rev], { cwd: here, stdio: 'inherit' });
const shims: { stop: () => Promise<void> }[] = [];
try {
  if (!existsSync(join(base, 'node_modules'))) symlinkSync(join(here, 'node_modules'), join(base, 'node_modules'));
  execFileSync(
    process.execPath,
    ['--import', 'tsx', 'build-scripts/cli/demo.ts', '--companies', values.companies!, '--sources', join(scratch, 'sources')],
    {
      cwd: here,
      env: { ...process.env, SNAPSHOTS_DIR: snapshotsDir },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const now = await startShim(here, Number(values.port));
  shims.push(now);
  const then = await startShim(base, Number(values.port) + 1);
  shims.push(then);
  const ranking = (await (await fetch(`${now.base}${urls.ranking}?limit=3`)).json()) as { data: { ticker: string }[] };
  const [a, b, c] = ranking.data.map((i) => i.ticker) as [string, string, string];
  const endpoints: { name: string; requests: LoadRequest[] }[] = [
    { name: 'company file (static)', requests: [{ path: urls.company(a) }] },
    { name: 'canonical file (static)', requests: [{ path: urls.canonical(b) }] },
    { name: 'ranking page 2 (static)', requests: [{ path: urls.rankingPage(2) }] },
    { name: 'methodology (static)', requests: [{ path: urls.methodology }] },
    { name: 'ranking ?limit=10 (computed)', requests: [{ path: `${urls.ranking}?limit=10&sort=score_asc` }] },
    { name: 'canonical ?fields= (computed)', requests: [{ path: `${urls.canonical(c)}?fields=flags,carbon` }] },
    { name: 'compare (computed)', requests: [{ path: `${urls.compare}?tickers=${a},${b},${c}` }] },
    { name: 'POST /batch (computed)', requests: [{ method: 'POST', path: urls.batch, body: JSON.stringify({ tickers: [a, b, c] }) }] },
    { name: 'unknown path (404)', requests: [{ path: `${API_BASE}/nothing/here` }] },
  ];
  console.log(`this tree against ${values.rev}, ${values.companies} companies, ${rounds} rounds of ${o.seconds} s at ${o.connections} connections`);
  /** One load run, with the shim's CPU per answered request (steadier than req/s when the machine is shared). */
  const run = async (shim: { base: string; pid: number }, requests: LoadRequest[]) => {
    const cpu0 = cpuMs(shim.pid)!;
    const r = await load(shim.base, requests, o);
    return { ...r, cpuUs: ((cpuMs(shim.pid)! - cpu0) * 1000) / (r.rps * o.seconds) };
  };
  for (const e of endpoints) {
    const mine: (LoadResult & { cpuUs: number })[] = [];
    const theirs: (LoadResult & { cpuUs: number })[] = [];
    for (let r = 0; r < rounds; r++) {
      if (r % 2 === 0) {
        mine.push(await run(now, e.requests));
        theirs.push(await run(then, e.requests));
      } else {
        theirs.push(await run(then, e.requests));
        mine.push(await run(now, e.requests));
      }
    }
    const failed = [...mine, ...theirs].some((x) => x.errors > 0) ? ' (errors!)' : '';
    const rps = medianRatio(
      mine.map((x) => x.rps),
      theirs.map((x) => x.rps),
    );
    const cpu = medianRatio(
      mine.map((x) => x.cpuUs),
      theirs.map((x) => x.cpuUs),
    );
    const m = (xs: { rps: number; cpuUs: number; p99: number }[], k: 'rps' | 'cpuUs' | 'p99') => Math.round(median(xs.map((x) => x[k])));
    console.log(
      `${e.name.padEnd(30)} req/s ${m(mine, 'rps')} against ${m(theirs, 'rps')}: ratio ${rps.toFixed(3)}; CPU ${m(mine, 'cpuUs')} against ${m(theirs, 'cpuUs')} µs a request: ratio ${cpu.toFixed(3)}; p99 ${m(mine, 'p99')} against ${m(theirs, 'p99')} ms${failed}`,
    );
  }
} finally {
  for (const s of shims) await s.stop();
  execFileSync('git', ['worktree', 'remove', '--force', base], { cwd: here, stdio: 'inherit' });
  rmSync(scratch, { recursive: true, force: true });
}

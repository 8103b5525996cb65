import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';
import { nginxConfig } from '../build-scripts/deploy/nginx-config.js';
import { urls } from '../src/contract/urls.js';
import { API_BASE } from '../src/contract/api-paths.js';

export interface Running {
  base: string;
  pid: number;
  stop(): Promise<void>;
}

async function waitFor(url: string, child: ChildProcess, seconds = 120): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: server exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not become ready in ${seconds} s`);
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((resolveStop) => {
      if (child.exitCode !== null) return resolveStop();
      child.once('exit', () => resolveStop());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5000).unref();
    });
}

/**
 * The shim exactly as `npm start` runs it (same node flags), on a loopback port, serving
 * `snapshotsDir`; `env` adds settings (KEYS_DB, REDIS_URL, LOG_LEVEL), `entry` replaces
 * server/start.ts (the metering baseline), `logFile` receives its log lines.
 */
export function startShim(snapshotsDir: string, port: number, env: Record<string, string> = {}, entry?: string, logFile?: string): Promise<Running> {
  return startShimOf('.', snapshotsDir, port, env, entry, logFile);
}

/** The same, the shim of another checkout (`tree`, bench/checkout.ts) as its own `npm start` runs it. */
export async function startShimOf(
  tree: string,
  snapshotsDir: string,
  port: number,
  env: Record<string, string> = {},
  entry?: string,
  logFile?: string,
): Promise<Running> {
  // `npm start` first makes sure a snapshot exists, then runs the server: the last command is the server's.
  const script = (JSON.parse(readFileSync(join(tree, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
  const start = script
    .split('&&')
    .at(-1)!
    .trim()
    .replace(/^exec\s+/, '')
    .split(/\s+/); // `exec node …` (the script's own process becomes node)
  if (start[0] !== 'node') throw new Error(`npm start does not end in a plain node command: ${script}`);
  const args = start.slice(1);
  if (entry) args[args.length - 1] = entry;
  // Request lines off (LOG_LEVEL=warn) unless asked for: at info a shim writes a line per request,
  // which the bench's own stderr should not carry. `logFile` takes the shim's stderr, as a journal would.
  const child = spawn(process.execPath, args, {
    cwd: tree,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env, SNAPSHOTS_DIR: snapshotsDir, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', logFile ? openSync(logFile, 'a') : 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/readyz`, child);
  return { base, pid: child.pid!, stop: stopper(child) };
}

/** Debian's redis-server on loopback, nothing persisted; a note instead when it is not installed. */
export async function startRedis(port: number): Promise<(Running & { url: string }) | string> {
  const bin = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find(existsSync);
  if (!bin) return 'redis-server is not installed';
  const child = spawn(bin, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const deadline = Date.now() + 10_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) return `redis-server did not start on port ${port}`;
    await new Promise((r) => setTimeout(r, 50));
  }
  return { base: `redis://127.0.0.1:${port}`, url: `redis://127.0.0.1:${port}`, pid: child.pid!, stop: stopper(child) };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Debian's nginx binary (as root, installed when missing), or null. */
function nginxBinary(): string | null {
  let nginx = ['/usr/sbin/nginx', '/usr/bin/nginx'].find(existsSync);
  if (!nginx && process.getuid?.() === 0) {
    spawnSync(
      'sh',
      [
        '-c',
        'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx',
      ],
      { stdio: 'ignore' },
    );
    nginx = ['/usr/sbin/nginx', '/usr/bin/nginx'].find(existsSync);
  }
  return nginx ?? null;
}

/** Installs Debian's wrk when missing and this runs as root (bench/load.ts `wrkLoad` finds it); false when it is not there. */
export function ensureWrk(): boolean {
  const found = () => ['/usr/bin/wrk', '/usr/local/bin/wrk'].some(existsSync);
  if (!found() && process.getuid?.() === 0) {
    spawnSync(
      'sh',
      [
        '-c',
        'DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk)',
      ],
      { stdio: 'ignore' },
    );
  }
  return found();
}

/** The first child of a process (an nginx master's worker), from /proc; null where there is none. */
export function firstChildPid(pid: number): number | null {
  try {
    const first = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/)[0];
    return first ? Number(first) : null;
  } catch {
    return null;
  }
}

/** nginx, if installed (as root, installed from Debian when missing), serving the same tree. */
export async function startNginx(treeDir: string, port: number, workDir: string): Promise<Running | string> {
  const nginx = nginxBinary();
  if (!nginx) return 'nginx is not installed (and could not be installed)';
  const prefix = resolve(workDir, 'nginx');
  mkdirSync(join(prefix, 'logs'), { recursive: true });
  const conf = join(prefix, 'nginx.conf');
  // One worker, like the single Node process of the shim; the tree mapped as docs/snapshots.md documents.
  writeFileSync(
    conf,
    `${process.getuid?.() === 0 ? 'user root;\n' : ''}worker_processes 1;
daemon off;
pid ${prefix}/nginx.pid;
error_log ${prefix}/logs/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${prefix}/body; proxy_temp_path ${prefix}/proxy; fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi; scgi_temp_path ${prefix}/scgi;
  sendfile on; tcp_nopush on; keepalive_requests 100000;
  server {
    listen 127.0.0.1:${port};
    root ${resolve(treeDir)};
    location ${API_BASE}/ {
      default_type application/json;
      add_header Access-Control-Allow-Origin * always;
      add_header Cache-Control "public, max-age=3600" always;
      try_files $uri.json $uri/index.json =404;
    }
  }
}
`,
  );
  const child = spawn(nginx, ['-p', prefix, '-c', conf], { stdio: ['ignore', 'ignore', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}${urls.methodology}`, child, 20);
  return { base, pid: child.pid!, stop: stopper(child) };
}

/**
 * nginx with the shipped config (`npm run deploy:nginx`, build-scripts/deploy/nginx-config.ts) in
 * front of `upstreams`, serving `snapshotsDir` (its `current`) as deploy/README.md runs it, access
 * log and all; one worker, as the bare nginx above, so the two compare the config alone.
 */
export async function startShippedNginx(snapshotsDir: string, port: number, workDir: string, upstreams: string[]): Promise<Running | string> {
  const nginx = nginxBinary();
  if (!nginx) return 'nginx is not installed (and could not be installed)';
  const runtimeDir = resolve(workDir, 'nginx-front');
  for (const t of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(runtimeDir, 'tmp', t), { recursive: true });
  const conf = join(runtimeDir, 'nginx.conf');
  // As root, workers would run as nobody: the bench's work folder (mkdtemp) is its owner's alone.
  writeFileSync(
    conf,
    nginxConfig({
      snapshotsDir: resolve(snapshotsDir),
      upstreams,
      listen: `127.0.0.1:${port}`,
      runtimeDir,
      workerProcesses: 1,
      user: process.getuid?.() === 0 ? 'root' : undefined,
    }),
  );
  const child = spawn(nginx, ['-p', runtimeDir, '-c', conf, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}${urls.methodology}`, child, 20);
  return { base, pid: child.pid!, stop: stopper(child) };
}

/** Peak resident memory of a process so far (VmHWM), in MB. */
export function peakRssMb(pid: number): number | null {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/** A process's CPU time so far (user + system, ms) from /proc; null where there is no /proc. */
export function cpuMs(pid: number): number | null {
  try {
    // Fields after the command name (which may hold spaces, hence the last ')'): utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}
/**
 * From now, a function giving the share of the wall time a process's main thread (the shim's event
 * loop) has run on a core since, from the scheduler's own account (/proc/PID/task/PID/schedstat, in
 * ns): how busy the loop was, GC helpers and other threads excluded. null where there is no /proc.
 */
export function busyOver(pid: number): () => number | null {
  const ranMs = () => {
    try {
      return Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
    } catch {
      return null;
    }
  };
  const ran = ranMs();
  const t0 = performance.now();
  return () => {
    const now = ranMs();
    return ran === null || now === null ? null : (now - ran) / (performance.now() - t0);
  };
}
/** USER_HZ: 100 on Linux for every architecture the kernel exports to /proc. */
const CLOCK_TICKS = 100;

/** The shim's own view of a load (its /metrics on METRICS_PORT): GC pauses and the event loop's worst delay. */
export interface ShimProfile {
  gcPauses: number;
  gcPauseMs: number;
  /** Pauses of the mark-compact kinds (major, incremental), which are the long ones. */
  majorPauses: number;
  majorPauseMs: number;
  loopLagMaxMs: number;
}

/**
 * Reads a shim's /metrics before and after `work`: prom-client's GC histogram (by kind) and the
 * event-loop delay monitor, which it resets on every scrape, so the maximum after is the work's own.
 */
export async function profiled<T>(metricsBase: string, work: () => Promise<T>): Promise<{ result: T; profile: ShimProfile }> {
  const scrape = async () => (await fetch(`${metricsBase}/metrics`)).text();
  const gc = (text: string) => {
    const out = { pauses: 0, ms: 0, majorPauses: 0, majorMs: 0 };
    for (const m of text.matchAll(/^nodejs_gc_duration_seconds_(sum|count)\{kind="(\w+)"\} ([\d.e+-]+)$/gm)) {
      const major = m[2] === 'major' || m[2] === 'incremental';
      const v = Number(m[3]);
      if (m[1] === 'count') {
        out.pauses += v;
        if (major) out.majorPauses += v;
      } else {
        out.ms += v * 1000;
        if (major) out.majorMs += v * 1000;
      }
    }
    return out;
  };
  const before = gc(await scrape());
  const result = await work();
  const text = await scrape();
  const after = gc(text);
  const lag = /^nodejs_eventloop_lag_max_seconds ([\d.e+-]+)$/m.exec(text);
  const round = (x: number) => Math.round(x * 10) / 10;
  return {
    result,
    profile: {
      gcPauses: after.pauses - before.pauses,
      gcPauseMs: round(after.ms - before.ms),
      majorPauses: after.majorPauses - before.majorPauses,
      majorPauseMs: round(after.majorMs - before.majorMs),
      loopLagMaxMs: lag ? round(Number(lag[1]) * 1000) : NaN,
    },
  };
}

import autocannon from 'autocannon';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface LoadRequest {
  method?: 'GET' | 'POST';
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** How many answers had each status other than 2xx (the paced load counts them), so a failing load says why. */
  statuses?: Record<string, number>;
}

/**
 * Runs autocannon against one server for a fixed time, as fast as `connections` allow (throughput),
 * cycling through `requests`. Latency at a fixed rate is paced.ts's job.
 */
export async function load(base: string, requests: LoadRequest[], o: { seconds: number; connections: number }): Promise<LoadResult> {
  const result = await autocannon({
    url: base,
    connections: o.connections,
    duration: o.seconds,
    requests: requests.map((r) => ({
      method: r.method ?? 'GET',
      path: r.path,
      ...(r.body ? { body: r.body, headers: { 'content-type': 'application/json', ...r.headers } } : { headers: r.headers }),
    })),
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/**
 * The median of paired ratios `a[i] / b[i]`: runs made back to back, on the machine as it was then,
 * compared with each other rather than with runs made minutes apart.
 */
export function medianRatio(a: readonly number[], b: readonly number[]): number {
  return median(a.map((x, i) => x / b[i]!));
}

/** Repeats a load run and keeps the median of each figure. */
export async function medianOf(runs: number, f: () => Promise<LoadResult>): Promise<LoadResult> {
  const all: LoadResult[] = [];
  for (let i = 0; i < runs; i++) all.push(await f());
  return medians(all);
}

/** The median of each figure of several load runs; errors are summed. */
export function medians(all: LoadResult[]): LoadResult {
  return {
    rps: median(all.map((r) => r.rps)),
    p50: median(all.map((r) => r.p50)),
    p99: median(all.map((r) => r.p99)),
    errors: all.reduce((a, r) => a + r.errors, 0),
    non2xx: all.reduce((a, r) => a + r.non2xx, 0),
  };
}

/**
 * The same fixed-time throughput run with wrk (Debian's, written in C), GET only, cycling through
 * `paths` from a Lua script; null when wrk is not installed. For comparisons of two servers that
 * send different header bytes: autocannon parses every response in JavaScript on the same two
 * cores, so its own cost per byte shows in the servers' req/s, where wrk's hardly does.
 */
export function wrkLoad(base: string, paths: string[], o: { seconds: number; connections: number }): LoadResult | null {
  const wrk = ['/usr/bin/wrk', '/usr/local/bin/wrk'].find(existsSync);
  if (!wrk) return null;
  const dir = mkdtempSync(join(tmpdir(), 'esg-wrk-'));
  try {
    const script = join(dir, 'paths.lua');
    writeFileSync(
      script,
      `local paths = ${luaList(paths)}\nlocal n = 0\nrequest = function()\n  n = n % #paths + 1\n  return wrk.format("GET", paths[n])\nend\n`,
    );
    const out = execFileSync(wrk, ['-t1', `-c${o.connections}`, `-d${o.seconds}s`, '--latency', '-s', script, base], {
      encoding: 'utf8',
      timeout: (o.seconds + 30) * 1000,
    });
    const num = (re: RegExp) => Number(re.exec(out)?.[1] ?? 0);
    const ms = (label: string) => {
      const m = new RegExp(`^\\s*${label}%\\s+([\\d.]+)(us|ms|s)\\s*$`, 'm').exec(out);
      if (!m) return NaN;
      return Number(m[1]) * ({ us: 0.001, ms: 1, s: 1000 } as const)[m[2] as 'us' | 'ms' | 's'];
    };
    const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
    const rps = num(/Requests\/sec:\s+([\d.]+)/);
    if (!(rps > 0)) throw new Error(`wrk printed no rate:\n${out}`);
    return {
      rps,
      p50: ms('50'),
      p99: ms('99'),
      errors: socket ? socket.slice(1).reduce((a, x) => a + Number(x), 0) : 0,
      non2xx: num(/Non-2xx or 3xx responses:\s+(\d+)/),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A Lua list of strings (paths hold no quote or backslash; refused if one does). */
function luaList(items: string[]): string {
  for (const s of items) if (/["\\\n]/.test(s)) throw new Error(`not a plain path: ${s}`);
  return `{ ${items.map((s) => `"${s}"`).join(', ')} }`;
}

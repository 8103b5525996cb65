import { execFile, fork } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileC } from './compile-c.js';
import type { LoadRequest, LoadResult } from './load.js';
import type { PacedJob } from './paced-client.js';
import { requestBytes } from './request-bytes.js';

/**
 * An open-loop load at a fixed rate, run in a process of its own so that neither the bench's heap nor
 * its event loop sits between a request's due time and its sending: paced-client.c where a C compiler
 * is here (it spends a fraction of the CPU per request that Node does, CPU the shim it measures would
 * otherwise lose on two shared cores), else paced-client.ts. autocannon's fixed rate sends each
 * second's quota in a burst, which measures the burst, not the rate.
 */
export function paced(base: string, requests: LoadRequest[], o: { rate: number; seconds: number; connections?: number }): Promise<LoadResult> {
  const job: PacedJob = { base, requests, rate: o.rate, seconds: o.seconds, connections: o.connections ?? 256 };
  const binary = compileC('paced-client');
  return binary ? pacedInC(binary, job) : pacedInNode(job);
}

/** Which generator `paced` uses on this machine, for the results' header. */
export function pacedGenerator(): 'C' | 'Node' {
  return compileC('paced-client') ? 'C' : 'Node';
}

function pacedInC(binary: string, job: PacedJob): Promise<LoadResult> {
  const { hostname, port, host } = new URL(job.base);
  const dir = mkdtempSync(join(tmpdir(), 'esg-paced-'));
  const file = join(dir, 'requests');
  writeFileSync(file, Buffer.concat(job.requests.flatMap((r) => { const b = requestBytes(host, r); return [Buffer.from(`${b.length}\n`), b]; })));
  const args = [hostname === 'localhost' ? '127.0.0.1' : hostname, port, String(job.rate), String(job.seconds), String(job.connections), file];
  return new Promise((resolve, reject) => {
    execFile(binary, args, { timeout: (job.seconds + 60) * 1000 }, (err, stdout, stderr) => {
      rmSync(dir, { recursive: true, force: true });
      if (err) return reject(new Error(`paced client (C) failed: ${err.message}\n${stderr}`));
      const r = JSON.parse(stdout) as LoadResult & { p50: number | null; p99: number | null };
      resolve({ ...r, p50: r.p50 ?? NaN, p99: r.p99 ?? NaN });
    });
  });
}

function pacedInNode(job: PacedJob): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(new URL('./paced-client.ts', import.meta.url), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let result: LoadResult | null = null;
    child.once('message', (m) => (result = m as LoadResult));
    child.once('error', reject);
    child.once('exit', (code) => (result ? resolve(result) : reject(new Error(`paced client exited ${code} without a result`))));
    child.send(job);
  });
}

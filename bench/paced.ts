import { fork } from 'node:child_process';
import type { LoadRequest, LoadResult } from './load.js';
import type { PacedJob } from './paced-client.js';

/**
 * An open-loop load at a fixed rate (paced-client.ts), run in a process of its own so that neither
 * the bench's heap nor its event loop sits between a request's due time and its sending. autocannon's
 * fixed rate sends each second's quota in a burst, which measures the burst, not the rate.
 */
export function paced(base: string, requests: LoadRequest[], o: { rate: number; seconds: number; connections?: number }): Promise<LoadResult> {
  const job: PacedJob = { base, requests, rate: o.rate, seconds: o.seconds, connections: o.connections ?? 256 };
  return new Promise((resolve, reject) => {
    const child = fork(new URL('./paced-client.ts', import.meta.url), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let result: LoadResult | null = null;
    child.once('message', (m) => (result = m as LoadResult));
    child.once('error', reject);
    child.once('exit', (code) => (result ? resolve(result) : reject(new Error(`paced client exited ${code} without a result`))));
    child.send(job);
  });
}

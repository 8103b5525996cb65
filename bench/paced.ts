import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileC } from './compile-c.js';
import type { LoadRequest, LoadResult } from './load.js';

/**
 * An open-loop load at a fixed rate (paced-client.c), in a process of its own so that neither the
 * bench's heap nor its event loop sits between a request's due time and its sending, and in C so that
 * it takes as little as it can of the two cores it shares with the shim it measures (a Node client
 * spent about as much CPU per request as the shim's answer). autocannon's fixed rate sends each
 * second's quota in a burst, which measures the burst, not the rate.
 */
export function paced(base: string, requests: LoadRequest[], o: { rate: number; seconds: number; connections?: number }): Promise<LoadResult> {
  if (!(o.rate > 0)) throw new Error(`paced: a rate above 0 requests/s, not ${o.rate}`);
  return runClient(base, requests, o.rate, o.seconds, o.connections ?? 256);
}

/**
 * Saturation from the same C client in a closed loop: each of `connections` sends its next request
 * as soon as its answer is in. Beside autocannon it leaves the server nearly all of a core: at
 * 100,000 companies autocannon's own parsing held POST /batch to about half of what the shim
 * answered, and its GC pauses were part of the p99 it reported.
 */
export function saturated(base: string, requests: LoadRequest[], o: { seconds: number; connections: number }): Promise<LoadResult> {
  return runClient(base, requests, 0, o.seconds, o.connections);
}

function runClient(base: string, requests: LoadRequest[], rate: number, seconds: number, connections: number): Promise<LoadResult> {
  const binary = compileC('paced-client');
  if (!binary)
    throw new Error('npm run bench: its paced load is a C program (bench/paced-client.c), and no C compiler is installed (apt-get install gcc)');
  const { hostname, port, host } = new URL(base);
  const dir = mkdtempSync(join(tmpdir(), 'esg-paced-'));
  const file = join(dir, 'requests');
  writeFileSync(
    file,
    Buffer.concat(
      requests.flatMap((r) => {
        const b = requestBytes(host, r);
        return [Buffer.from(`${b.length}\n`), b];
      }),
    ),
  );
  const args = [hostname, port, String(rate), String(seconds), String(connections), file];
  return new Promise((resolve, reject) => {
    execFile(binary, args, { timeout: (seconds + 60) * 1000 }, (err, stdout, stderr) => {
      rmSync(dir, { recursive: true, force: true });
      if (err) return reject(new Error(`paced client failed: ${err.message}\n${stderr}`));
      const r = JSON.parse(stdout) as LoadResult & { p50: number | null; p99: number | null };
      resolve({ ...r, p50: r.p50 ?? NaN, p99: r.p99 ?? NaN });
    });
  });
}

/** A request's bytes as sent: prepared once, keep-alive, a JSON body's length. */
function requestBytes(host: string, r: LoadRequest): Buffer {
  const body = r.body ? Buffer.from(r.body) : null;
  const headers: Record<string, string> = { host, connection: 'keep-alive', ...r.headers };
  if (body) Object.assign(headers, { 'content-type': 'application/json', 'content-length': String(body.length) });
  const head = `${r.method ?? 'GET'} ${r.path} HTTP/1.1\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`;
  return body ? Buffer.concat([Buffer.from(head, 'latin1'), body]) : Buffer.from(head, 'latin1');
}

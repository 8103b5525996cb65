import { Agent, request } from 'node:http';
import type { LoadRequest, LoadResult } from './load.js';

/**
 * An open-loop load at a fixed rate: request i is due at start + i / rate and is sent then, whatever
 * earlier requests are doing, and its latency is counted from when it was due (so a stalled server
 * cannot hide queueing: no coordinated omission). autocannon's fixed rate sends each second's quota
 * in a burst, which measures the burst, not the rate.
 */
export async function paced(base: string, requests: LoadRequest[], o: { rate: number; seconds: number; connections?: number }): Promise<LoadResult> {
  const { hostname, port } = new URL(base);
  // `connections` caps the sockets (requests due while all are busy wait for one, their wait counted).
  const agent = new Agent({ keepAlive: true, maxSockets: o.connections ?? 256 });
  const latencies: number[] = [];
  let errors = 0;
  let non2xx = 0;
  const total = Math.round(o.rate * o.seconds);
  const start = performance.now();
  let sent = 0;
  const inflight: Promise<void>[] = [];

  const send = (i: number, due: number) =>
    new Promise<void>((resolve) => {
      const r = requests[i % requests.length]!;
      const req = request(
        { agent, hostname, port, method: r.method ?? 'GET', path: r.path, headers: { ...r.headers, ...(r.body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(r.body) } : {}) } },
        (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(performance.now() - due);
            if (res.statusCode! < 200 || res.statusCode! >= 300) non2xx++;
            resolve();
          });
        },
      );
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end(r.body);
    });

  await new Promise<void>((done) => {
    const tick = () => {
      const now = performance.now();
      while (sent < total && start + (sent * 1000) / o.rate <= now) {
        inflight.push(send(sent, start + (sent * 1000) / o.rate));
        sent++;
      }
      if (sent < total) setTimeout(tick, 0.5);
      else done();
    };
    tick();
  });
  await Promise.all(inflight);
  const elapsed = (performance.now() - start) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
  return { rps: latencies.length / elapsed, p50: pct(50), p99: pct(99), errors, non2xx };
}

import { connect, type Socket } from 'node:net';
import type { LoadRequest, LoadResult } from './load.js';
import { requestBytes } from './request-bytes.js';

/**
 * The paced load's own process (started by paced.ts, answered over IPC): an open-loop load at a fixed
 * rate. Request i is due at start + i / rate and is written then, whatever earlier requests are doing,
 * and its latency is counted from when it was due (no coordinated omission: a stalled server cannot
 * hide queueing). Requests go out as bytes prepared once, over keep-alive sockets, and responses are
 * framed from their Content-Length or chunks, nothing more: Node's http client spent about as much
 * CPU per request as the shim does answering it, on the same two cores, in the bench's own heap.
 */
export interface PacedJob {
  base: string;
  requests: LoadRequest[];
  rate: number;
  seconds: number;
  /** At most this many sockets; a request due while all are busy waits for one, its wait counted. */
  connections: number;
}

const CRLF2 = Buffer.from('\r\n\r\n');

/**
 * Where the response that starts at `buf[0]` ends, or -1 while it is incomplete; its status. Handles
 * Content-Length and chunked bodies (the shim streams evidence packs), which is all the shim sends.
 */
function responseEnd(buf: Buffer): { end: number; status: number } | null {
  const headEnd = buf.indexOf(CRLF2);
  if (headEnd < 0) return null;
  const head = buf.toString('latin1', 0, headEnd);
  const status = Number(head.slice(9, 12));
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
  if (length) {
    const end = headEnd + 4 + Number(length[1]);
    return end <= buf.length ? { end, status } : null;
  }
  if (!/\r\ntransfer-encoding:[^\r]*chunked/i.test(head)) return { end: headEnd + 4, status }; // 204, 304
  let at = headEnd + 4;
  for (;;) {
    const lineEnd = buf.indexOf('\r\n', at, 'latin1');
    if (lineEnd < 0) return null;
    const size = parseInt(buf.toString('latin1', at, lineEnd), 16);
    if (size === 0) {
      // No trailers from the shim: the last chunk is followed by one empty line.
      return lineEnd + 4 <= buf.length ? { end: lineEnd + 4, status } : null;
    }
    at = lineEnd + 2 + size + 2;
    if (at > buf.length) return null;
  }
}

export async function runPaced(job: PacedJob): Promise<LoadResult> {
  const { hostname, port, host } = new URL(job.base);
  const bytes = job.requests.map((r) => requestBytes(host, r));
  const total = Math.round(job.rate * job.seconds);
  const latencies: number[] = [];
  let errors = 0;
  let non2xx = 0;
  const statuses: Record<string, number> = {};
  let finished = 0;
  const waiting: { i: number; due: number }[] = [];
  const idle: Conn[] = [];
  let open = 0;
  let allDone!: () => void;
  const done = new Promise<void>((r) => (allDone = r));

  interface Conn {
    socket: Socket;
    due: number;
    buf: Buffer;
  }

  const settle = (c: Conn | null, ok: boolean, status = 0) => {
    finished++;
    if (ok) {
      latencies.push(performance.now() - c!.due);
      if (status < 200 || status >= 300) {
        non2xx++;
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    } else errors++;
    if (finished === total) allDone();
  };

  const send = (c: Conn, i: number, due: number) => {
    c.due = due;
    c.buf = Buffer.alloc(0);
    c.socket.write(bytes[i % bytes.length]!);
  };

  const release = (c: Conn) => {
    const next = waiting.shift();
    if (next) send(c, next.i, next.due);
    else idle.push(c);
  };

  const openConn = (i: number, due: number) => {
    open++;
    const c: Conn = { socket: connect({ host: hostname, port: Number(port), noDelay: true }), due, buf: Buffer.alloc(0) };
    c.socket.on('connect', () => send(c, i, due));
    c.socket.on('data', (chunk: Buffer) => {
      c.buf = c.buf.length === 0 ? chunk : Buffer.concat([c.buf, chunk]);
      const r = responseEnd(c.buf);
      if (!r) return;
      settle(c, true, r.status);
      release(c);
    });
    // A socket the server closed or broke: its request in flight (if any) failed; the next opens anew.
    c.socket.on('error', () => undefined);
    c.socket.on('close', () => {
      open--;
      const at = idle.indexOf(c);
      if (at >= 0) idle.splice(at, 1);
      else settle(c, false);
      const next = waiting.shift();
      if (next) openConn(next.i, next.due);
    });
  };

  const start = performance.now();
  let sent = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (sent < total && start + (sent * 1000) / job.rate <= now) {
        const due = start + (sent * 1000) / job.rate;
        const c = idle.pop();
        if (c) send(c, sent, due);
        else if (open < job.connections) openConn(sent, due);
        else waiting.push({ i: sent, due });
        sent++;
      }
      if (sent < total) setTimeout(tick, 0.5);
      else resolve();
    };
    tick();
  });
  if (total > 0) await done;
  const elapsed = (performance.now() - start) / 1000;
  for (const c of idle) c.socket.destroy();
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
  return { rps: latencies.length / elapsed, p50: pct(50), p99: pct(99), errors, non2xx, ...(non2xx > 0 ? { statuses } : {}) };
}

// Started by paced.ts: one job in, one result out.
process.once('message', (job: PacedJob) => {
  runPaced(job).then(
    (result) => process.send!(result, () => process.exit(0)),
    (err: unknown) => {
      process.stderr.write(`paced client: ${String(err)}\n`);
      process.exit(1);
    },
  );
});

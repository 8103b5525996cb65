import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { basename, join } from 'node:path';
import { currentSnapshotDir } from '../../src/snapshot/published.js';
import { DOWNLOADS_DIR } from '../../src/contract/api-paths.js';
import { linkCopy } from './link-copy.js';

/**
 * Slow and unread downloads, shared by the shim's tests and the nginx front's. Clients are
 * told apart by address: loopback is all of 127.0.0.0/8, so a socket bound to 127.0.0.3 is another
 * client than one bound to 127.0.0.2, to the shim and to nginx alike.
 */
export const GREEDY = '127.0.0.3';
export const OTHER = '127.0.0.2';

/**
 * A copy of a published snapshots folder whose current snapshot's `snapshot.sqlite` download is
 * `megabytes` long: the demo's is 2.7 MB, which the kernel's socket buffers (some 4 MB on loopback)
 * take whole, so a client that never reads would never hold a download open at all; a real one (150 MB
 * at 100,000 companies) does. The copy's files are hard links of the original's, so the two files
 * changed (the download and SHA256SUMS, listing its new bytes) are unlinked and written anew; the
 * tree's folders outside api/ (the pages) are shared with the original.
 */
export function withLargeDownload(from: string, to: string, megabytes: number): { path: string; size: number; id: string } {
  const id = basename(currentSnapshotDir(from)!);
  const tree = join(id, 'tree');
  const pages = readdirSync(join(from, tree), { withFileTypes: true }).filter((e) => e.isDirectory() && e.name !== DOWNLOADS_DIR.split('/')[0]);
  linkCopy(from, to, { shared: pages.map((e) => join(tree, e.name)) });
  const current = join(to, id);
  const dir = join(current, 'tree', DOWNLOADS_DIR, id);
  const file = join(dir, 'snapshot.sqlite');
  const head = readFileSync(file);
  unlinkSync(file);
  const bytes = Buffer.concat([head, Buffer.alloc(megabytes * 1024 * 1024 - head.length)]);
  writeFileSync(file, bytes);
  const sums = readFileSync(join(dir, 'SHA256SUMS'), 'utf8')
    .split('\n')
    .filter((l) => l !== '' && !l.endsWith('  snapshot.sqlite'));
  unlinkSync(join(dir, 'SHA256SUMS'));
  writeFileSync(join(dir, 'SHA256SUMS'), `${[...sums, `${createHash('sha256').update(bytes).digest('hex')}  snapshot.sqlite`].join('\n')}\n`);
  return { path: `/api/v1/downloads/${id}/snapshot.sqlite`, size: bytes.length, id };
}

/**
 * Opens `count` connections from `from`, `perBatch` at a time (`pauseMs` apart), each sending one
 * GET of `path` and reading nothing.
 */
export async function openUnread(
  port: number,
  path: string,
  count: number,
  o: { from?: string; perBatch?: number; pauseMs?: number } = {},
): Promise<Socket[]> {
  const sockets: Socket[] = [];
  const perBatch = o.perBatch ?? 100;
  for (let i = 0; i < count; i += perBatch) {
    if (i > 0 && o.pauseMs) await new Promise((r) => setTimeout(r, o.pauseMs));
    const batch = Array.from(
      { length: Math.min(perBatch, count - i) },
      () =>
        new Promise<Socket>((resolve) => {
          const socket = connect({ port, host: '127.0.0.1', localAddress: o.from ?? GREEDY });
          socket.on('error', () => {}); // reset by the server (a stalled download is cut): expected
          socket.once('connect', () => {
            socket.pause(); // never read: what arrives stays in the kernel's buffers
            socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
            resolve(socket);
          });
          socket.once('close', () => resolve(socket));
        }),
    );
    sockets.push(...(await Promise.all(batch)));
  }
  return sockets;
}

/** The status line each socket got first (read now), counted: e.g. { 200: 6, 429: 1994 }. */
export async function firstStatuses(sockets: Socket[], ms = 5000): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  await Promise.all(
    sockets.map(
      (s) =>
        new Promise<void>((resolve) => {
          const timer = setTimeout(() => done('none'), ms);
          function done(status: string) {
            clearTimeout(timer);
            counts[status] = (counts[status] ?? 0) + 1;
            resolve();
          }
          if (s.destroyed) return done('closed');
          s.once('data', (chunk: Buffer) => done(/^HTTP\/1\.1 (\d{3})/.exec(chunk.toString('latin1'))?.[1] ?? 'other'));
          s.once('close', () => done('closed'));
          s.resume();
        }),
    ),
  );
  return counts;
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as text when under 4 KiB, else ''. */
  text: string;
  bytes: number;
}

/** One request from a client address, read whole; on `agent` (kept alive) or a fresh connection. */
export function requestFrom(
  address: string,
  port: number,
  path: string,
  o: { agent?: Agent; method?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: o.method ?? 'GET', headers: o.headers, localAddress: address, agent: o.agent ?? false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          resolve({ status: res.statusCode!, headers: res.headers, text: body.length < 4096 ? body.toString('utf8') : '', bytes: body.length });
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Another client's requests meanwhile: files, a page of the changes, a small download. */
export const otherClientPaths = (id: string) => [
  '/api/v1/company/D1101',
  '/api/v1/ranking',
  '/api/v1/changes?page=1',
  '/api/v1/',
  `/api/v1/downloads/${id}/CITATION.cff`,
  '/api/v1/company/D1104/canonical',
];

export interface Timed {
  path: string;
  status: number;
  ms: number;
  /** When it was sent, ms after the load began. */
  at: number;
}

/**
 * Another client's requests, `rate` a second for `seconds`, cycling through `paths`, from `from`, on
 * at most `sockets` kept-alive connections: each request's status and time from send to last byte.
 */
export async function timedLoad(
  port: number,
  paths: string[],
  o: { rate: number; seconds: number; from?: string; sockets?: number },
): Promise<Timed[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: o.sockets ?? 4, localAddress: o.from ?? OTHER });
  const gap = 1000 / o.rate;
  const start = performance.now();
  const pending: Promise<Timed>[] = [];
  try {
    for (let i = 0; i < o.rate * o.seconds; i++) {
      const wait = start + i * gap - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const path = paths[i % paths.length]!;
      const sent = performance.now();
      const timed = (status: number) => ({ path, status, ms: performance.now() - sent, at: Math.round(sent - start) });
      pending.push(
        new Promise<Timed>((resolve) => {
          const req = request({ host: '127.0.0.1', port, path, agent, timeout: 10_000 }, (res) => {
            res.resume();
            res.on('end', () => resolve(timed(res.statusCode!)));
            res.on('error', () => resolve(timed(0)));
          });
          req.on('timeout', () => req.destroy());
          req.on('error', () => resolve(timed(0)));
          req.end();
        }),
      );
    }
    return await Promise.all(pending);
  } finally {
    agent.destroy();
  }
}

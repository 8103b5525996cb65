import type { ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { join } from 'node:path';
import { memoryClientsFrom, openAccess } from '../../../server/access/index.js';
import { createApp } from '../../../server/app.js';
import { appClasses, createHttpServer } from '../../../server/serve.js';
import { publishedSnapshotSource } from '../../../server/kit/snapshot-source.js';
import { silentMailer } from './silent-mailer.js';

/**
 * node --expose-gc --max-old-space-size=160 --import tsx many-token-clients.ts KEYS_DIR SNAPSHOTS_DIR CLIENTS [REDIS_URL]
 *
 * CLIENTS distinct client addresses, one `POST /token` each (a refresh grant of an unknown client:
 * counted by the endpoint's rate limiter, then 401), through the shim's own request handler as
 * server/index.ts builds it (openAccess, createApp with sign-in on, TRUST_PROXY=loopback, the
 * address in X-Forwarded-For: IPv4, and every eighth an IPv6 /56 of its own). Sockets are left out,
 * as in test/server/access/many-clients.ts: a million connections would measure the kernel, not the
 * limiter. 32 requests in flight. Prints one JSON line: the heap after a full GC before, every tenth
 * of the way and after; the statuses seen; and the statuses of 51 more requests from the first
 * address and from the last (the limit is 50 in 15 minutes: the last address's 51st is 429, and the
 * first address's is 429 only if the limiter still remembers it).
 */
const [keysDir, snapshotsDir, clientsArg, redisUrl] = process.argv.slice(2);
const clients = Number(clientsArg);
const gc = (globalThis as { gc?: () => void }).gc;
if (!keysDir || !snapshotsDir || !(clients > 0) || !gc)
  throw new Error('usage: node --expose-gc --import tsx many-token-clients.ts KEYS_DIR SNAPSHOTS_DIR CLIENTS [REDIS_URL]');

const access = openAccess({ keysDb: join(keysDir, 'keys.sqlite'), redisUrl, memoryClients: memoryClientsFrom(process.env.QUOTA_MEMORY_CLIENTS) });
const mailer = silentMailer;
const snapshots = publishedSnapshotSource(snapshotsDir);
const app = createApp({ snapshots, access, mailer, trustProxy: 'loopback' });
const server = createHttpServer(app, snapshots);
// Requests and responses made as the shim's server makes them (serve.ts), answered by its handler.
const { IncomingMessage: AppRequest, ServerResponse: AppResponse } = appClasses(app);

// The proxy's address on every request: TRUST_PROXY=loopback believes its X-Forwarded-For. A socket
// of its own each (never connected), as listeners that Express and body-parser add to it would pile up on a shared one.
const proxySocket = () => {
  const socket = new Socket();
  Object.defineProperty(socket, 'remoteAddress', { value: '127.0.0.1' });
  return socket;
};
const body = Buffer.from('grant_type=refresh_token&refresh_token=esgrt_x&client_id=nobody');

/** One POST /token from `ip`, answered by the shim's handler; resolves to the status. */
function postToken(ip: string): Promise<number> {
  const req = new AppRequest(proxySocket());
  req.method = 'POST';
  req.url = '/token';
  req.httpVersion = '1.1';
  req.rawHeaders = [
    'Host',
    '127.0.0.1',
    'Content-Type',
    'application/x-www-form-urlencoded',
    'Content-Length',
    String(body.length),
    'X-Forwarded-For',
    ip,
  ];
  req.headers = {
    host: '127.0.0.1',
    'content-type': 'application/x-www-form-urlencoded',
    'content-length': String(body.length),
    'x-forwarded-for': ip,
  };
  req.push(body);
  req.push(null);
  // As Node's parser says of a request it has read whole: a second body parser (the SDK's, after ours) then skips it.
  req.complete = true;
  const res = new AppResponse(req);
  return new Promise((resolve) => {
    const end = res.end.bind(res) as (...a: unknown[]) => ServerResponse;
    res.end = ((...a: unknown[]) => {
      resolve(res.statusCode);
      return end(...a);
    }) as typeof res.end;
    server.emit('request', req, res);
  });
}

const ipOf = (i: number) =>
  i % 8 === 7 ? `2001:db8:${(i >>> 8).toString(16)}:${((i & 255) << 8).toString(16)}::1` : `10.${(i >>> 16) & 255}.${(i >>> 8) & 255}.${i & 255}`;
const heapMb = () => {
  gc();
  return Math.round(process.memoryUsage().heapUsed / 1e5) / 10;
};

const statuses: Record<number, number> = {};
const note = (s: number) => (statuses[s] = (statuses[s] ?? 0) + 1);
// Redis connected first: requests that do no I/O of their own would never let its connection open.
for (let i = 0; redisUrl && !(await access.countersReachable()); i++) {
  if (i === 100) throw new Error(`Redis at ${redisUrl} did not answer within 5 s`);
  await new Promise((r) => setTimeout(r, 50));
}
// The modules' own allocations first (the limiters' first validation, a prepared statement), so the baseline holds them.
for (let i = 0; i < 100; i++) await postToken('192.0.2.1');
const baseline = heapMb();
const heap: number[] = [];
const step = Math.ceil(clients / 10);
const inFlight = 32;
for (let i = 0; i < clients; i += inFlight) {
  const batch: Promise<number>[] = [];
  for (let j = i; j < Math.min(clients, i + inFlight); j++) batch.push(postToken(ipOf(j)));
  for (const s of await Promise.all(batch)) note(s);
  const done = Math.min(clients, i + inFlight);
  if (Math.floor(done / step) > Math.floor(i / step) || done === clients) heap.push(heapMb());
}
const fiftyFrom = async (ip: string) => {
  let status = 0;
  for (let k = 0; k < 50; k++) status = await postToken(ip);
  return status;
};
const last = await fiftyFrom(ipOf(clients - 1));
const first = await fiftyFrom(ipOf(0));
await access.close();
snapshots.close();
process.stdout.write(`${JSON.stringify({ baseline, heap, statuses, first, last })}\n`);
process.exit(0);

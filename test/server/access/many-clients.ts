import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { join } from 'node:path';
import type { Request, Response } from 'express';
import { memoryClientsFrom, openAccess } from '../../../server/access/index.js';
import { bucketsFor, operation } from '../../../src/contract/routes.js';

/**
 * node --expose-gc --max-old-space-size=160 --import tsx many-clients.ts DIR CLIENTS
 *
 * CLIENTS distinct keyless clients (IPv4, and every eighth an IPv6 /56 of its own), one metered
 * call each, through the keyless shim's metering as server/index.ts builds it (openAccess: keys,
 * counters in memory capped by QUOTA_MEMORY_CLIENTS) and the buckets a computed GET counts toward.
 * Sockets are left out: a million connections would measure the kernel, not the counters. Prints
 * the heap after a full GC before, every tenth of the way and after, then what /usage says of the
 * first client and the last, one JSON line.
 */
const [dir, clientsArg] = process.argv.slice(2);
const clients = Number(clientsArg);
const gc = (globalThis as { gc?: () => void }).gc;
if (!dir || !(clients > 0) || !gc) throw new Error('usage: node --expose-gc --import tsx many-clients.ts DIR CLIENTS');

const access = openAccess({ keysDb: join(dir, 'keys.sqlite'), memoryClients: memoryClientsFrom(process.env.QUOTA_MEMORY_CLIENTS) });
const buckets = bucketsFor(operation('ranking'), 'GET', 'limit=1');
// One response for every call: the meter only sets its RateLimit headers on it.
const res = new ServerResponse(new IncomingMessage(new Socket())) as unknown as Response;
const requestFrom = (ip: string) => ({ headers: {}, ip, socket: {} }) as unknown as Request;
const ipOf = (i: number) =>
  i % 8 === 7 ? `2001:db8:${(i >>> 8).toString(16)}:${((i & 255) << 8).toString(16)}::1` : `10.${(i >>> 16) & 255}.${(i >>> 8) & 255}.${i & 255}`;

const heapMb = () => {
  gc();
  return Math.round(process.memoryUsage().heapUsed / 1e5) / 10;
};
// The modules' own allocations first (a window, a partition key), so the baseline holds them.
await access.meter(requestFrom('192.0.2.1'), res, buckets);
const baseline = heapMb();
const heap: number[] = [];
const step = Math.ceil(clients / 10);
for (let i = 0; i < clients; i++) {
  await access.meter(requestFrom(ipOf(i)), res, buckets);
  if ((i + 1) % step === 0 || i + 1 === clients) heap.push(heapMb());
}
const usedToday = async (ip: string) => (await access.usage(requestFrom(ip))).buckets.find((b) => b.bucket === 'calls/day')!.used;
const first = await usedToday(ipOf(0));
const last = await usedToday(ipOf(clients - 1));
await access.close();
process.stdout.write(`${JSON.stringify({ baseline, heap, first, last })}\n`);

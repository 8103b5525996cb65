import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Request, Response } from 'express';
import { MemoryStore, type Options } from 'express-rate-limit';
import { bucketsFor, operation } from '../src/contract/routes.js';
import { memoryCounters, type BucketCounter, type Counters } from '../server/access/counters.js';
import { KeyStore } from '../server/access/key-store.js';
import { Meter } from '../server/access/meter.js';
import { counterLifetimeMs } from '../src/contract/tiers.js';
import { addFillerKeys } from '../test/helpers/many-keys.js';
import { median, medianRatio, type LoadResult } from './load.js';
import { paced } from './paced.js';
import { peakRssMb, startShim } from './servers.js';
import { urls } from '../src/contract/urls.js';

const run = promisify(execFile);

/** The quota counters and the key store as they scale (`npm run bench`, `--only access`). */
export interface AccessFigures {
  /** Metering one call in this process (Meter.meter), µs per call in each round, the bounded counters against express-rate-limit's MemoryStore. */
  counters: { workload: string; calls: number; boundedUs: number[]; memoryStoreUs: number[] }[];
  keyStore: KeyStoreFigures | null;
}

/** A shim on a key store of `keys` keys, keyed calls paced before and while `npm run keys` creates and revokes one. */
export interface KeyStoreFigures {
  keys: number;
  fillSeconds: number;
  rate: number;
  /**
   * Per round: keyed calls paced alone; while two `npm run keys -- --help` ran, which change
   * nothing (what starting the command takes from the two cores the shim and the load share);
   * and while `npm run keys` created a key and revoked it, at the same moments.
   */
  rounds: {
    before: LoadResult;
    control: LoadResult;
    during: LoadResult;
    /** `npm run keys -- create` and `-- revoke`, each a process of its own, wall time. */
    createMs: number;
    revokeMs: number;
    /** From the create's end until the shim answered the new key. */
    seenAfterMs: number;
  }[];
  shimPeakRssMb: number | null;
}

/** p99 while keys change ÷ p99 while the same command changes nothing, the median of each round's own ratio. */
export const keyChangeRatio = (k: KeyStoreFigures) =>
  medianRatio(
    k.rounds.map((r) => r.during.p99),
    k.rounds.map((r) => r.control.p99),
  );

/** The bounded counters' cost ÷ MemoryStore's, the median of each round's own ratio. */
export const countersRatio = (c: AccessFigures['counters'][number]) => medianRatio(c.boundedUs, c.memoryStoreUs);

/**
 * The metering as it counted before the bounded counters: one express-rate-limit MemoryStore per
 * bucket, keyed by client and window. Both sides reach the Meter through the same shape of
 * adapter (an async function awaiting the store), so neither is credited with a promise hop the
 * other pays; the shipped bounded counters have one hop fewer than measured here.
 */
function memoryStoreCounters(): Counters {
  const stores: MemoryStore[] = [];
  return {
    kind: 'memory',
    bucket(bucket) {
      const store = new MemoryStore();
      store.init({ windowMs: counterLifetimeMs(bucket) } as Options);
      stores.push(store);
      const key = (partition: string, window: { id: string }) => `${partition}:${window.id}`;
      return {
        increment: async (partition, window) => (await store.increment(key(partition, window))).totalHits,
        decrement: async (partition, window) => await store.decrement(key(partition, window)),
        get: async (partition, window) => (await store.get(key(partition, window)))?.totalHits ?? 0,
      };
    },
    // Not measured here: OAuth's limiters, as they were, kept a MemoryStore each.
    limiter: () => new MemoryStore(),
    ping: async () => true,
    close: async () => stores.forEach((s) => s.shutdown()),
  };
}

function boundedCounters(): Counters {
  const inner = memoryCounters();
  return {
    ...inner,
    bucket(bucket) {
      const c: BucketCounter = inner.bucket(bucket);
      return {
        increment: async (partition, window) => await c.increment(partition, window),
        decrement: async (partition, window) => await c.decrement(partition, window),
        get: async (partition, window) => await c.get(partition, window),
      };
    },
  };
}

/** A full GC between runs, so one run's garbage is not collected in the next one's time. */
const gc = (() => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();

/**
 * Meter.meter in this process, as a computed GET is metered (calls/day and calls/min): `calls` calls
 * of 20 commercial keys in turn (the serving bench's load), and `calls` keyless clients each new
 * (past the default cap of 100,000 from the middle on, so the bounded table forgets one per call).
 * Sockets left out: their cost is the same on both sides and would hide the difference. In rounds,
 * the order reversed every other round, a fresh Meter each run.
 */
export async function measureCounters(o: { calls: number; rounds: number; log: (m: string) => void }): Promise<AccessFigures['counters']> {
  const dir = mkdtempSync(join(tmpdir(), 'esg-bench-meter-'));
  const keys = KeyStore.open(join(dir, 'keys.sqlite'));
  try {
    const presented = Array.from({ length: 20 }, () => keys.create({ tier: 'commercial', owner: 'bench', daily: 1e12, perMinute: 1e12 }).key);
    const res = new ServerResponse(new IncomingMessage(new Socket())) as unknown as Response;
    const buckets = bucketsFor(operation('ranking'), 'GET', 'limit=1');
    const keyed = presented.map((key) => ({ headers: { 'x-api-key': key }, ip: '127.0.0.1', socket: {} }) as unknown as Request);
    const workloads = [
      { workload: '20 keys in turn', request: (_round: number, i: number) => keyed[i % keyed.length]! },
      {
        workload: 'a new keyless client every call',
        request: (round: number, i: number) =>
          ({ headers: {}, ip: `${11 + round}.${(i >>> 16) & 255}.${(i >>> 8) & 255}.${i & 255}`, socket: {} }) as unknown as Request,
      },
    ];
    const out: AccessFigures['counters'] = [];
    for (const w of workloads) {
      const sides = [boundedCounters, memoryStoreCounters];
      const us: number[][] = [[], []];
      for (let round = 0; round < o.rounds; round++) {
        const requests = Array.from({ length: o.calls }, (_, i) => w.request(round, i));
        for (const side of round % 2 ? [1, 0] : [0, 1]) {
          const counters = sides[side]!();
          const meter = new Meter({ keys, counters });
          gc();
          const start = performance.now();
          for (const req of requests) await meter.meter(req, res, buckets);
          us[side]!.push(((performance.now() - start) * 1000) / o.calls);
          await counters.close();
        }
      }
      out.push({ workload: w.workload, calls: o.calls, boundedUs: us[0]!, memoryStoreUs: us[1]! });
      o.log(
        `access: metering, ${w.workload}: bounded ${us[0]!.map((x) => x.toFixed(2)).join('/')} µs, MemoryStore ${us[1]!.map((x) => x.toFixed(2)).join('/')} µs a call; ratio ${countersRatio(out.at(-1)!).toFixed(3)}`,
      );
    }
    return out;
  } finally {
    keys.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A shim as `npm start` runs it on a key store of `keys` keys (filler keys, and 4 commercial keys
 * the load takes turns with): in each of `rounds` rounds, keyed calls paced at `rate` for
 * `seconds` alone, then as long again while `npm run keys` creates a key and revokes it, each in
 * a process of its own, as an operator would.
 */
export async function measureKeyStore(o: {
  published: string;
  port: number;
  keys: number;
  rate: number;
  seconds: number;
  rounds: number;
  log: (m: string) => void;
}): Promise<KeyStoreFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'esg-bench-keys-'));
  const keysDb = join(dir, 'keys.sqlite');
  const fillStart = performance.now();
  addFillerKeys(keysDb, o.keys);
  const fillSeconds = (performance.now() - fillStart) / 1000;
  const store = KeyStore.open(keysDb);
  const loadKeys = Array.from({ length: 4 }, () => store.create({ tier: 'commercial', owner: 'bench', daily: 1e12, perMinute: 1e12 }).key);
  store.close();
  const shim = await startShim(o.published, o.port, { KEYS_DB: keysDb });
  try {
    const requests = Array.from({ length: 200 }, (_, i) => ({
      path: `${urls.ranking}?limit=1&page=${(i % 5) + 1}`,
      headers: { 'X-API-Key': loadKeys[i % loadKeys.length]! },
    }));
    const keysCommand = async (...args: string[]) => {
      const start = performance.now();
      const { stdout } = await run(process.execPath, ['--import', 'tsx', 'server/cli/keys.ts', ...args], {
        env: { ...process.env, KEYS_DB: keysDb },
      });
      return { ms: performance.now() - start, last: stdout.trim().split('\n').at(-1)! };
    };
    const status = async (key: string) => (await fetch(`${shim.base}${urls.ranking}?limit=1`, { headers: { 'X-API-Key': key } })).status;
    const rounds: KeyStoreFigures['rounds'] = [];
    for (let i = 0; i < o.rounds; i++) {
      const load = () => paced(shim.base, requests, { rate: o.rate, seconds: o.seconds });
      const before = await load();
      const idle = (async () => {
        await new Promise((r) => setTimeout(r, 1000));
        await keysCommand('--help');
        await keysCommand('--help');
      })();
      const control = await load();
      await idle;
      const changes = (async () => {
        await new Promise((r) => setTimeout(r, 1000));
        const created = await keysCommand('create', '--tier', 'academic', '--owner', 'bench');
        const seenStart = performance.now();
        while ((await status(created.last)) !== 200) await new Promise((r) => setTimeout(r, 20));
        const seenAfterMs = performance.now() - seenStart;
        const revoked = await keysCommand('revoke', /^esg_([0-9a-f]{10})_/.exec(created.last)![1]!);
        return { createMs: created.ms, revokeMs: revoked.ms, seenAfterMs };
      })();
      const during = await load();
      const r = { before, control, during, ...(await changes) };
      rounds.push(r);
      o.log(
        `access: ${o.keys} keys: keyed calls at ${o.rate}/s p50 ${before.p50} / p99 ${before.p99} ms alone, ${control.p50} / ${control.p99} ms beside \`npm run keys -- --help\`, ${during.p50} / ${during.p99} ms while a key was created (${r.createMs.toFixed(0)} ms; answered ${r.seenAfterMs.toFixed(0)} ms after) and revoked (${r.revokeMs.toFixed(0)} ms)`,
      );
    }
    const figures = { keys: o.keys, fillSeconds, rate: o.rate, rounds, shimPeakRssMb: peakRssMb(shim.pid) };
    o.log(
      `access: ${o.keys} keys filled in ${fillSeconds.toFixed(1)} s; p99 while keys change ÷ beside the command changing nothing ${keyChangeRatio(figures).toFixed(2)} (median of ${o.rounds} rounds); shim peak RSS ${figures.shimPeakRssMb} MB`,
    );
    return figures;
  } finally {
    await shim.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The target rows (report.ts): the counters' cost, the keyed calls' p99 while keys change. */
export function accessTargetRows(
  a: AccessFigures | undefined,
  n: (x: number, digits?: number) => string,
  met: (ok: boolean | null) => string,
): string[] {
  if (!a) return [];
  const rows = a.counters.map((c) => {
    const ratio = countersRatio(c);
    return `| bounded quota counters cost ≤ ${ACCESS_TARGETS.countersCost}× express-rate-limit's MemoryStore, metering a call (${c.workload}) | ${n(ratio, 3)}× | ${met(ratio <= ACCESS_TARGETS.countersCost)} |`;
  });
  const k = a.keyStore;
  if (k) {
    const ratio = keyChangeRatio(k);
    const clean = k.rounds.every((r) => r.during.errors + r.during.non2xx === 0);
    rows.push(
      `| a key created and revoked at ${n(k.keys)} keys holds no keyed call: p99 while it happens ≤ ${ACCESS_TARGETS.keyChangeP99}× p99 beside the same command changing nothing (median of ${k.rounds.length} rounds) | ${n(ratio, 2)}× | ${met(ratio <= ACCESS_TARGETS.keyChangeP99 && clean)} |`,
    );
  }
  return rows;
}

const ACCESS_TARGETS = { countersCost: 1.05, keyChangeP99: 1.5 };

/** The section of results.md: every round, and the key store's figures. */
export function accessSection(a: AccessFigures | undefined, n: (x: number, digits?: number) => string): string[] {
  if (!a) return [];
  const us = (xs: number[]) => xs.map((x) => n(x, 2)).join(', ');
  const out = [
    '',
    '## Quota counters and key store',
    '',
    `Metering one computed GET in the bench's own process (Meter.meter: caller, calls/day and calls/min counted, RateLimit headers), with the bounded in-memory counters (server/access/client-table.ts, QUOTA_MEMORY_CLIENTS at its default) against express-rate-limit's MemoryStore, which counted before them; each side behind the same adapter, a fresh Meter and a full GC before each run, in rounds (order reversed every other round); the ratio is the median of the rounds' own.`,
    '',
    '| workload | calls a run | bounded µs a call (rounds) | MemoryStore µs a call (rounds) | median µs, bounded / MemoryStore | ratio |',
    '|---|---:|---|---|---:|---:|',
  ];
  for (const c of a.counters)
    out.push(
      `| ${c.workload} | ${n(c.calls)} | ${us(c.boundedUs)} | ${us(c.memoryStoreUs)} | ${n(median(c.boundedUs), 2)} / ${n(median(c.memoryStoreUs), 2)} | **${n(countersRatio(c), 3)}×** |`,
    );
  const k = a.keyStore;
  if (k) {
    out.push(
      '',
      `Key store of ${n(k.keys)} keys (filled in ${n(k.fillSeconds, 1)} s), the shim as \`npm start\` runs it (peak RSS ${k.shimPeakRssMb ?? '?'} MB): in each round keyed calls paced at ${n(k.rate)}/s, a run alone; a run while \`npm run keys -- --help\` ran twice (it changes nothing: what starting the command takes from the two cores the shim and the load share); and a run while \`npm run keys\` created a key and revoked it at the same moments, each command a process of its own.`,
      '',
      '| round | alone p50 / p99 ms | beside --help p50 / p99 ms | while keys change p50 / p99 ms | errors / non-2xx | create ms | new key answered after ms | revoke ms |',
      '|---:|---|---|---|---:|---:|---:|---:|',
    );
    k.rounds.forEach((r, i) =>
      out.push(
        `| ${i + 1} | ${n(r.before.p50, 1)} / ${n(r.before.p99, 1)} | ${n(r.control.p50, 1)} / ${n(r.control.p99, 1)} | ${n(r.during.p50, 1)} / **${n(r.during.p99, 1)}** | ${r.during.errors} / ${r.during.non2xx} | ${n(r.createMs)} | ${n(r.seenAfterMs)} | ${n(r.revokeMs)} |`,
      ),
    );
  }
  return out;
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KeyTier } from '../../../src/contract/vocabulary.js';
import { memoryCounters, type Counters } from '../../../server/access/counters.js';
import { KeyStore } from '../../../server/access/key-store.js';
import { Meter } from '../../../server/access/meter.js';
import { jsonLogger } from '../../../server/kit/logger.js';
import { getJson, startServer } from '../../helpers/server.js';

/** 2026-11-23 10:00:00 UTC: a Monday morning, far from any boundary the tests do not cross on purpose. */
export const T0 = Date.UTC(2026, 10, 23, 10, 0, 0);
export const MINUTE = 60_000;

export interface Metered {
  base: string;
  /** The injected clock, epoch ms; tests move it. */
  clock: { now: number };
  /** A second connection to the key store, as the `npm run keys` command would be. */
  keys: KeyStore;
  keysPath: string;
  /** Every log line the shim wrote. */
  logs: string[];
  newKey(tier: KeyTier, o?: { daily?: number; perMinute?: number }): string;
  call(path: string, o?: { key?: string; method?: string; body?: unknown; headers?: Record<string, string> }): ReturnType<typeof getJson>;
  close(): Promise<void>;
}

/** The shim with keys and quotas, counters in memory (unless given), on an injected clock. */
export async function startMetered(snapshotsDir: string, o: { trustProxy?: number | string; counters?: Counters } = {}): Promise<Metered> {
  const dir = mkdtempSync(join(tmpdir(), 'esg-keys-'));
  const keysPath = join(dir, 'keys.sqlite');
  const keys = KeyStore.open(keysPath);
  const clock = { now: T0 };
  const logs: string[] = [];
  const logger = jsonLogger((line) => logs.push(line));
  // No staleness in tests: a key created or revoked is seen by the very next request.
  const access = new Meter({
    keys: KeyStore.open(keysPath, { maxStalenessMs: 0 }),
    counters: o.counters ?? memoryCounters(),
    clock: () => clock.now,
    logger,
  });
  const server = await startServer(snapshotsDir, { access, logger, trustProxy: o.trustProxy });
  return {
    base: server.base,
    clock,
    keys,
    keysPath,
    logs,
    newKey: (tier, q = {}) => keys.create({ tier, owner: `test ${tier}`, ...q }).key,
    call: (path, c = {}) => {
      const headers: Record<string, string> = { ...c.headers };
      if (c.key !== undefined) headers['X-API-Key'] = c.key;
      if (c.body !== undefined) headers['Content-Type'] = 'application/json';
      return getJson(`${server.base}/api/v1${path}`, {
        method: c.method ?? (c.body !== undefined ? 'POST' : 'GET'),
        headers,
        body: c.body === undefined ? undefined : JSON.stringify(c.body),
      });
    },
    close: async () => {
      await server.close();
      await access.close();
      keys.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Statuses of `n` calls made one after another. */
export async function statuses(n: number, make: () => Promise<{ status: number }>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await make()).status);
  return out;
}

export const count = (xs: number[], status: number) => xs.filter((s) => s === status).length;

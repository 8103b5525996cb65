import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ClientTable, DEFAULT_MEMORY_CLIENTS, memoryClientsFrom } from '../../../server/access/client-table.js';
import { memoryCounters } from '../../../server/access/counters.js';
import { count, startMetered, statuses } from './harness.js';
import { demoSnapshotsDir } from '../../helpers/demo-snapshots-dir.js';

const run = promisify(execFile);

/**
 * The in-memory quota counters (no REDIS_URL) hold at most QUOTA_MEMORY_CLIENTS clients: the one
 * idle longest is forgotten when a new one comes, never the process. The README's figure: about
 * 250 bytes a client, some 25 MB at the default 100,000.
 */
const README_BYTES_PER_CLIENT = 250;

describe('a million distinct keyless clients', () => {
  it('through the metering of a keyless shim, in a heap the size npm start gives: it stays under the cap, and nothing crashes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'esg-clients-'));
    try {
      // The shim's own heap limit (package.json's start): a million clients at MemoryStore's 0.55 KB would need 550 MB.
      const args = [
        '--expose-gc',
        '--max-semi-space-size=4',
        '--max-old-space-size=160',
        '--import',
        'tsx',
        'test/server/access/many-clients.ts',
        dir,
        '1000000',
      ];
      const { QUOTA_MEMORY_CLIENTS: _, ...env } = process.env;
      const { stdout } = await run(process.execPath, args, { env, timeout: 240_000 });
      const r = JSON.parse(stdout.trim().split('\n').pop()!) as { baseline: number; heap: number[]; first: number; last: number };
      const capMb = (DEFAULT_MEMORY_CLIENTS * README_BYTES_PER_CLIENT) / 1e6;
      // Every tenth of the way, after a full GC: never more than the cap's worth (and a tenth) above the start.
      for (const mb of r.heap) expect(mb - r.baseline).toBeLessThan(capMb * 1.1);
      // Full from 100,000 clients on: the last 800,000 grow it by less than 2 MB.
      expect(Math.max(...r.heap.slice(2)) - r.heap[1]!).toBeLessThan(2);
      // The first client was forgotten (its counts would start again); the last one is counted.
      expect(r.first).toBe(0);
      expect(r.last).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});

describe('the client table', () => {
  afterEach(() => vi.useRealTimers());
  const DAY = 'd1';

  it('when full, forgets the client idle longest: a client counted again moves to the back', () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    const table = new ClientTable(3, 2);
    for (const c of ['a', 'b', 'c']) table.increment(0, c, DAY);
    vi.advanceTimersByTime(1000);
    expect(table.increment(0, 'a', DAY)).toBe(2); // a is now the most recent
    table.increment(0, 'd', DAY); // full: b goes
    expect(table.size).toBe(3);
    expect(['a', 'b', 'c', 'd'].map((c) => table.get(0, c, DAY))).toEqual([2, 0, 1, 1]);
    table.increment(1, 'e', DAY); // then c
    expect(['a', 'c', 'd', 'e'].map((c) => table.get(0, c, DAY) + table.get(1, c, DAY))).toEqual([2, 0, 1, 1]);
    table.close();
  });

  it('counts per bucket and window: a new window starts at 0, a take-back never goes below 0', () => {
    const table = new ClientTable(10, 2);
    expect([table.increment(0, 'a', 'm1'), table.increment(0, 'a', 'm1'), table.increment(1, 'a', DAY)]).toEqual([1, 2, 1]);
    expect(table.increment(0, 'a', 'm2')).toBe(1);
    expect(table.get(0, 'a', 'm1')).toBe(0);
    table.decrement(0, 'a', 'm2');
    table.decrement(0, 'a', 'm2');
    table.decrement(0, 'nobody', 'm2');
    expect([table.get(0, 'a', 'm2'), table.get(1, 'a', DAY), table.size]).toEqual([0, 1, 1]);
    table.close();
  });

  it('gives back clients idle for over a day', () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    const table = new ClientTable(10, 1);
    table.increment(0, 'old', DAY);
    vi.advanceTimersByTime(12 * 3_600_000);
    table.increment(0, 'recent', DAY);
    vi.advanceTimersByTime(12 * 3_600_000 + 120_000);
    expect([table.size, table.get(0, 'recent', DAY)]).toEqual([1, 1]);
    table.close();
  });

  it('QUOTA_MEMORY_CLIENTS: a whole number from 1, the default when unset', () => {
    expect([memoryClientsFrom(undefined), memoryClientsFrom(''), memoryClientsFrom('5000')]).toEqual([
      DEFAULT_MEMORY_CLIENTS,
      DEFAULT_MEMORY_CLIENTS,
      5000,
    ]);
    for (const bad of ['0', '-1', '1e5', '10k', ' 5']) expect(() => memoryClientsFrom(bad)).toThrow(/QUOTA_MEMORY_CLIENTS must be a whole number/);
  });
});

describe('over HTTP', () => {
  it('a forgotten client starts again from 0: its spent minute is open again once two other clients came (cap 2)', async () => {
    const m = await startMetered(demoSnapshotsDir, { trustProxy: 'loopback', counters: memoryCounters({ maxClients: 2 }) });
    try {
      const from = (ip: string) => () => m.call('/ranking?limit=1', { headers: { 'X-Forwarded-For': ip } });
      expect(count(await statuses(6, from('198.51.100.1')), 429)).toBe(1); // 5 a minute for the free tier
      expect((await from('198.51.100.2')()).status).toBe(200);
      expect((await from('198.51.100.3')()).status).toBe(200); // full: .1, idle longest, is forgotten
      expect(await statuses(6, from('198.51.100.1'))).toEqual([200, 200, 200, 200, 200, 429]);
    } finally {
      await m.close();
    }
  });
});

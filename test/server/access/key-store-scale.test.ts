import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyStore } from '../../../server/access/key-store.js';
import { addFillerKeys } from '../../helpers/many-keys.js';
import { startShimProcess, type ShimProcess } from './processes.js';
import { demoSnapshotsDir } from '../../helpers/demo-snapshots-dir.js';

const run = promisify(execFile);

/**
 * A key store of 500,000 keys behind a shim as `npm start` runs it (its heap limit included): a key
 * created or revoked with `npm run keys` is seen within about a second, and while that happens no
 * keyed call is held up. Reloading every key on each change stalled every keyed call 0.7–2.3 s at
 * 50,000–100,000 keys and ran the shim out of memory at 200,000.
 */
const KEYS = 500_000;
let dir: string;
let keysDb: string;
let shim: ShimProcess;
let keys: string[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'esg-many-keys-'));
  keysDb = join(dir, 'keys.sqlite');
  addFillerKeys(keysDb, KEYS);
  const store = KeyStore.open(keysDb);
  keys = Array.from({ length: 4 }, () => store.create({ tier: 'commercial', owner: 'load', daily: 1e9, perMinute: 1e9 }).key);
  store.close();
  shim = await startShimProcess({ SNAPSHOTS_DIR: demoSnapshotsDir, KEYS_DB: keysDb });
}, 240_000);

afterAll(async () => {
  await shim?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const keyed = async (key: string) => (await fetch(`${shim.base}/api/v1/ranking?limit=1`, { headers: { 'X-API-Key': key } })).status;
const keysCommand = async (...args: string[]) =>
  (await run(process.execPath, ['--import', 'tsx', 'server/cli/keys.ts', ...args], { env: { ...process.env, KEYS_DB: keysDb } })).stdout;

/** Keyed calls from 4 clients, one at a time each, until `until` settles (at most 30,000): each call's milliseconds. */
async function latencies(until: Promise<unknown>): Promise<number[]> {
  let done = false;
  void until.finally(() => (done = true));
  const ms: number[] = [];
  const client = async (key: string) => {
    while (!done && ms.length < 30_000) {
      const start = performance.now();
      expect(await keyed(key)).toBe(200);
      ms.push(performance.now() - start);
    }
  };
  await Promise.all(keys.map(client));
  await until;
  return ms;
}
const p99 = (ms: number[]) => [...ms].sort((a, b) => a - b)[Math.floor(ms.length * 0.99)]!;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe(`a key store of ${KEYS.toLocaleString('en')} keys`, () => {
  it('npm run keys create and revoke while keyed calls go on: each seen within about a second, and no call held past the calls’ own p99', async () => {
    const before = await latencies(pause(3000));
    // While the changes are made (each its own `npm run keys` process) and for 1.5 s after each, the shim's look for changes included.
    const changes = (async () => {
      const created = (await keysCommand('create', '--tier', 'academic', '--owner', 'scale')).trim().split('\n').at(-1)!;
      await pause(1500);
      const id = /^esg_([0-9a-f]{10})_/.exec(created)![1]!;
      await keysCommand('revoke', id);
      await pause(1500);
      return { created, id };
    })();
    const during = await latencies(changes);
    const { created } = await changes;
    expect(before.length, 'calls before').toBeGreaterThan(50);
    expect(during.length, 'calls during').toBeGreaterThan(50);
    // Generous, as the machine is shared (each `npm run keys` process takes a core to start): a
    // reload of every key held every call for seconds at this size.
    expect(p99(during), `p99 during ${p99(during).toFixed(1)} ms, before ${p99(before).toFixed(1)} ms`).toBeLessThanOrEqual(
      Math.max(3 * p99(before), p99(before) + 50),
    );
    expect(Math.max(...during), `the slowest call while keys changed (before: ${Math.max(...before).toFixed(1)} ms)`).toBeLessThan(
      Math.max(500, 2 * Math.max(...before)),
    );
    // The key was created, answered, then revoked: 401 from then on.
    expect(await keyed(created)).toBe(401);
  }, 120_000);

  it('a key made while the shim runs answers within about a second; revoked after use, it is refused within about a second', async () => {
    const created = (await keysCommand('create', '--tier', 'developer', '--owner', 'scale 2')).trim().split('\n').at(-1)!;
    const within = async (want: number) => {
      const start = performance.now();
      while ((await keyed(created)) !== want) {
        expect(performance.now() - start).toBeLessThan(2500);
        await pause(50);
      }
    };
    await within(200); // now remembered by the shim, which must forget it when revoked
    await keysCommand('revoke', /^esg_([0-9a-f]{10})_/.exec(created)![1]!);
    await within(401);
  }, 60_000);
});

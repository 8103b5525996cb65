import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { KeyStore } from '../../server/access/key-store.js';
import { startFront, type Front } from './front.js';
import { paced } from './load.js';
import { demoSnapshotsDir } from '../helpers/demo-snapshots-dir.js';
import { readOnlySnapshotsCopy } from '../helpers/link-copy.js';

/**
 * A soak of the production shape (nginx in front of two shims sharing Redis): a few minutes of a
 * moderate, steady load mixing what nginx serves itself, what it hands to the shims (metered calls,
 * other spellings, misses, a POST-free mix so the pacer stays simple) and the pages; every answer as
 * expected, and each shim's resident memory flat once warm.
 *
 * The bound: after a warm-up of a fifth of the run, each shim's RSS in the last fifth is within
 * SOAK_GROWTH_MB (16 MB) of the second fifth, and never above the start script's 200 MB. V8 grows
 * its heap in steps until a major collection, so the comparison is of each window's median, not of
 * two single samples. SOAK_SECONDS (default 150) sets the length.
 */
const SECONDS = Number(process.env.SOAK_SECONDS ?? 150);
const RATE = 120;
const GROWTH_MB = 16;
const MAX_RSS_MB = 200;

let dir: string;
let front: Front;
let key: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'esg-soak-'));
  const snapshotsDir = join(dir, 'snapshots');
  readOnlySnapshotsCopy(demoSnapshotsDir, snapshotsDir);
  const keysDb = join(dir, 'keys.sqlite');
  const keys = KeyStore.open(keysDb);
  key = keys.create({ tier: 'commercial', owner: 'soak test', daily: 1e9, perMinute: 1e9 }).key;
  keys.close();
  front = await startFront(dir, snapshotsDir, keysDb);
}, 120_000);

afterAll(async () => {
  await front?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

it(
  `${SECONDS} s at ${RATE} req/s through nginx: every answer as expected, each shim's memory flat`,
  async () => {
    const tickers = ['D1101', 'D1102', 'D1103', 'D1104', 'D1105', 'D1106', 'D1107', 'D1108'];
    const expected = new Map<string, number>();
    const paths: string[] = [];
    const add = (path: string, status: number) => {
      paths.push(path);
      expected.set(path, status);
    };
    tickers.forEach((t, i) => {
      add(`/api/v1/company/${t}`, 200); // nginx, from the tree
      add(`/api/v1/company/${t.toLowerCase()}/canonical`, 200); // another spelling: the shim
      add(`/api/v1/company/${t}/canonical?fields=flags,carbon`, 200); // metered
      add(`/api/v1/ranking?limit=${5 + i}&sort=${i % 2 ? 'score_asc' : 'score_desc'}`, 200);
      add(`/api/v1/compare?tickers=${t},${tickers[(i + 1) % tickers.length]}`, 200);
      add(`/api/v1/changes?min_abs_delta=${i}`, 200);
      add(`/api/v1/company/ZZ${i}99`, 404);
      add(`/company/${t}/`, 200);
    });
    add('/api/v1/usage', 200);
    add('/api/v1/ranking/page/2', 200);
    add('/ranking/', 200);

    const samples: { at: number; rss: number[] }[] = [];
    const start = performance.now();
    const sampler = setInterval(() => samples.push({ at: performance.now() - start, rss: front.shims.map((s) => rssMb(s.child.pid!)) }), 1000);
    let outcomes;
    try {
      outcomes = await paced(front.nginx.base, paths, {
        rate: RATE,
        headers: { 'X-API-Key': key },
        until: () => performance.now() - start > SECONDS * 1000,
        maxSeconds: SECONDS + 5,
        keepBodies: false,
      });
    } finally {
      clearInterval(sampler);
    }

    expect(outcomes.length).toBeGreaterThan(RATE * SECONDS * 0.9);
    const wrong = outcomes.filter((o) => o.status !== expected.get(o.path));
    expect(
      wrong.slice(0, 10).map((o) => `${o.path}: ${o.status} ${o.error ?? ''}`),
      `${wrong.length} of ${outcomes.length} unexpected`,
    ).toEqual([]);

    const fifth = (SECONDS * 1000) / 5;
    const window = (k: number) => samples.filter((s) => s.at >= k * fifth && s.at < (k + 1) * fifth);
    front.shims.forEach((_, i) => {
      const early = median(window(1).map((s) => s.rss[i]!));
      const late = median(window(4).map((s) => s.rss[i]!));
      const peak = Math.max(...samples.map((s) => s.rss[i]!));
      const report = `shim ${i + 1}: RSS ${early.toFixed(1)} MB (second fifth) → ${late.toFixed(1)} MB (last fifth), peak ${peak.toFixed(1)} MB`;
      console.info(`soak: ${report}; ${outcomes.length} requests`);
      expect(late - early, report).toBeLessThan(GROWTH_MB);
      expect(peak, report).toBeLessThan(MAX_RSS_MB);
    });
    // Both shims took a share of the computed calls.
    for (const shim of front.shims)
      expect(
        shim
          .log()
          .split('\n')
          .filter((l) => l.includes('"message":"request"')).length,
      ).toBeGreaterThan(RATE * SECONDS * 0.1);
  },
  (SECONDS + 120) * 1000,
);

import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaledChanges } from '../../build-scripts/history/scaled-changes.js';
import { writeChangesStore } from '../../build-scripts/history/write-changes-store.js';
import { KeyStore } from '../../server/access/key-store.js';
import type { ChangesResponse } from '../../src/contract/changes.js';
import type { IndexedChange } from '../../src/snapshot/changes-store.js';
import { ChangesStore } from '../../src/snapshot/changes-store.js';
import { CURRENT_LINK, currentSnapshotDir } from '../../src/snapshot/published.js';
import { fileForUrlPath } from '../../src/contract/api-paths.js';
import { urls } from '../../src/contract/urls.js';
import { freePort } from '../server/access/processes.js';
import { expectedBody, queryOf, type ChangesCase } from './changes-expected.js';
import { demoSeriesSnapshotsDir } from '../helpers/demo-series-dir.js';

/**
 * A month in which 100,000 companies moved (a year boundary at full scale: 83,625 moves wrote a
 * 52 MB changes.json, whose parse killed the shim), served by the shim as `npm start` runs it,
 * heap capped at 160 MB: filtered /changes (cause, industry, min_abs_delta, deep pages) answer
 * exactly the contract's pages and the process stays up, its resident memory under RSS_BOUND_MB at
 * every sample and at its peak (VmHWM). The changes database is made from copies of the demo's
 * real items under distinct tickers, written by the build's own writer; the rest of the snapshot is
 * the demo's.
 */
const MOVED = 100_000;
/**
 * Measured here: the shim peaks near 125 MB serving these (Node, tsx, Express, the demo snapshot's
 * caches), as it does with the demo's own 279 moves. Holding the moved companies' items instead
 * would add over 100 MB (the old changes.json path died at 160 MB of heap before answering).
 */
const RSS_BOUND_MB = 200;

let root: string;
let child: ChildProcess;
let base: string;
let key: string;
let template: ChangesResponse;
let demo: IndexedChange[];

/** MOVED changes in the contract's order, copies of the demo's items (scaledChanges). */
const synthesized = () => scaledChanges(demo, MOVED);

/** Resident memory of the shim now and at its peak, in MB (Linux). */
function memoryMb(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)![1]);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/** `npm start`'s node options (package.json), so the shim runs with the heap it has in production. */
function startFlags(): string[] {
  const script = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start;
  const words = script.split(/\s+/);
  return words.slice(words.indexOf('node') + 1);
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'esg-changes-memory-'));
  const current = currentSnapshotDir(demoSeriesSnapshotsDir)!;
  template = JSON.parse(readFileSync(join(current, 'tree', fileForUrlPath(urls.changes)), 'utf8')) as ChangesResponse;
  const store = ChangesStore.open(current);
  demo = [...store.entries()];
  store.close();

  const snapshots = join(root, 'snapshots');
  const id = basename(current);
  const folder = join(snapshots, id);
  mkdirSync(folder, { recursive: true });
  copyFileSync(join(current, 'snapshot.sqlite'), join(folder, 'snapshot.sqlite'));
  symlinkSync(join(current, 'tree'), join(folder, 'tree'));
  writeChangesStore(folder, template.from_snapshot_id, synthesized());
  symlinkSync(id, join(snapshots, CURRENT_LINK));

  const keysDb = join(root, 'keys.sqlite');
  const keys = KeyStore.open(keysDb);
  key = keys.create({ tier: 'developer', owner: 'changes memory test' }).key;
  keys.close();

  const port = await freePort();
  expect(startFlags()).toContain('--max-old-space-size=160');
  child = spawn(process.execPath, startFlags(), {
    env: { ...process.env, SNAPSHOTS_DIR: snapshots, KEYS_DB: keysDb, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr!.resume();
  base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  while (
    !(await fetch(`${base}/readyz`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('the shim did not start');
    await new Promise((r) => setTimeout(r, 50));
  }
}, 60_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
  rmSync(root, { recursive: true, force: true });
});

describe(`filtered /changes with ${MOVED.toLocaleString('en')} companies moved, heap capped at 160 MB`, () => {
  it(`answers exactly, stays up, and stays under ${RSS_BOUND_MB} MB resident`, async () => {
    const top = demo.find((c) => c.item.causes.some((x) => x.kind === 'timeliness'))!.industry;
    const cases: ChangesCase[] = [
      { cause: 'timeliness' },
      { cause: 'timeliness', page: 300 },
      { industry: top, page: 20 },
      { min_abs_delta: 5, page: 450 },
      { min_abs_delta: 10, limit: 100, page: 2 },
      { cause: 'flag_raised', industry: top, min_abs_delta: 5, limit: 50, page: 30 },
      { page: 500 },
      { page: 501 },
      { cause: 'company_removed' },
    ];
    const samples: number[] = [];
    for (const c of cases) {
      const res = await fetch(`${base}/api/v1/changes?${queryOf(c)}`, { headers: { 'X-API-Key': key } });
      const text = await res.text();
      expect(res.status, queryOf(c)).toBe(200);
      const expected = expectedBody(template, synthesized(), c);
      expect(text === expected, `${queryOf(c)}: the body differs from the contract's page`).toBe(true);
      samples.push(memoryMb(child.pid!).rss);
    }
    // The deep pages asked for are inside the list, so they were answered with items.
    expect(JSON.parse(expectedBody(template, synthesized(), { cause: 'timeliness', page: 300 })).data.length).toBe(200);
    expect(JSON.parse(expectedBody(template, synthesized(), { page: 500 })).data.length).toBe(200);
    expect(child.exitCode).toBeNull();
    expect((await fetch(`${base}/readyz`)).ok).toBe(true);
    const { peak } = memoryMb(child.pid!);
    expect(Math.max(...samples), `RSS samples ${samples.map((s) => s.toFixed(0)).join(', ')} MB`).toBeLessThan(RSS_BOUND_MB);
    expect(peak, 'peak RSS (VmHWM), MB').toBeLessThan(RSS_BOUND_MB);
  });
});

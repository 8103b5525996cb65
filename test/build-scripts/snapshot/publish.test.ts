import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAndPublish, type BuildOptions } from '../../../build-scripts/build.js';
import { demoPublishTime } from '../../../build-scripts/cli/defaults.js';
import { generateDemoSeries, type DemoMonth } from '../../../build-scripts/demo/series.js';
import { acquireBuildLock } from '../../../build-scripts/snapshot/publish.js';
import { silentProgress } from '../../../build-scripts/snapshot/progress.js';
import { storeFile } from '../../../src/snapshot/history-store.js';
import { currentSnapshotId, publishedSnapshotIds } from '../../../src/snapshot/published.js';
import { prunedSnapshotIds } from '../../../src/snapshot/retention.js';
import { getJson, startServer, untilServing } from '../../helpers/server.js';

const API = '/api/v1';
const dotted = (dir: string) =>
  readdirSync(dir)
    .filter((n) => n.startsWith('.'))
    .sort();
const json = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

/**
 * The publish step's edges: the build lock dies with its holder whatever its pid, links
 * left by unfinished publishes go, and a snapshot that never became current is withdrawn before
 * anything (changes, histories, the snapshot list) can count it.
 */
describe('publishing at the edges', () => {
  let root: string;
  let snapshotsDir: string;
  let months: DemoMonth[];
  const build = (m: number, over: Partial<BuildOptions> = {}) =>
    buildAndPublish({
      sourcesDir: months[m]!.dir,
      snapshotsDir,
      kind: 'demo',
      now: demoPublishTime(months[m]!.asof),
      progress: silentProgress,
      pages: false,
      ...over,
    });

  /** Runs a build of month `m` in a child process, whose `onStage` is `hook` (source text). */
  function childBuild(m: number, hook: string) {
    const script = `import { buildAndPublish } from './build-scripts/build.ts';
      import { silentProgress } from './build-scripts/snapshot/progress.ts';
      await buildAndPublish({ sourcesDir: ${JSON.stringify(months[m]!.dir)}, snapshotsDir: ${JSON.stringify(snapshotsDir)}, kind: 'demo',
        now: new Date(${JSON.stringify(demoPublishTime(months[m]!.asof).toISOString())}), progress: silentProgress, pages: false,
        onStage: ${hook} });`;
    return spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  }

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'esg-publish-edges-'));
    snapshotsDir = join(root, 'snapshots');
    months = await generateDemoSeries({ outDir: join(root, 'sources'), companies: 300, months: 3 });
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('a live build holds the lock, in this process or another; killed (SIGKILL), the next build takes it over', async () => {
    const release = acquireBuildLock(snapshotsDir);
    await expect(build(0)).rejects.toThrow(/another build holds/);
    release();

    // A real build, paused (60 s at most) inside its tree stage, holding the lock.
    const child = childBuild(
      0,
      `(s) => { if (s === 'tree') { console.log('holding'); Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000); } }`,
    );
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    await new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('holding')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`the child build ended (${code}) before its tree stage`)));
    });
    await expect(build(0)).rejects.toThrow(/another build holds/);
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const first = await build(0);
    expect(currentSnapshotId(snapshotsDir)).toBe(first.id);
    expect(dotted(snapshotsDir).filter((n) => n.startsWith('.work-'))).toEqual([]);
  }, 120_000);

  it('a pid file left by an earlier build is no lock, even naming pid 1 (alive in every PID namespace)', () => {
    writeFileSync(join(snapshotsDir, '.build.lock'), '1');
    const release = acquireBuildLock(snapshotsDir);
    release();
    expect(existsSync(join(snapshotsDir, '.build.lock'))).toBe(false);
  });

  it('stray .current-* entries are removed, and a link naming the current snapshot or nothing withdraws nothing', () => {
    const current = currentSnapshotId(snapshotsDir)!;
    symlinkSync(current, join(snapshotsDir, '.current-4242'));
    symlinkSync('2020-01-01', join(snapshotsDir, '.current-1'));
    writeFileSync(join(snapshotsDir, '.current-9'), 'not a link');
    acquireBuildLock(snapshotsDir)();
    expect(dotted(snapshotsDir).filter((n) => n.startsWith('.current-'))).toEqual([]);
    expect(publishedSnapshotIds(snapshotsDir)).toEqual([current]);
    expect(prunedSnapshotIds(snapshotsDir)).toEqual([]);
  });

  it('a build failing once its folder is in place withdraws it at once: nothing published, its id gone for good', async () => {
    const before = publishedSnapshotIds(snapshotsDir);
    const now = new Date('2026-12-15T00:00:00Z');
    await expect(
      build(1, {
        now,
        onStage: (s) => {
          if (s === 'current') throw new Error('boom between the renames');
        },
      }),
    ).rejects.toThrow('boom');
    expect(publishedSnapshotIds(snapshotsDir)).toEqual(before);
    expect(prunedSnapshotIds(snapshotsDir)).toEqual(['2026-12-15']);
    expect(existsSync(storeFile(snapshotsDir, '2026-12-15'))).toBe(false);
    expect(dotted(snapshotsDir).filter((n) => n.startsWith('.current-') || n.startsWith('.work-'))).toEqual([]);
  }, 120_000);

  it('a build killed (SIGKILL) between the folder rename and the link swap: the next build withdraws that snapshot, and its changes and histories never count it', async () => {
    const base = currentSnapshotId(snapshotsDir)!;
    const child = childBuild(1, `(s) => { if (s === 'current') process.kill(process.pid, 'SIGKILL'); }`);
    const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, s) => resolve(s)));
    expect(signal).toBe('SIGKILL');
    const orphan = publishedSnapshotIds(snapshotsDir).find((id) => id !== base)!;
    expect(orphan).toBeDefined();
    expect(currentSnapshotId(snapshotsDir)).toBe(base);
    const links = dotted(snapshotsDir).filter((n) => n.startsWith('.current-'));
    expect(links.map((n) => readlinkSync(join(snapshotsDir, n)))).toEqual([orphan]);

    const server = await startServer(snapshotsDir);
    try {
      // Until the next build it is readable at its pinned URLs, and nowhere else.
      expect((await getJson(`${server.base}${API}/snapshots/${orphan}/changes`)).status).toBe(200);
      const next = await build(2);
      expect(next.id).not.toBe(orphan);
      expect(publishedSnapshotIds(snapshotsDir)).toEqual([base, next.id]);
      expect(prunedSnapshotIds(snapshotsDir)).toContain(orphan);
      expect(existsSync(storeFile(snapshotsDir, orphan))).toBe(false);
      expect(dotted(snapshotsDir).filter((n) => n.startsWith('.current-') || n.startsWith('.pruned-'))).toEqual([]);

      const tree = join(next.dir, 'tree', 'api/v1');
      const changes = json(join(tree, 'changes.json'));
      expect(changes.from_snapshot_id).toBe(base);
      expect(changes.data.length).toBeGreaterThan(0);
      const ids = (body: { data: { dataset_snapshot_id: string }[] }) => body.data.map((e) => e.dataset_snapshot_id);
      expect(ids(json(join(tree, 'company/D1101/history.json')))).toEqual([next.id, base]);
      expect(ids(json(join(tree, 'snapshots.json')))).toEqual([next.id, base]);

      // The shim follows: the new changes are from the base, and the withdrawn id is gone (410).
      await untilServing(server, next.id);
      expect((await getJson(`${server.base}${API}/changes`)).body.from_snapshot_id).toBe(base);
      expect(
        (await getJson(`${server.base}${API}/company/D1101/history`)).body.data.map((e: { dataset_snapshot_id: string }) => e.dataset_snapshot_id),
      ).toEqual([next.id, base]);
      const gone = await getJson(`${server.base}${API}/snapshots/${orphan}/changes`);
      expect([gone.status, gone.body.error.code]).toEqual([410, 'GONE']);
    } finally {
      await server.close();
    }
  }, 180_000);

  it('the lock file stays (deleting it could let two builds lock two files) and is the only dot entry a build leaves', () => {
    expect(dotted(snapshotsDir)).toEqual(['.build-lock.sqlite']);
    // Held by nobody now: a child takes it and exits cleanly.
    const child = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `import { acquireBuildLock } from './build-scripts/snapshot/publish.ts'; acquireBuildLock(${JSON.stringify(snapshotsDir)})(); console.log('took it');`,
      ],
      { encoding: 'utf8' },
    );
    expect(child.stdout.trim()).toBe('took it');
  });
});

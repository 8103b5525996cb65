import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAndPublish } from '../../build-scripts/build.js';
import { demoPublishTime } from '../../build-scripts/cli/defaults.js';
import { generateDemo } from '../../build-scripts/demo/generate.js';
import { acquireBuildLock } from '../../build-scripts/snapshot/publish.js';
import { silentProgress } from '../../build-scripts/snapshot/progress.js';
import { currentSnapshotDir, currentSnapshotId, publishedSnapshotIds } from '../../src/snapshot/published.js';
import { SnapshotStore } from '../../src/snapshot/store.js';
import { buildDemoSnapshot, type DemoBuild } from '../helpers/demo-snapshot.js';

const NOW = new Date('2026-11-01T00:00:00Z');

/** Every table's rows, in a fixed order: what "the snapshot's contents" means for comparison. */
function dumpDb(path: string): Record<string, unknown[]> {
  const db = new Database(path, { readonly: true });
  try {
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .pluck()
      .all() as string[];
    return Object.fromEntries(
      tables.map((t) => [t, (db.prepare(`SELECT * FROM ${t}`).raw().all() as unknown[]).map((r) => JSON.stringify(r)).sort()]),
    );
  } finally {
    db.close();
  }
}

function treeHashes(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    out.set(relative(dir, path), createHash('sha256').update(readFileSync(path)).digest('hex'));
  }
  return out;
}

function assertReadable(snapshotsDir: string, id: string) {
  expect(currentSnapshotId(snapshotsDir)).toBe(id);
  const store = SnapshotStore.open(currentSnapshotDir(snapshotsDir)!);
  try {
    expect(store.meta.dataset_snapshot_id).toBe(id);
    expect(store.companyCount()).toBeGreaterThan(0);
    const first = store.firstTickers(1)[0]!;
    expect(store.company(first)?.ticker).toBe(first);
    expect(existsSync(join(currentSnapshotDir(snapshotsDir)!, `tree/api/v1/company/${first}.json`))).toBe(true);
  } finally {
    store.close();
  }
}

const workDirs = (snapshotsDir: string) => readdirSync(snapshotsDir).filter((n) => n.startsWith('.work-'));

describe('determinism', () => {
  let a: DemoBuild;
  let b: DemoBuild;
  beforeAll(async () => {
    a = await buildDemoSnapshot({ companies: 400 });
    b = await buildDemoSnapshot({ companies: 400 });
  });
  afterAll(() => {
    a.cleanup();
    b.cleanup();
  });

  it('two demo builds from the same seed give identical snapshot contents and identical trees', () => {
    expect(a.result.id).toBe(b.result.id);
    expect(dumpDb(join(a.result.dir, 'snapshot.sqlite'))).toEqual(dumpDb(join(b.result.dir, 'snapshot.sqlite')));
    const ta = treeHashes(join(a.result.dir, 'tree'));
    const tb = treeHashes(join(b.result.dir, 'tree'));
    expect(ta.size).toBeGreaterThan(800);
    expect([...ta.entries()]).toEqual([...tb.entries()]);
  });

  it('a different seed gives different contents', async () => {
    // Only the databases are compared, and the pages stage writes none (it reads the store): built without pages.
    const root = mkdtempSync(join(tmpdir(), 'esg-seed-'));
    try {
      const sourcesDir = join(root, 'sources');
      const generated = await generateDemo({ outDir: sourcesDir, companies: 400, seed: 7 });
      const c = await buildAndPublish({
        sourcesDir,
        snapshotsDir: join(root, 'snapshots'),
        kind: 'demo',
        now: demoPublishTime(generated.asof),
        progress: silentProgress,
        pages: false,
      });
      expect(dumpDb(join(c.dir, 'snapshot.sqlite'))).not.toEqual(dumpDb(join(a.result.dir, 'snapshot.sqlite')));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('publishing', () => {
  let root: string;
  let sourcesDir: string;
  let snapshotsDir: string;
  const build = (over: Partial<Parameters<typeof buildAndPublish>[0]> = {}) =>
    buildAndPublish({ sourcesDir, snapshotsDir, kind: 'demo', now: NOW, progress: silentProgress, ...over });

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'esg-publish-'));
    sourcesDir = join(root, 'sources');
    snapshotsDir = join(root, 'snapshots');
    // Every archetype is there from 50 companies; the tests here are of the publish, not of the scale.
    await generateDemo({ outDir: sourcesDir, companies: 100 });
    await build();
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('publishes the first build of a day as YYYY-MM-DD and makes it current', () => {
    assertReadable(snapshotsDir, '2026-11-01');
  });

  it('publishes a folder other users can read (a front server runs as its own user)', () => {
    const dir = join(snapshotsDir, '2026-11-01');
    expect(statSync(dir).mode & 0o777).toBe(0o755);
    // Nothing inside is private either: every folder and file readable by others.
    const walk = (d: string): string[] =>
      readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? [join(d, e.name), ...walk(join(d, e.name))] : [join(d, e.name)]));
    const unreadable = [dir, ...walk(dir)].filter((p) => (statSync(p).mode & 0o004) === 0);
    expect(unreadable).toEqual([]);
  });

  it.each(['database', 'tree', 'downloads', 'pages', 'publish'] as const)('a build failing at the %s stage publishes nothing', async (stage) => {
    const before = publishedSnapshotIds(snapshotsDir);
    await expect(
      build({
        onStage: (s) => {
          if (s === stage) throw new Error(`boom at ${s}`);
        },
      }),
    ).rejects.toThrow(`boom at ${stage}`);
    expect(publishedSnapshotIds(snapshotsDir)).toEqual(before);
    expect(workDirs(snapshotsDir)).toEqual([]);
    assertReadable(snapshotsDir, '2026-11-01');
  });

  it('a build over sources with a missing column fails naming the file and column, and publishes nothing', async () => {
    const broken = join(root, 'broken');
    cpSync(sourcesDir, broken, { recursive: true });
    const file = join(broken, 'GHG_P_01.0001.json');
    writeFileSync(file, readFileSync(file, 'utf8').replaceAll('"companyno":', '"company_number":'));
    await expect(build({ sourcesDir: broken })).rejects.toThrow(
      /SRC-MOENV-GHG_P_01 GHG_P_01\.0001\.json: missing required column or key "統一編號 \/ companyno"/,
    );
    assertReadable(snapshotsDir, '2026-11-01');
  });

  it('rejected rows fail the build with file:record, unless --max-rejects allows them', async () => {
    const bad = join(root, 'bad-rows');
    cpSync(sourcesDir, bad, { recursive: true });
    const file = join(bad, 't187ap46_L_1.json');
    const records = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>[];
    records.push({ ...records[0]!, 報告年度: 'not-a-year' });
    writeFileSync(file, JSON.stringify(records));
    await expect(build({ sourcesDir: bad })).rejects.toThrow(`t187ap46_L_1.json:record ${records.length}: 報告年度: not a year`);
    assertReadable(snapshotsDir, '2026-11-01');

    const allowed = await build({ sourcesDir: bad, maxRejects: 1 });
    expect(allowed.summary.rejects.count).toBe(1);
    expect(allowed.id).toBe('2026-11-01.2');
    assertReadable(snapshotsDir, '2026-11-01.2');
  });

  it('a second build on the same day gets a .N suffix and /snapshots lists every snapshot, newest first', async () => {
    const r = await build();
    expect(r.id).toBe('2026-11-01.3');
    const list = JSON.parse(readFileSync(join(r.dir, 'tree/api/v1/snapshots.json'), 'utf8'));
    expect(list.data.map((e: { dataset_snapshot_id: string }) => e.dataset_snapshot_id)).toEqual(['2026-11-01.3', '2026-11-01.2', '2026-11-01']);
    // Older snapshots' files are untouched: their own list still ends with themselves.
    const first = JSON.parse(readFileSync(join(snapshotsDir, '2026-11-01/tree/api/v1/snapshots.json'), 'utf8'));
    expect(first.data).toHaveLength(1);
  });

  it('refuses to run while another live build holds the lock', async () => {
    const release = acquireBuildLock(snapshotsDir);
    try {
      await expect(build()).rejects.toThrow(/another build/);
    } finally {
      release();
    }
  });
});

describe('a build killed with SIGKILL', () => {
  let root: string;
  let sourcesDir: string;
  let snapshotsDir: string;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'esg-kill-'));
    sourcesDir = join(root, 'sources');
    snapshotsDir = join(root, 'snapshots');
    // Large enough that each kill lands with stages still to run (the child is killed as it prints the marker).
    await generateDemo({ outDir: sourcesDir, companies: 3_000 });
    // The kills land before the pages stage; the snapshots around them need no pages.
    await buildAndPublish({ sourcesDir, snapshotsDir, kind: 'demo', now: NOW, progress: silentProgress, pages: false });
  }, 300_000);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  /** Runs `npm run snapshot` in a child and kills it -9 when its progress shows `marker`. */
  function killDuring(marker: RegExp): Promise<string> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'build-scripts/cli/snapshot.ts', '--sources', sourcesDir, '--kind', 'demo'], {
        env: { ...process.env, SNAPSHOTS_DIR: snapshotsDir },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let seen = '';
      const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
      child.stderr.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        if (marker.test(seen)) child.kill('SIGKILL');
      });
      child.on('exit', (code, signal) => {
        clearTimeout(timer);
        if (signal === 'SIGKILL') resolve(seen);
        else reject(new Error(`build ended by itself (code ${code}) before ${marker}:\n${seen}`));
      });
    });
  }

  it.each([/companies: \d+/, /snapshot database written/, /tree: \d+ files, /])(
    'leaves the old snapshot current and readable when killed at %s',
    async (marker) => {
      await killDuring(marker);
      expect(publishedSnapshotIds(snapshotsDir)).toEqual(['2026-11-01']);
      assertReadable(snapshotsDir, '2026-11-01');
    },
    180_000,
  );

  it('the next build takes over the dead build’s lock, removes its leftovers and publishes', async () => {
    const r = await buildAndPublish({ sourcesDir, snapshotsDir, kind: 'demo', now: NOW, progress: silentProgress, pages: false });
    expect(workDirs(snapshotsDir)).toEqual([]);
    assertReadable(snapshotsDir, r.id);
    // Built without pages: the API and downloads alone.
    expect(r.pages).toEqual({ files: 0, bytes: 0 });
    expect(readdirSync(join(r.dir, 'tree'))).toEqual(['api']);
  }, 180_000);
});

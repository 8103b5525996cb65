import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAndPublish } from '../../../build-scripts/build.js';
import { generateDemo } from '../../../build-scripts/demo/generate.js';
import { silentProgress } from '../../../build-scripts/snapshot/progress.js';
import { twseCompanyLayout } from '../../../build-scripts/sources/company-lists/twse-company.js';
import { currentSnapshotDir, publishedSnapshotIds } from '../../../src/snapshot/published.js';
import { SnapshotStore } from '../../../src/snapshot/store.js';
import { disclaimerFor } from '../../../src/views/envelope.js';

/**
 * `npm run snapshot` on a folder the demo generator wrote published the fictional demo as
 * `kind: production`, with the real-data disclaimer. The kind now follows the sources: the real CLI,
 * run as an operator runs it, on the real generator's output.
 */

const REPO = join(import.meta.dirname, '../../..');
const root = mkdtempSync(join(tmpdir(), 'esg-demo-kind-'));
const sources = join(root, 'sources');
afterAll(() => rmSync(root, { recursive: true, force: true }));
beforeAll(async () => {
  await generateDemo({ outDir: sources, companies: 30 });
}, 60_000);

/** `npm run snapshot -- --sources <sources> ...args`, publishing into `snapshotsDir`. */
function snapshotCli(snapshotsDir: string, ...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'build-scripts/cli/snapshot.ts', '--sources', sources, ...args], {
      cwd: REPO,
      env: { ...process.env, SNAPSHOTS_DIR: snapshotsDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Nothing published: no snapshot, no current link, no work folder left (the build lock's file may stay). */
function expectNothingPublished(snapshotsDir: string) {
  expect(publishedSnapshotIds(snapshotsDir)).toEqual([]);
  expect(currentSnapshotDir(snapshotsDir)).toBeNull();
  const left = existsSync(snapshotsDir) ? readdirSync(snapshotsDir).filter((f) => !f.startsWith('.build-lock')) : [];
  expect(left).toEqual([]);
}

describe('npm run snapshot on demo sources never publishes a production snapshot', () => {
  it('without --kind: a demo snapshot, with the demo disclaimer', async () => {
    const snapshotsDir = join(root, 'snapshots-plain');
    const r = await snapshotCli(snapshotsDir);
    expect(r.stderr).not.toMatch(/snapshot build failed/);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Kind: demo /m);
    const dir = currentSnapshotDir(snapshotsDir)!;
    const store = SnapshotStore.open(dir);
    try {
      expect(store.meta.kind).toBe('demo');
    } finally {
      store.close();
    }
    const canonical = JSON.parse(readFileSync(join(dir, 'tree/api/v1/company/D1101/canonical.json'), 'utf8'));
    expect(canonical.disclaimer).toBe(disclaimerFor({ kind: 'demo' }));
    expect(canonical.disclaimer).toMatch(/^DEMO DATA/);
    const list = JSON.parse(readFileSync(join(dir, 'tree/api/v1/snapshots.json'), 'utf8'));
    expect(list.data.map((e: { kind: string }) => e.kind)).toEqual(['demo']);
  }, 120_000);

  it('with --kind production: exit non-zero, says why, publishes nothing', async () => {
    const snapshotsDir = join(root, 'snapshots-production');
    const r = await snapshotCli(snapshotsDir, '--kind', 'production');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(
      /snapshot build failed: refused to publish a production snapshot: .*demo universe's fictional companies \(every company ticker starts with D/,
    );
    expect(r.stderr).toMatch(/leave --kind out, or pass --kind demo/);
    expect(r.stdout).toBe('');
    expectNothingPublished(snapshotsDir);
  }, 120_000);
});

describe('the data decides, not only the marker', () => {
  it('a copy of the demo without its manifest is still a demo', async () => {
    const copy = join(root, 'copied');
    cpSync(sources, copy, { recursive: true });
    rmSync(join(copy, 'manifest.json'));
    const snapshotsDir = join(root, 'snapshots-copied');
    const build = (kind?: 'production') =>
      buildAndPublish({ sourcesDir: copy, snapshotsDir, kind, now: new Date('2026-11-01T00:00:00Z'), progress: silentProgress, pages: false });
    await expect(build('production')).rejects.toThrow(/refused to publish a production snapshot/);
    expectNothingPublished(snapshotsDir);
    expect((await build()).summary.kind).toBe('demo');
  }, 120_000);

  it('a folder mixing a real ticker into the demo fails loudly, whatever kind is asked', async () => {
    const mixed = join(root, 'mixed');
    cpSync(sources, mixed, { recursive: true });
    const file = join(mixed, twseCompanyLayout.file);
    const tickerLabel = twseCompanyLayout.columns.ticker.labels[0]!;
    const rows = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>[];
    rows[0]![tickerLabel] = '2330';
    writeFileSync(file, JSON.stringify(rows));
    const snapshotsDir = join(root, 'snapshots-mixed');
    for (const kind of [undefined, 'demo', 'production'] as const) {
      await expect(
        buildAndPublish({ sourcesDir: mixed, snapshotsDir, kind, now: new Date('2026-11-01T00:00:00Z'), progress: silentProgress, pages: false }),
      ).rejects.toThrow(/mix the demo universe's fictional companies .* with real listings \(1: 2330\)/);
    }
    expectNothingPublished(snapshotsDir);
  }, 120_000);
});

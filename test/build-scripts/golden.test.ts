import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildAndPublish } from '../../build-scripts/build.js';
import { silentProgress } from '../../build-scripts/snapshot/progress.js';

/**
 * Golden build cases, in Observable Framework's shape: `test/input/build/<case>/` is a sources folder
 * of publisher files, a handful of companies each, in the form the build reads (slices of the genuine
 * answers, README.md there says which); `test/output/build/<case>/` is the tree the build must make
 * of it, compared file by file. A case whose output folder is missing is written by this test (a new
 * case, or one whose output was deleted to regenerate it): review what it wrote before committing.
 *
 * The API tree is compared whole but for the pages (`pages: false`: their own tests read them) and
 * two binary downloads, the SQLite file and the tree's tar.gz, whose bytes follow the SQLite and zlib
 * versions rather than the build: their hashes and sizes are named, not compared, wherever the tree
 * cites them, as is the hash of SHA256SUMS, which lists them (its text is compared).
 */

const INPUT = join(import.meta.dirname, '../input/build');
const OUTPUT = join(import.meta.dirname, '../output/build');
/** The publish moment: names the snapshot and is every body's generated_at. Retrieval times are the cases' manifest.json. */
const NOW = new Date('2026-08-02T00:00:00Z');
/** A handful of companies: the sources' absolute minima scaled to one record (an empty source still fails). */
const SCALE = 1e-6;
const BINARY = /\.(sqlite|tar\.gz)$/;
/** Files whose bytes depend on the binary downloads' bytes. */
const VOLATILE = /(\.sqlite|\.tar\.gz|\/SHA256SUMS)$/;

const cases = readdirSync(INPUT).filter((name) => statSync(join(INPUT, name)).isDirectory());
const root = mkdtempSync(join(tmpdir(), 'golden-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Every file under `dir`, by its path relative to it with forward slashes, in name order. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join('/'))
    .sort();
}

/** The text of each compared file, with the volatile hashes and sizes replaced by their names. */
function treeOf(treeDir: string): Map<string, string> {
  const all = filesUnder(treeDir);
  const volatile = all
    .filter((f) => VOLATILE.test(f))
    .map((f) => {
      const bytes = readFileSync(join(treeDir, f));
      const name = f.slice(f.lastIndexOf('/') + 1);
      return { name, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
    });
  const named = (text: string) =>
    volatile.reduce(
      (t, v) =>
        t
          .replaceAll(`"bytes":${v.bytes},"sha256":"${v.sha256}"`, `"bytes":"<bytes of ${v.name}>","sha256":"<sha256 of ${v.name}>"`)
          .replaceAll(v.sha256, `<sha256 of ${v.name}>`),
      text,
    );
  return new Map(all.filter((f) => !BINARY.test(f)).map((f) => [f, named(readFileSync(join(treeDir, f), 'utf8'))]));
}

describe.each(cases)('golden build %s', (name) => {
  it('builds, in under a second of CPU, the tree of test/output/build, file by file', async () => {
    const cpu = process.cpuUsage();
    const built = await buildAndPublish({
      sourcesDir: join(INPUT, name),
      snapshotsDir: join(root, name),
      now: NOW,
      assertScale: SCALE,
      progress: silentProgress,
      pages: false,
    });
    const { user, system } = process.cpuUsage(cpu);
    expect(built.summary.rejects.format()).toBe('');
    const actual = treeOf(join(built.dir, 'tree'));
    const expectedDir = join(OUTPUT, name);
    if (!existsSync(expectedDir)) {
      for (const [file, text] of actual) {
        mkdirSync(dirname(join(expectedDir, file)), { recursive: true });
        writeFileSync(join(expectedDir, file), text);
      }
      console.warn(`golden ${name}: wrote ${actual.size} expected files to ${relative(process.cwd(), expectedDir)}; review them`);
    }
    const expected = filesUnder(expectedDir);
    expect([...actual.keys()]).toEqual(expected);
    for (const file of expected) expect(actual.get(file), file).toBe(readFileSync(join(expectedDir, file), 'utf8'));
    // CPU time, not the clock: the build's own cost, whatever else the machine runs (the first case also loads the modules).
    expect((user + system) / 1000).toBeLessThan(1000);
  });
});

import { existsSync, statfsSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The fast lane (`npm run test:unit`): pure tests of the contract, the methodology, the views, the
 * adapters and the sources, which need no demo snapshot, no server and no browser. A new test file
 * in these folders joins it by its place. Everything else is the `integration` project; `npm test`
 * runs the unit lane first, then the `slow` and `integration` projects.
 */
const UNIT = [
  'test/src/*.test.ts',
  'test/src/contract/**/*.test.ts',
  'test/src/methodology/**/*.test.ts',
  'test/src/views/**/*.test.ts',
  'test/build-scripts/adapters/**/*.test.ts',
  'test/build-scripts/sources/**/*.test.ts',
];

/**
 * Files of the unit lane's folders that take seconds for what they prove (memory bounded over files
 * of 50–100 MB): the `slow` project, so that the fast lane stays fast. A unit-lane file that grows
 * past about 3 seconds moves here (by name) or splits, its large cases here.
 */
const SLOW = ['test/build-scripts/adapters/hostile-files-memory.test.ts'];

/**
 * Files that take minutes, started first. On a clean machine (CI) vitest has no timings yet and runs
 * larger files first; these are small files that run long (100,000 companies, a soak under load, the
 * OAuth floods, whole builds, the page walks), and one of them starting last kept a worker busy minutes
 * after the other had finished. Started first, longest first, they overlap the rest.
 */
const LONG_FIRST = [
  'test/build-scripts/scale.test.ts',
  'test/deploy/soak.test.ts',
  'test/server/oauth/limits.test.ts',
  'test/build-scripts/build.test.ts',
  'test/site/pages-browser.test.ts',
  'test/site/zh-pages-browser.test.ts',
];

/**
 * The tests' temporary folders (os.tmpdir(), in the tests and in the processes they start) in memory
 * where the machine has tmpfs with room, unless TMPDIR is set. Dozens of files write whole trees of
 * thousands of small files (builds, trees, pages, copies) and remove them, and the builds fsync what
 * they publish: on this machine's shared disk that was up to half the time of such a file (tree.test.ts
 * 39 s against 17 s), and the disk is not what they test. No code under test takes a folder from
 * os.tmpdir(): builds and the server write where they are told, and the cached demo snapshots stay on
 * disk (fixture-cache.ts). The 100,000-company build picks /dev/shm by itself (scale.test.ts).
 */
const TMP: Record<string, string> = !process.env.TMPDIR && roomy('/dev/shm', 2) ? { TMPDIR: '/dev/shm' } : {};

/** Whether a folder exists with `gib` GiB free: a container's /dev/shm is 64 MB unless raised, and the disk is used then. */
function roomy(path: string, gib: number): boolean {
  if (!existsSync(path)) return false;
  const { bavail, bsize } = statfsSync(path);
  return bavail * bsize >= gib * 2 ** 30;
}

class LongFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = LONG_FIRST.findIndex((path) => f.moduleId.endsWith(path));
      return i < 0 ? LONG_FIRST.length : i;
    };
    return sorted
      .map((f, i) => ({ f, i }))
      .sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i)
      .map(({ f }) => f);
  }
}

export default defineConfig({
  test: {
    // Several suites build a snapshot in a temp folder; give them room on a 2-core machine. (The shared
    // demo snapshots are built as a test file imports them, test/helpers/demo-*-dir.ts, under no timeout.)
    testTimeout: 60_000,
    hookTimeout: 300_000,
    pool: 'forks',
    env: TMP,
    // Vitest's default on 2 cores is one worker (cores − 1), which ran the suite file after file; many
    // files mostly wait (servers, browsers, child builds, disk), so two workers share the cores well.
    maxWorkers: 2,
    sequence: { sequencer: LongFirst },
    // The JSON report lets .ci/run print a plain `N passed, N failed` line.
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results.json' },
    projects: [
      { extends: true, test: { name: 'unit', include: UNIT, exclude: SLOW } },
      { extends: true, test: { name: 'slow', include: SLOW } },
      { extends: true, test: { name: 'integration', include: ['test/**/*.test.ts'], exclude: [...UNIT, ...SLOW] } },
    ],
  },
});

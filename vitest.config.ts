import { defineConfig } from 'vitest/config';

/**
 * The fast lane (`npm run test:unit`): pure tests of the contract, the methodology, the views, the
 * adapters and the sources, which need no demo snapshot, no server and no browser. A new test file
 * in these folders joins it by its place. Everything else is the `integration` project; `npm test`
 * runs both.
 */
const UNIT = [
  'test/src/*.test.ts',
  'test/src/contract/**/*.test.ts',
  'test/src/methodology/**/*.test.ts',
  'test/src/views/**/*.test.ts',
  'test/build-scripts/adapters/**/*.test.ts',
  'test/build-scripts/sources/**/*.test.ts',
];

export default defineConfig({
  test: {
    // Several suites build a snapshot in a temp folder; give them room on a 2-core machine. (The shared
    // demo snapshots are built as a test file imports them, test/helpers/demo-*-dir.ts, under no timeout.)
    testTimeout: 60_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // Vitest's default on 2 cores is one worker (cores − 1), which ran the suite file after file; many
    // files mostly wait (servers, browsers, child builds, disk), so two workers share the cores well.
    maxWorkers: 2,
    // The JSON report lets .ci/run print a plain `N passed, N failed` line.
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results.json' },
    projects: [
      { extends: true, test: { name: 'unit', include: UNIT } },
      { extends: true, test: { name: 'integration', include: ['test/**/*.test.ts'], exclude: UNIT } },
    ],
  },
});

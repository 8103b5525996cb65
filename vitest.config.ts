import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Several suites build a snapshot in a temp folder; give them room on a 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // Vitest's default on 2 cores is one worker (cores − 1), which ran the suite file after file; many
    // files mostly wait (servers, browsers, child builds, disk), so two workers share the cores well.
    maxWorkers: 2,
    // The JSON report lets .ci/run print a plain `N passed, N failed` line.
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results.json' },
  },
});

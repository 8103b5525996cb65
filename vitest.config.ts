import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Several suites build a snapshot in a temp folder; give them room on a 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // The JSON report lets .ci/run print a plain `N passed, N failed` line.
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results.json' },
  },
});

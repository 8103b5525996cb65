import type { FixtureSpec } from './fixture-cache.js';

/**
 * What the demo snapshots are built from: the build and everything it imports or reads (the server's
 * headers and errors, the pages' components and docs/research.md, the dependencies' versions), and
 * the helpers that drive it. A change to any of them builds the demo again.
 */
export const DEMO_INPUTS: FixtureSpec['inputs'] = [
  'build-scripts',
  'src',
  'server',
  'docs',
  'package-lock.json',
  'astro.config.mjs',
  'tsconfig.json',
  'test/helpers/demo-snapshot.ts',
  'test/helpers/demo-series.ts',
];

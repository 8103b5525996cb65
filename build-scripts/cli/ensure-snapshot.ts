import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { currentSnapshotDir, snapshotsDirFromEnv } from '../../src/snapshot/published.js';
import { DEFAULT_DEMO_SOURCES, publishDemo } from './defaults.js';

/**
 * Run by `npm start` before the server: on a fresh clone nothing is published, so it generates the
 * demo universe and publishes a snapshot from it; otherwise it does nothing. The server itself
 * never builds (server/ imports nothing from build-scripts/).
 */
const snapshotsDir = snapshotsDirFromEnv();
const current = currentSnapshotDir(snapshotsDir);
if (current === null || !existsSync(current)) {
  console.error(`No snapshot published in ${snapshotsDir}: building the demo snapshot.`);
  await publishDemo({ sourcesDir: resolve(DEFAULT_DEMO_SOURCES) });
}

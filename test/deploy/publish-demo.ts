/**
 * node --import tsx test/deploy/publish-demo.ts SNAPSHOTS_DIR COMPANIES ASOF
 * Publishes a demo snapshot into SNAPSHOTS_DIR (swapping its `current`), in a process of its own so
 * the test's load keeps its pace while the build takes the cores; prints the new snapshot id.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildAndPublish } from '../../build-scripts/build.js';
import { demoPublishTime } from '../../build-scripts/cli/defaults.js';
import { generateDemo } from '../../build-scripts/demo/generate.js';
import { silentProgress } from '../../build-scripts/snapshot/progress.js';

const [snapshotsDir, companies, asof] = process.argv.slice(2);
if (!snapshotsDir || !companies || !asof) throw new Error('usage: publish-demo.ts SNAPSHOTS_DIR COMPANIES ASOF');
const sources = mkdtempSync(join(tmpdir(), 'esg-publish-'));
try {
  await generateDemo({ outDir: sources, companies: Number(companies), asof });
  const result = await buildAndPublish({ sourcesDir: sources, snapshotsDir, kind: 'demo', now: demoPublishTime(asof), progress: silentProgress });
  process.stdout.write(`${result.id}\n`);
} finally {
  rmSync(sources, { recursive: true, force: true });
}

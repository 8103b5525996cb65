import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildAndPublish, type BuildResult } from '../../build-scripts/build.js';
import { demoPublishTime } from '../../build-scripts/cli/defaults.js';
import { generateDemo } from '../../build-scripts/demo/generate.js';
import { silentProgress } from '../../build-scripts/snapshot/progress.js';

export interface DemoBuild {
  root: string;
  sourcesDir: string;
  snapshotsDir: string;
  result: BuildResult;
  cleanup(): void;
}

/** Generates demo sources and publishes a snapshot from them, all inside a fresh temp folder. */
export async function buildDemoSnapshot(o: { companies?: number; seed?: number; root?: string } = {}): Promise<DemoBuild> {
  const root = o.root ?? mkdtempSync(join(tmpdir(), 'esg-demo-'));
  const sourcesDir = join(root, 'sources');
  const snapshotsDir = join(root, 'snapshots');
  const generated = await generateDemo({ outDir: sourcesDir, companies: o.companies ?? 1800, ...(o.seed ? { seed: o.seed } : {}) });
  const result = await buildAndPublish({ sourcesDir, snapshotsDir, kind: 'demo', now: demoPublishTime(generated.asof), progress: silentProgress });
  return { root, sourcesDir, snapshotsDir, result, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

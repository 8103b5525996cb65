import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildAndPublish, type BuildResult } from '../../build-scripts/build.js';
import { demoPublishTime } from '../../build-scripts/cli/defaults.js';
import { generateDemoSeries, type DemoMonth } from '../../build-scripts/demo/series.js';
import { silentProgress } from '../../build-scripts/snapshot/progress.js';

export interface DemoSeriesBuild {
  root: string;
  snapshotsDir: string;
  months: DemoMonth[];
  results: BuildResult[];
  cleanup(): void;
}

/** The evolving demo (what `npm run demo` publishes), built month by month inside a fresh temp folder. */
export async function buildDemoSeries(
  o: { companies?: number; months?: number; root?: string; afterEach?: (r: BuildResult) => Promise<void> } = {},
): Promise<DemoSeriesBuild> {
  const root = o.root ?? mkdtempSync(join(tmpdir(), 'esg-series-'));
  const snapshotsDir = join(root, 'snapshots');
  const months = await generateDemoSeries({ outDir: join(root, 'sources'), companies: o.companies ?? 1800, months: o.months ?? 2 });
  const results: BuildResult[] = [];
  for (const m of months) {
    const r = await buildAndPublish({ sourcesDir: m.dir, snapshotsDir, kind: 'demo', now: demoPublishTime(m.asof), progress: silentProgress });
    results.push(r);
    await o.afterEach?.(r);
  }
  return { root, snapshotsDir, months, results, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

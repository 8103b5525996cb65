import type { TestProject } from 'vitest/node';
import { buildDemoSnapshot } from './helpers/demo-snapshot.js';
import { buildDemoSeries } from './helpers/demo-series.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Snapshots folder holding the default (1,800-company) demo snapshot, built once per run. */
    demoSnapshotsDir: string;
    /** Snapshots folder holding the evolving demo (`npm run demo`): two 1,800-company months, built once per run. */
    demoSeriesSnapshotsDir: string;
  }
}

export default async function setup(project: TestProject) {
  const demo = await buildDemoSnapshot();
  const series = await buildDemoSeries();
  project.provide('demoSnapshotsDir', demo.snapshotsDir);
  project.provide('demoSeriesSnapshotsDir', series.snapshotsDir);
  return () => {
    demo.cleanup();
    series.cleanup();
  };
}

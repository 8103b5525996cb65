import type { TestProject } from 'vitest/node';
import { buildDemoSnapshot } from './helpers/demo-snapshot.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Snapshots folder holding the default (1,800-company) demo snapshot, built once per run. */
    demoSnapshotsDir: string;
  }
}

export default async function setup(project: TestProject) {
  const demo = await buildDemoSnapshot();
  project.provide('demoSnapshotsDir', demo.snapshotsDir);
  return () => demo.cleanup();
}

import { resolve } from 'node:path';

/** Where published snapshots live: SNAPSHOTS_DIR, default data/snapshots under the project. */
export function snapshotsDirFromEnv(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.SNAPSHOTS_DIR ?? 'data/snapshots');
}

export const DEFAULT_DEMO_SOURCES = 'data/demo-sources';

/** The demo's publish moment is fixed (the day after its as-of date) so demo builds are reproducible. */
export function demoPublishTime(asof: string): Date {
  const d = new Date(`${asof}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d;
}

import { buildAndPublish, type BuildResult } from './build.js';
import { fetchSources, type FetchOptions, type FetchResult } from './fetch/fetch-sources.js';
import type { Progress } from './snapshot/progress.js';
import type { SnapshotKind } from '../src/contract/vocabulary.js';

/**
 * The monthly run: every source fetched from its publisher into `sourcesDir` (the previous folder
 * stays until the new one is complete), then built, checked and published as a production snapshot.
 * Throws on any failure; the current snapshot is then the one before.
 */
export async function refresh(o: {
  sourcesDir: string;
  snapshotsDir: string;
  env: NodeJS.ProcessEnv;
  now: Date;
  maxRejects?: number;
  assertScale: number;
  serviceHost?: string;
  http?: FetchOptions['http'];
  log: (message: string) => void;
  progress: Progress;
  /**
   * What the fetched sources must be (snapshot/snapshot-kind.ts): production, the publishers' real
   * listings, unless said otherwise. The bench's loopback publishers serve the demo universe: 'demo'.
   */
  kind?: SnapshotKind;
  /** Called with the fetch's result before the build starts (the summary of what each source gave). */
  onFetched?: (r: FetchResult) => void;
}): Promise<{ fetched: FetchResult; built: BuildResult }> {
  const fetched = await fetchSources({ outDir: o.sourcesDir, env: o.env, log: o.log, http: o.http, now: () => o.now });
  o.onFetched?.(fetched);
  const built = await buildAndPublish({
    sourcesDir: o.sourcesDir,
    snapshotsDir: o.snapshotsDir,
    kind: o.kind ?? 'production',
    now: o.now,
    maxRejects: o.maxRejects,
    assertScale: o.assertScale,
    serviceHost: o.serviceHost,
    progress: o.progress,
  });
  return { fetched, built };
}

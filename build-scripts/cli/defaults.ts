import { buildAndPublish } from '../build.js';
import { generateDemoSeries } from '../demo/series.js';
import { stderrProgress } from '../snapshot/progress.js';
import { snapshotsDirFromEnv } from '../../src/snapshot/published.js';
import { formatSummary } from './summary.js';
export const DEFAULT_DEMO_SOURCES = 'data/demo-sources';

/** The demo's publish moment is fixed (the day after its as-of date) so demo builds are reproducible. */
export function demoPublishTime(asof: string): Date {
  const d = new Date(`${asof}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d;
}

function monthsAfter(t: Date, months: number): Date {
  const d = new Date(t);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d;
}

/**
 * Generates the evolving demo's months and builds and publishes a snapshot from each in order,
 * printing the summaries: what `npm run demo` does, and what `npm start` does on a fresh clone.
 */
export async function publishDemo(o: { sourcesDir: string; companies?: number; seed?: number; now?: Date }): Promise<void> {
  const start = performance.now();
  const progress = stderrProgress('demo');
  try {
    // Two months a month apart, the second evolved from the first (build-scripts/demo/evolve.ts).
    const months = await generateDemoSeries({
      outDir: o.sourcesDir,
      ...(o.companies ? { companies: o.companies } : {}),
      ...(o.seed ? { seed: o.seed } : {}),
    });
    for (const [i, month] of months.entries()) {
      progress.step(`demo sources for ${month.asof} written to ${month.dir}`);
      for (const e of month.events) progress.step(`demo event ${e.kind}${e.ticker ? ` ${e.ticker}` : ''}: ${e.detail}`);
      const result = await buildAndPublish({
        sourcesDir: month.dir,
        snapshotsDir: snapshotsDirFromEnv(),
        kind: 'demo',
        now: o.now ? monthsAfter(o.now, i) : demoPublishTime(month.asof),
        serviceHost: process.env.SERVICE_HOST,
        progress,
      });
      console.error(formatSummary(result, performance.now() - start));
    }
  } catch (e) {
    console.error(`demo build failed: ${(e as Error).message}`);
    process.exit(1);
  }
}

import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { LOCALES } from '../../../src/site/i18n/locales.js';
import { currentSnapshotDir } from '../../../src/snapshot/published.js';
import { demoSnapshotsDir } from '../../helpers/demo-snapshots-dir.js';

/**
 * The page writer renders with Astro's runtime against a render result it builds itself (faster
 * than the container API, but a copy of an Astro internal). Astro's public container must render
 * the same bytes; if an Astro upgrade changes that internal, this fails.
 */
describe('page renderer', () => {
  it('renders company pages byte for byte as Astro’s container API does', () => {
    const dir = currentSnapshotDir(demoSnapshotsDir)!;
    const tickers = ['D1101', 'D1104', 'D1139'];
    const out = execFileSync(
      process.execPath,
      ['--import', 'tsx', '--import', './build-scripts/pages/register-astro.mjs', 'test/build-scripts/pages/container-check.ts', dir, ...tickers],
      { encoding: 'utf8', timeout: 120_000 },
    );
    const results = JSON.parse(out.trim().split('\n').pop()!) as { ticker: string; same: boolean; bytes: number }[];
    expect(results.map((r) => r.ticker)).toEqual(tickers.flatMap((t) => LOCALES.map((l) => `${l} ${t}`)));
    for (const r of results) {
      expect(r.bytes, r.ticker).toBeGreaterThan(1000);
      expect(r.same, r.ticker).toBe(true);
    }
  }, 150_000);
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAndPublish, type BuildResult } from '../../build-scripts/build.js';
import { demoPublishTime } from '../../build-scripts/cli/defaults.js';
import { generateDemoSeries, type DemoMonth } from '../../build-scripts/demo/series.js';
import { silentProgress } from '../../build-scripts/snapshot/progress.js';
import { newestFirst } from '../../src/snapshot/newest-first.js';
import { getJson, startServer, type RunningServer } from '../helpers/server.js';

const API = '/api/v1';
const ids = (body: { data: { dataset_snapshot_id: string }[] }) => body.data.map((e) => e.dataset_snapshot_id);

describe('"newest first" is one order: by data date, then by publish time (contract 5 and 10)', () => {
  it('a later data date comes first whatever was published last; the same date goes by publish time, then id', () => {
    const s = (id: string, asof: string, at: string) => ({ dataset_snapshot_id: id, data_asof: asof, published_at: at });
    const jan = s('2026-02-01', '2026-01-31', '2026-02-01T00:00:00Z');
    const feb = s('2026-03-01', '2026-02-28', '2026-03-01T00:00:00Z');
    const janCorrected = s('2026-03-10', '2026-01-31', '2026-03-10T08:00:00Z');
    const sameSecond = s('2026-03-10.2', '2026-01-31', '2026-03-10T08:00:00Z');
    expect([jan, janCorrected, sameSecond, feb].sort(newestFirst)).toEqual([feb, sameSecond, janCorrected, jan]);
  });

  describe('a corrected older month published after a later one', () => {
    let root: string;
    let server: RunningServer;
    let jan: BuildResult;
    let feb: BuildResult;
    let corrected: BuildResult;
    const asof = { jan: '', feb: '' };

    beforeAll(async () => {
      root = mkdtempSync(join(tmpdir(), 'esg-newest-first-'));
      const snapshotsDir = join(root, 'snapshots');
      // Two months of the evolving demo; the first is then published again, two weeks after the second.
      const [m1, m2] = (await generateDemoSeries({ outDir: join(root, 'sources'), companies: 120, months: 2 })) as [DemoMonth, DemoMonth];
      [asof.jan, asof.feb] = [m1.asof, m2.asof];
      const publish = (dir: string, now: Date) =>
        buildAndPublish({ sourcesDir: dir, snapshotsDir, kind: 'demo', now, progress: silentProgress, pages: false });
      jan = await publish(m1.dir, demoPublishTime(m1.asof));
      feb = await publish(m2.dir, demoPublishTime(m2.asof));
      corrected = await publish(m1.dir, new Date(demoPublishTime(m2.asof).getTime() + 14 * 86_400_000));
      server = await startServer(snapshotsDir);
    }, 180_000);
    afterAll(async () => {
      await server?.close();
      rmSync(root, { recursive: true, force: true });
    });

    it('/snapshots, a company history and the feed all list the later month, then the correction, then the original', async () => {
      const order = [feb.id, corrected.id, jan.id];
      // Ids alone would put the correction first (it was published last).
      expect([...order].sort().reverse()[0]).toBe(corrected.id);
      const snapshots = (await getJson(`${server.base}${API}/snapshots`)).body;
      expect(snapshots.dataset_snapshot_id).toBe(corrected.id);
      expect(ids(snapshots)).toEqual(order);
      const history = (await getJson(`${server.base}${API}/company/D1101/history`)).body;
      expect(ids(history)).toEqual(order);
      expect(history.data.map((e: { data_asof: string }) => e.data_asof)).toEqual([asof.feb, asof.jan, asof.jan]);
      const xml = await (await fetch(`${server.base}${API}/feed.atom`)).text();
      const feed = new XMLParser({ isArray: (name) => name === 'entry' }).parse(xml).feed;
      expect(feed.entry.map((x: { id: string }) => x.id.split('snapshot/')[1])).toEqual(order);
    });

    it('each snapshot pinned keeps what it listed when it was current', async () => {
      const pinned = async (id: string, path: string) => ids((await getJson(`${server.base}${API}/snapshots/${id}${path}`)).body);
      expect(await pinned(feb.id, '/snapshots')).toEqual([feb.id, jan.id]);
      // Feb's history files are gone from its tree since the correction was published: rebuilt from the store, same order.
      expect(await pinned(feb.id, '/company/D1101/history')).toEqual([feb.id, jan.id]);
      expect(await pinned(jan.id, '/company/D1101/history')).toEqual([jan.id]);
    });
  });
});

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAndPublish } from '../../build-scripts/build.js';
import { demoPublishTime } from '../../build-scripts/cli/defaults.js';
import { generateDemoSeries } from '../../build-scripts/demo/series.js';
import { silentProgress } from '../../build-scripts/snapshot/progress.js';
import { publishedSnapshotIds } from '../../src/snapshot/published.js';
import { getJson, startServer, type RunningServer } from '../helpers/server.js';
import { demoSeriesSnapshotsDir } from '../helpers/demo-series-dir.js';

const ATOM_NS = 'http://www.w3.org/2005/Atom';
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', isArray: (name) => ['entry', 'link'].includes(name) });

/** Parses an Atom document strictly and checks RFC 4287's required elements; returns the feed. */
function parseAtom(xml: string) {
  expect(XMLValidator.validate(xml)).toBe(true);
  const doc = parser.parse(xml);
  const feed = doc.feed;
  expect(feed['@xmlns']).toBe(ATOM_NS);
  expect(typeof feed.id).toBe('string');
  expect(feed.id).toMatch(/^tag:[^,]+,\d{4}:/);
  expect(typeof feed.title).toBe('string');
  expect(feed.updated).toMatch(RFC3339);
  expect(feed.author.name).toBeTruthy(); // feed-level author: entries inherit it
  expect(feed.link.find((l: any) => l['@rel'] === 'self')['@href']).toMatch(/^https:\/\/.+\/api\/v1\/feed\.atom$/);
  for (const e of feed.entry ?? []) {
    expect(e.id).toMatch(/^tag:/);
    expect(typeof e.title).toBe('string');
    expect(e.updated).toMatch(RFC3339);
    expect(e.content['@type']).toBe('text');
    expect(e.link[0]['@href']).toMatch(/\/api\/v1\/snapshots\/[\d.-]+\/changes$/);
  }
  return feed;
}

describe('GET /feed.atom', () => {
  let server: RunningServer;
  let ids: string[];
  beforeAll(async () => {
    const dir = demoSeriesSnapshotsDir;
    ids = publishedSnapshotIds(dir);
    server = await startServer(dir);
  });
  afterAll(() => server?.close());

  it('is well-formed Atom 1.0 with an entry per snapshot, newest first, typed application/atom+xml', async () => {
    const res = await fetch(`${server.base}/api/v1/feed.atom`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    const feed = parseAtom(await res.text());
    expect(feed.entry.map((e: any) => e.id)).toEqual([...ids].reverse().map((id) => expect.stringContaining(`snapshot/${id}`)));
    const changes = (await getJson(`${server.base}/api/v1/changes`)).body;
    // The newest entry counts the changes and names the largest move with its causes.
    const [changed, added, removed] = /(\d+) companies changed, (\d+) added, (\d+) removed/.exec(feed.entry[0].title)!.slice(1).map(Number) as [
      number,
      number,
      number,
    ];
    expect(changed + added + removed).toBe(changes.meta.total);
    expect([added, removed]).toEqual([1, 1]);
    expect(feed.entry[0].content['#text']).toContain(changes.data[0].ticker);
    expect(feed.entry[0].content['#text']).toContain(changes.data[0].causes.find((c: any) => c.points).detail);
    expect(feed.entry[1].title).toContain('the first snapshot');
    const pinned = await fetch(`${server.base}/api/v1/snapshots/${ids[0]}/feed.atom`);
    expect(pinned.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
    expect(parseAtom(await pinned.text()).entry.length).toBe(1);
    expect((await getJson(`${server.base}/api/v1/feed.atom?x=1`)).status).toBe(400);
  });

  it('ids stay the same across rebuilds; a third build keeps the earlier entries as they were and adds its own', async () => {
    const root = mkdtempSync(join(tmpdir(), 'esg-feed-'));
    try {
      const months = await generateDemoSeries({ outDir: join(root, 'sources'), companies: 120, months: 3 });
      const feeds: string[] = [];
      for (const snapshots of ['a', 'b']) {
        for (const m of months) {
          const r = await buildAndPublish({
            sourcesDir: m.dir,
            snapshotsDir: join(root, snapshots),
            kind: 'demo',
            now: demoPublishTime(m.asof),
            progress: silentProgress,
            pages: false,
          });
          feeds.push(readFileSync(join(r.dir, 'tree/api/v1/feed.atom'), 'utf8'));
        }
      }
      const [a1, a2, a3, b1, b2, b3] = feeds.map(parseAtom);
      expect([b1, b2, b3]).toEqual([a1, a2, a3]);
      expect(a3.id).toBe(a1.id);
      expect(a3.entry.length).toBe(3);
      expect(a3.entry.slice(1)).toEqual(a2.entry);
      expect(a2.entry.slice(1)).toEqual(a1.entry);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 120_000);
});

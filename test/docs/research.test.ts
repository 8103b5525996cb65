import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESEARCH_GUIDES } from '../../build-scripts/pages/research-guide.js';
import { snapshotsResponseSchema } from '../../src/contract/snapshots.js';
import { LOCALES } from '../../src/site/i18n/locales.js';
import { DOWNLOADS_DIR } from '../../src/contract/api-paths.js';
import { currentSnapshotId } from '../../src/snapshot/published.js';
import { getJson, startServer, type RunningServer } from '../helpers/server.js';
import { GuideSession, guideBlocks, type GuideBlock } from './guide-blocks.js';
import { demoSeriesSnapshotsDir } from '../helpers/demo-series-dir.js';

/**
 * The researchers' guides work as written, in every language (docs/research.md and its Traditional
 * Chinese counterpart docs/research.zh-TW.md): every block marked runnable is run in order, as a
 * reader would in one terminal, in an empty folder of the guide's own, against a shim serving a
 * freshly built demo (the two months `npm start` publishes on a fresh clone). The guides have the
 * same runnable blocks in the same order (comment lines aside: they may be translated), so none
 * drifts from the English. The blocks it does not run (pandas, R) may only name tables and columns
 * the snapshot's Data Package has.
 */
const guides = LOCALES.map((locale) => {
  const blocks = guideBlocks(readFileSync(RESEARCH_GUIDES[locale], 'utf8'));
  return { locale, name: `docs/${basename(RESEARCH_GUIDES[locale])}`, blocks, runnable: blocks.filter((b) => b.kind !== 'other') };
});

let server: RunningServer;
beforeAll(async () => {
  server = await startServer(demoSeriesSnapshotsDir);
});
afterAll(async () => {
  await server?.close();
});

/** What must be equal across languages: a block's kind, its database file, and its code without comment lines. */
function comparable(b: GuideBlock) {
  const comment = b.kind === 'sh' ? /^\s*#/ : /^\s*--/;
  return {
    kind: b.kind,
    file: b.file,
    code: b.code
      .split('\n')
      .filter((l) => !comment.test(l))
      .join('\n'),
  };
}

describe('the guides in every language', () => {
  it("have the same runnable blocks in the same order, comment lines aside, and the same other blocks' languages", () => {
    const [en, ...others] = guides;
    expect(others.length).toBeGreaterThan(0);
    for (const g of others) {
      expect(g.runnable.map(comparable), `${g.name} against ${en!.name}`).toEqual(en!.runnable.map(comparable));
      expect(
        g.blocks.map((b) => b.lang),
        `${g.name} against ${en!.name}`,
      ).toEqual(en!.blocks.map((b) => b.lang));
    }
  });
});

for (const { name, blocks, runnable } of guides) {
  describe(name, () => {
    let home: string;
    let session: GuideSession;
    let failedAt: GuideBlock | null = null;
    const outputs = new Map<GuideBlock, string>();

    beforeAll(() => {
      home = mkdtempSync(join(tmpdir(), 'esg-guide-'));
      // The reader's environment, with API pointing at the test's server (the guide keeps a set API),
      // reached directly even where a proxy is configured.
      const direct = [process.env.NO_PROXY ?? process.env.no_proxy, '127.0.0.1', 'localhost'].filter(Boolean).join(',');
      session = new GuideSession(home, { ...process.env, NO_PROXY: direct, no_proxy: direct, API: `${server.base}/api/v1` });
    });
    afterAll(() => {
      session?.close();
      rmSync(home, { recursive: true, force: true });
    });

    it('marks blocks of every kind runnable, the first of them setting API', () => {
      expect(new Set(runnable.map((b) => b.kind))).toEqual(new Set(['sh', 'sqlite3', 'duckdb']));
      expect(runnable[0]!.kind).toBe('sh');
      expect(runnable[0]!.code).toMatch(/^export API="\$\{API:-http:\/\/localhost:8080\/api\/v1\}"$/m);
    });

    describe.sequential('every runnable block, in order, as in one terminal', () => {
      for (const block of runnable) {
        it(`${block.kind} block at line ${block.line}`, { timeout: 180_000 }, async () => {
          if (failedAt) throw new Error(`not run: the block at line ${failedAt.line} failed`);
          try {
            const ran = await session.run(block);
            outputs.set(block, ran.stdout);
            if (ran.rows !== undefined) expect(ran.rows, `the SQL block at line ${block.line} gives no rows`).toBeGreaterThan(0);
          } catch (e) {
            failedAt = block;
            throw e;
          }
        });
      }
    });

    it('left the reader with both snapshots downloaded and verified, as the API lists them', async () => {
      expect(failedAt).toBeNull();
      const list = snapshotsResponseSchema.parse((await getJson(`${server.base}/api/v1/snapshots`)).body);
      expect(session.variable('SNAPSHOT')).toBe(list.data[0]!.dataset_snapshot_id);
      expect(session.variable('PREVIOUS')).toBe(list.data[1]!.dataset_snapshot_id);
      for (const entry of list.data) {
        const folder = join(home, 'esg-data', entry.dataset_snapshot_id);
        for (const f of entry.files) {
          const file = f.path.slice(f.path.lastIndexOf('/') + 1);
          expect(readFileSync(join(folder, file)).length, `${entry.dataset_snapshot_id}/${file}`).toBe(f.bytes);
        }
      }
      // `sha256sum -c` said OK for every listed file of the newest snapshot.
      const verify = runnable.find((b) => b.kind === 'sh' && /^sha256sum -c SHA256SUMS$/m.test(b.code))!;
      const files = list.data[0]!.files.map((f) => f.path.slice(f.path.lastIndexOf('/') + 1)).filter((n) => n !== 'SHA256SUMS');
      expect(outputs.get(verify)!.trim().split('\n').sort()).toEqual(files.map((n) => `${n}: OK`).sort());
      // The company the guide follows moved between the two months, cause by cause.
      const changes = runnable.find((b) => b.code.includes('"changes since'))!;
      expect(outputs.get(changes)).toMatch(/^timeliness\tdisclosure\t-5\t/m);
    });

    it('names, in the blocks it does not run (pandas, R), only tables and columns the Data Package has', () => {
      const snapshotsDir = demoSeriesSnapshotsDir;
      const current = currentSnapshotId(snapshotsDir)!;
      const dp = JSON.parse(readFileSync(join(snapshotsDir, current, 'tree', DOWNLOADS_DIR, current, 'datapackage.json'), 'utf8')) as {
        resources: { name: string; schema: { fields: { name: string; type: string }[] } }[];
      };
      const known = new Set<string>([
        ...dp.resources.map((r) => r.name),
        ...dp.resources.flatMap((r) => r.schema.fields.map((f) => f.name)),
        ...dp.resources.flatMap((r) => r.schema.fields.map((f) => f.type)),
        // Keys of datapackage.json the snippets read, readr's column type letters, pandas' na_action.
        'resources',
        'schema',
        'fields',
        'name',
        'type',
        'path',
        'i',
        'd',
        'l',
        'c',
        'ignore',
      ]);
      const snippets = blocks.filter((b) => b.lang === 'python' || b.lang === 'r');
      expect(snippets.map((b) => b.lang).sort()).toEqual(['python', 'r']);
      for (const b of snippets) {
        const words = [...b.code.matchAll(/"([A-Za-z_]+)"/g), ...b.code.matchAll(/\$([A-Za-z_]+)/g)].map((m) => m[1]!);
        expect(words.length, `line ${b.line}`).toBeGreaterThan(5);
        for (const w of words)
          expect(known.has(w), `"${w}" in the ${b.lang} block at line ${b.line} is no table, column or key of datapackage.json`).toBe(true);
      }
    });
  });
}

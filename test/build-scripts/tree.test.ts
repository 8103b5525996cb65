import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import Database from 'better-sqlite3';
import type { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TreeFiles, TreeValidationError } from '../../build-scripts/output/tree-files.js';
import { writeTree } from '../../build-scripts/tree/write-tree.js';
import { indexResponseSchema } from '../../src/contract/api-index.js';
import { fullCanonicalViewSchema } from '../../src/contract/canonical.js';
import { companyResponseSchema } from '../../src/contract/company.js';
import { etfListResponseSchema, etfResponseSchema } from '../../src/contract/etf.js';
import { changesResponseSchema } from '../../src/contract/changes.js';
import { historyResponseSchema } from '../../src/contract/history.js';
import { methodologyResponseSchema } from '../../src/contract/methodology.js';
import { rankingResponseSchema } from '../../src/contract/ranking.js';
import { registryResponseSchema } from '../../src/contract/registry.js';
import { snapshotsResponseSchema } from '../../src/contract/snapshots.js';
import { currentSnapshotDir, publishedSnapshotIds, snapshotDir } from '../../src/snapshot/published.js';
import { ChangesStore } from '../../src/snapshot/changes-store.js';
import { createHistoryDb, HistoryWriter, sealHistoryDb } from '../../build-scripts/history/history-db.js';
import { HISTORY_DB, HistoryChunks, memberAt, storeFile } from '../../src/snapshot/history-store.js';
import { SnapshotStore } from '../../src/snapshot/store.js';
import { fullPath, ROUTES } from '../../src/contract/routes.js';
import { startServer, type RunningServer } from '../helpers/server.js';
import { demoSnapshotsDir } from '../helpers/demo-snapshots-dir.js';
import { demoSeriesSnapshotsDir } from '../helpers/demo-series-dir.js';

/** Which schema a tree file must satisfy, by its path; null = not a contract body (OpenAPI itself). */
const SCHEMA_BY_PATH: [RegExp, z.ZodType | null][] = [
  [/^api\/v1\/index\.json$/, indexResponseSchema],
  [/^api\/v1\/company\/[0-9A-Z]+\.json$/, companyResponseSchema],
  [/^api\/v1\/company\/[0-9A-Z]+\/canonical\.json$/, fullCanonicalViewSchema],
  [/^api\/v1\/company\/[0-9A-Z]+\/history\.json$/, historyResponseSchema],
  [/^api\/v1\/changes\.json$/, changesResponseSchema],
  [/^api\/v1\/changes\/page\/[1-9]\d*\.json$/, changesResponseSchema],
  [/^api\/v1\/etf\.json$/, etfListResponseSchema],
  [/^api\/v1\/etf\/[0-9A-Z]+\.json$/, etfResponseSchema],
  [/^api\/v1\/ranking\.json$/, rankingResponseSchema],
  [/^api\/v1\/ranking\/page\/[1-9]\d*\.json$/, rankingResponseSchema],
  [/^api\/v1\/sources\/registry\.json$/, registryResponseSchema],
  [/^api\/v1\/methodology\.json$/, methodologyResponseSchema],
  [/^api\/v1\/snapshots\.json$/, snapshotsResponseSchema],
  [/^api\/v1\/openapi\.json$/, null],
];

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

let store: SnapshotStore;
let treeDir: string;
beforeAll(() => {
  store = SnapshotStore.open(currentSnapshotDir(demoSnapshotsDir)!);
  treeDir = join(store.dir, 'tree');
});
afterAll(() => store.close());

describe('the published tree', () => {
  it('validates file by file against the contract schemas, and holds nothing else', () => {
    // The JSON tree is `api/`; the pages for people beside it are tested in test/site/.
    const files = filesUnder(treeDir).filter((f) => f.startsWith('api/') && !f.startsWith('api/v1/downloads/'));
    expect(files.length).toBe(3 * store.companyCount() + Math.ceil(store.companyCount() / 50) + 1 + 1 + store.etfs().length + 8);
    // The Atom feed is XML, checked by test/history/feed.test.ts.
    expect(files).toContain('api/v1/feed.atom');
    for (const file of files.filter((f) => f !== 'api/v1/feed.atom')) {
      const match = SCHEMA_BY_PATH.find(([re]) => re.test(file));
      expect(match, `unexpected file ${file}`).toBeDefined();
      const body = JSON.parse(readFileSync(join(treeDir, file), 'utf8'));
      const schema = match![1];
      if (schema) {
        const parsed = schema.safeParse(body);
        expect(parsed.success, `${file}: ${parsed.success ? '' : JSON.stringify(parsed.error.issues.slice(0, 2))}`).toBe(true);
      }
    }
  });

  it('each ETF body says how much of the fund its holdings describe, from a source in the registry (contract 4.3)', () => {
    const registry = new Set(store.sources().map((s) => s.source_id));
    const etfs = readdirSync(join(treeDir, 'api/v1/etf')).filter((f) => f.endsWith('.json'));
    expect(etfs.length).toBe(store.etfs().length);
    for (const f of etfs) {
      const e = etfResponseSchema.parse(JSON.parse(readFileSync(join(treeDir, 'api/v1/etf', f), 'utf8')));
      expect(e.listed_weight, f).toBe(Math.round(e.holdings.reduce((s, h) => s + h.weight, 0) * 10_000) / 10_000);
      expect(registry.has(e.holdings_source_id), f).toBe(true);
      const [year, quarter] = e.holdings_period.split('Q').map(Number) as [number, number];
      expect(e.holdings_asof, f).toBe(new Date(Date.UTC(year, quarter * 3, 0)).toISOString().slice(0, 10));
      expect([0, 0.01], f).toContain(e.holdings_min_weight);
      if (e.holdings_min_weight > 0) for (const h of e.holdings) expect(h.weight, `${f} ${h.ticker}`).toBeGreaterThanOrEqual(e.holdings_min_weight);
    }
  });

  it('contains no unexpanded template marker anywhere', () => {
    for (const file of filesUnder(treeDir).filter((f) => f.endsWith('.json') && f !== 'api/v1/openapi.json')) {
      expect(readFileSync(join(treeDir, file), 'utf8'), file).not.toMatch(/\{(year|ticker|uniform_no|record_id|fund_code)\}/);
    }
  });

  it('rendering the same snapshot twice gives byte-identical trees, on one thread or shared out over three', async () => {
    const a = mkdtempSync(join(tmpdir(), 'esg-tree-a-'));
    const b = mkdtempSync(join(tmpdir(), 'esg-tree-b-'));
    try {
      const one = await writeTree(store, a, { threads: 1 });
      // Small chunks, so every thread claims several and the claims interleave.
      const three = await writeTree(store, b, { threads: 3, chunkSize: 37 });
      const hash = (dir: string) =>
        filesUnder(dir).map(
          (f) =>
            `${f} ${createHash('sha256')
              .update(readFileSync(join(dir, f)))
              .digest('hex')}`,
        );
      // Downloads, /snapshots, the OpenAPI document (its examples are bodies of the tree), histories, changes and the feed
      // are written by later build stages; pages are not the JSON tree.
      const later = /^api\/v1\/(downloads\/|snapshots\.json|openapi\.json|company\/[0-9A-Z]+\/history\.json|changes|feed\.atom)/;
      const published = hash(treeDir).filter((l) => l.startsWith('api/') && !later.test(l));
      expect(hash(a)).toEqual(published);
      expect(hash(b)).toEqual(published);
      expect(three).toEqual(one);
      expect(one.files).toBe(published.length);
    } finally {
      rmSync(a, { recursive: true, force: true });
      rmSync(b, { recursive: true, force: true });
    }
  });

  it('histories and changes, written in the same pass, come out the same on one thread or three, equal to what was published', async () => {
    // The evolving demo: its current month's histories and changes were written against the month before.
    const snapshotsDir = demoSeriesSnapshotsDir;
    const ids = publishedSnapshotIds(snapshotsDir);
    const store = SnapshotStore.open(snapshotDir(snapshotsDir, ids.at(-1)!));
    const treeDir = join(store.dir, 'tree');
    const previousDir = snapshotDir(snapshotsDir, ids.at(-2)!);
    const dirs = ['a', 'b', 'c', 'legacy'].map((x) => mkdtempSync(join(tmpdir(), `esg-hist-${x}-`)));
    const historyFiles = (dir: string) =>
      filesUnder(dir)
        .filter((f) => /^api\/v1\/company\/[0-9A-Z]+\/history\.json$/.test(f))
        .map(
          (f) =>
            `${f} ${createHash('sha256')
              .update(readFileSync(join(dir, f)))
              .digest('hex')}`,
        );
    const rows = (path: string) => {
      const file = new HistoryChunks(path);
      try {
        return file.between('', '~');
      } finally {
        file.close();
      }
    };
    // The previous snapshot's entries in the store, and the same without facts keys, as entries
    // carried from before the store are (legacy-history.ts).
    const previous = memberAt(storeFile(snapshotsDir, ids.at(-2)!));
    const legacyDir = dirs[3]!;
    const unkeyed = join(legacyDir, 'previous.sqlite');
    createHistoryDb(unkeyed, { ...previous, head: null });
    const writer = new HistoryWriter(unkeyed);
    writer.write(rows(previous.path).map(([t, entry]) => [t, entry, null]));
    writer.close();
    sealHistoryDb(unkeyed);
    const options = (dir: string, member = previous) => ({
      snapshotDir: dir,
      previousDir,
      earlier: [member],
      previousId: member.dataset_snapshot_id,
    });
    const outDir = join(legacyDir, 'out');
    mkdirSync(outDir);
    // Which tickers the main thread's pass reads from the previous snapshot, by range and by list.
    const previousRanges = vi.spyOn(SnapshotStore.prototype, 'factsBetween');
    const previousAmong = vi.spyOn(SnapshotStore.prototype, 'factsAmong');
    const readFromPrevious = () => ({
      ranges: previousRanges.mock.contexts.filter((c) => (c as SnapshotStore).dir === previousDir).length,
      among: previousAmong.mock.calls.reduce((n, [tickers]) => n + tickers.length, 0),
    });
    try {
      const one = await writeTree(store, join(dirs[0]!, 'tree'), { threads: 1, history: options(dirs[0]!) });
      // Keyed rows: the previous snapshot's facts are read only for the companies that moved.
      const keyedReads = readFromPrevious();
      expect(keyedReads.ranges).toBe(0);
      expect(keyedReads.among).toBeGreaterThan(0);
      // Exactly the companies with something to explain (this month crosses the reporting deadline, so many of them), no more.
      const changesDb = ChangesStore.open(store.dir);
      const publishedChanges = [...changesDb.entries()];
      changesDb.close();
      expect(keyedReads.among).toBe(publishedChanges.filter((c) => c.item.change !== 'added').length);
      expect(keyedReads.among).toBeLessThan(store.companyCount());
      const three = await writeTree(store, join(dirs[1]!, 'tree'), { threads: 3, chunkSize: 37, history: options(dirs[1]!) });
      const two = await writeTree(store, join(dirs[2]!, 'tree'), { threads: 2, chunkSize: 53, history: options(dirs[2]!) });
      previousRanges.mockClear();
      previousAmong.mockClear();
      const fromLegacy = await writeTree(store, join(outDir, 'tree'), { threads: 1, history: options(outDir, memberAt(unkeyed)) });
      // No keys: every company's earlier facts are read, a range at a time.
      expect(readFromPrevious().ranges).toBeGreaterThan(0);
      expect(readFromPrevious().among).toBe(0);
      const published = historyFiles(treeDir);
      expect(published.length).toBe(store.companyCount());
      // The snapshot's own entries, as the store holds them since its publish.
      const publishedRows = rows(storeFile(snapshotsDir, ids.at(-1)!));
      expect(publishedRows.length).toBe(store.companyCount());
      for (const dir of [...dirs.slice(0, 3), outDir]) {
        expect(historyFiles(join(dir, 'tree'))).toEqual(published);
        expect(rows(join(dir, HISTORY_DB))).toEqual(publishedRows);
      }
      expect(publishedChanges.length).toBeGreaterThan(0);
      for (const changes of [one.changes, three.changes, two.changes, fromLegacy.changes]) expect(changes).toEqual(publishedChanges);
    } finally {
      previousRanges.mockRestore();
      previousAmong.mockRestore();
      store.close();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000); // two whole trees of the evolving demo, with histories: about 30 s alone, more on a shared machine

  it('a company body failing its schema in any thread fails the whole tree, naming the URL', async () => {
    // A copy of the snapshot with one late company broken in a field only its own summary shows.
    const dir = mkdtempSync(join(tmpdir(), 'esg-tree-broken-'));
    const out = join(dir, 'tree');
    try {
      copyFileSync(join(store.dir, 'snapshot.sqlite'), join(dir, 'snapshot.sqlite'));
      const tickers = store.tickers();
      const victim = tickers[tickers.length - 5]!;
      const db = new Database(join(dir, 'snapshot.sqlite'));
      db.prepare("UPDATE companies SET top_signal_labels = '[42]' WHERE ticker = ?").run(victim);
      db.close();
      const broken = SnapshotStore.open(dir);
      try {
        for (const threads of [1, 2]) {
          const attempt = writeTree(broken, out, { threads, chunkSize: 40 });
          await expect(attempt).rejects.toThrow(TreeValidationError);
          await expect(attempt).rejects.toThrow(`/api/v1/company/${victim}`);
        }
      } finally {
        broken.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a body that fails its schema fails the tree with the URL named', () => {
    const dir = mkdtempSync(join(tmpdir(), 'esg-tree-bad-'));
    try {
      const bad = { url: '/api/v1/company/D1', schema: companyResponseSchema, body: { ok: true } };
      const files = new TreeFiles(dir);
      expect(() => files.write(bad)).toThrow(TreeValidationError);
      expect(() => files.write(bad)).toThrow('/api/v1/company/D1');
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the OpenAPI document', () => {
  let server: RunningServer;
  let doc: { openapi: string; paths: Record<string, Record<string, { parameters?: { in: string; name: string }[] }>> };
  beforeAll(async () => {
    server = await startServer(demoSnapshotsDir);
    doc = await (await fetch(`${server.base}/api/v1/openapi.json`)).json();
  });
  afterAll(() => server.close());

  it('is valid OpenAPI 3.1', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('lists every endpoint, and every listed path exists on the server', async () => {
    expect(Object.keys(doc.paths).sort()).toEqual([...new Set(ROUTES.filter((op) => op.listed !== false).map(fullPath))].sort());
    const examples: Record<string, string> = {
      '{ticker}': 'D1101',
      '{code}': store.etfs()[0]!.etf_code,
      '{page}': '2',
      '{id}': store.meta.dataset_snapshot_id,
      '{file}': 'datapackage.json',
      '{path}': 'company/D1101/canonical',
    };
    for (const [path, ops] of Object.entries(doc.paths)) {
      const url = path.replace(/\{\w+\}/g, (m) => (m === '{page}' && path.startsWith('/api/v1/changes/') ? '1' : examples[m]!));
      for (const method of Object.keys(ops)) {
        const init: RequestInit =
          method === 'post' ? { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"tickers":["D1101"]}' } : {};
        const query = path === '/api/v1/compare' ? '?tickers=D1101,D1102' : '';
        const res = await fetch(server.base + url + query, init);
        expect(res.status, `${method} ${url}`).toBe(200);
      }
    }
  });

  it('every example in the index answers 200', async () => {
    const index = await (await fetch(`${server.base}/api/v1/`)).json();
    const examples = index.endpoints.flatMap((e: { example?: string }) => (e.example ? [e.example] : []));
    expect(examples.length).toBeGreaterThanOrEqual(10);
    for (const example of examples) expect((await fetch(server.base + example)).status, example).toBe(200);
  });

  it('documents every query parameter the server accepts, and the server accepts every documented one', async () => {
    const documented = (path: string) =>
      (doc.paths[path]!.get!.parameters ?? [])
        .filter((p) => p.in === 'query')
        .map((p) => p.name)
        .sort();
    const { rankingQuerySchema } = await import('../../src/contract/queries.js');
    expect(documented('/api/v1/ranking')).toEqual(Object.keys(rankingQuerySchema.shape).sort());
    expect(documented('/api/v1/compare')).toEqual(['fields', 'tickers']);
    expect(documented('/api/v1/sources/registry')).toEqual(['gov_only', 'owner_org']);
    expect(documented('/api/v1/company/{ticker}/canonical')).toEqual(['fields']);
  });
});

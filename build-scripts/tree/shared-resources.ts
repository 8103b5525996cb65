import { ROUTES, urlOf, type FileOperationId, type RouteTable } from '../../src/contract/routes.js';
import type { SnapshotStore } from '../../src/snapshot/store.js';
import { apiIndexView } from '../../src/views/api-index.js';
import { etfListView, etfView } from '../../src/views/etf.js';
import { methodologyView } from '../../src/views/methodology.js';
import { LIMITS } from '../../src/contract/vocabulary.js';
import { rankingView } from '../../src/views/ranking.js';
import { registryView } from '../../src/views/registry.js';
import { COMPANY_FILES } from './company-resources.js';
import type { StaticResource } from '../output/tree-files.js';

/** One file of an operation: its parameter values and its body. */
export interface Resource {
  params?: Readonly<Record<string, string | number>>;
  body: unknown;
}

/** The files of an operation that are the snapshot's as a whole, from its database alone. */
export type SharedFiles = (store: SnapshotStore) => Iterable<Resource>;

/** The default ranking's pages: score descending, then ticker ascending; every page from one ordered pass. */
function* rankingPages(store: SnapshotStore): Generator<Resource & { page: number }> {
  const ranked = store.rankedCompanies();
  const pageCount = Math.max(1, Math.ceil(ranked.length / LIMITS.perPageDefault));
  for (let page = 1; page <= pageCount; page++) {
    const rows = ranked.slice((page - 1) * LIMITS.perPageDefault, page * LIMITS.perPageDefault);
    yield {
      page,
      params: { page },
      body: rankingView(store.meta, { rows, total: ranked.length, page, perPage: LIMITS.perPageDefault, mode: 'compact' }),
    };
  }
}

/** The operations whose files are the snapshot's as a whole, and their views. */
export const SHARED_FILES = {
  ranking: (store) => [{ body: rankingPages(store).next().value!.body }],
  rankingPage: rankingPages,
  etfList: (store) => [{ body: etfListView(store.meta, store.etfs()) }],
  etf: (store) =>
    store.etfs().map((e) => {
      const found = store.etf(e.etf_code)!;
      return { params: { code: e.etf_code }, body: etfView(store.meta, found.etf, found.holdings, (t) => store.company(t)) };
    }),
  registry: (store) => [{ body: registryView(store.meta, store.sources()) }],
  methodology: (store) => [{ body: methodologyView(store.meta, store.cbamProducts()) }],
  index: (store) => [{ body: apiIndexView(store.meta, store.firstTickers(2), store.etfs()[0]?.etf_code) }],
} satisfies { [Id in FileOperationId]?: SharedFiles };

/**
 * Written by a later step of the build, which needs more than this snapshot's database: why, and where.
 * With COMPANY_FILES and SHARED_FILES, every operation with a file is written by exactly one of them.
 */
const LATER = {
  history: 'a company’s entries across snapshots: the history pass (build-scripts/history/chunk-history.ts)',
  changes: 'against the previous snapshot: build-scripts/history/write-changes.ts',
  changesPage: 'against the previous snapshot: build-scripts/history/write-changes.ts',
  feed: 'the last snapshots’ changes: build-scripts/history/write-feed.ts',
  snapshots: 'lists the download files: build-scripts/build.ts, after them',
  openapi: 'its examples read the written tree: build-scripts/build.ts, last',
} satisfies { [Id in FileOperationId]?: string };

/** Every operation with a file, and what writes it: a new one without its view fails to compile here. */
export const TREE_WRITERS: Record<FileOperationId, unknown> = { ...COMPANY_FILES, ...SHARED_FILES, ...LATER };

/**
 * Every static resource that is not a company's own: each of `writers` over the snapshot, its URL
 * made by its operation in `table` (the route table, or a test's own). /snapshots lists the
 * downloads, so it is written after them, and the OpenAPI document (its examples are this
 * snapshot's bodies, /snapshots among them) last.
 */
export function* sharedResources(
  store: SnapshotStore,
  writers: Readonly<Record<string, SharedFiles>> = SHARED_FILES,
  table: RouteTable = ROUTES,
): Generator<StaticResource> {
  for (const [id, files] of Object.entries(writers)) {
    const op = table.find((o) => o.id === id);
    if (!op) throw new Error(`Tree: no operation ${id} in the route table`);
    for (const { params, body } of files(store)) yield { url: urlOf(op, params), schema: op.ok.schema ?? null, body };
  }
}

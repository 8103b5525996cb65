import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openApiExamples } from '../../../build-scripts/tree/openapi-examples.js';
import { openApiDocument } from '../../../src/contract/openapi.js';
import { RankingIndex } from '../../../src/snapshot/ranking-index.js';
import type { SnapshotStore } from '../../../src/snapshot/store.js';
import { apiIndexView } from '../../../src/views/api-index.js';
import { canonicalView } from '../../../src/views/canonical.js';
import { companyView } from '../../../src/views/company.js';
import { changesView } from '../../../src/views/changes.js';
import { LIMITS } from '../../../src/contract/vocabulary.js';
import { historyEntry, historyView } from '../../../src/views/history.js';
import { etfListView, etfView } from '../../../src/views/etf.js';
import { methodologyView } from '../../../src/views/methodology.js';
import { rankingView } from '../../../src/views/ranking.js';
import { registryView } from '../../../src/views/registry.js';
import { sourceNamesOf } from '../../../src/views/source-names.js';

/**
 * One list of request cases for every static resource kind, run against every outlet (as Hono runs
 * one router case list against every router): the shim, a static host serving the tree as nginx
 * would, and the view functions called directly. Adding an endpoint adds its case here.
 */
export interface Case {
  name: string;
  url: string;
  /** The same resource computed by the views (undefined: the case only compares outlets). */
  view: () => unknown;
}

export function staticCases(store: SnapshotStore): Case[] {
  const meta = store.meta;
  const names = sourceNamesOf(store.sources());
  const tickers = [...store.companies()].map((c) => c.ticker);
  // Plus the first company with each assurance kind (contract 3.2), so both reach every outlet.
  const firstOfKind = (kind: string) =>
    store.db.prepare('SELECT ticker FROM assurances WHERE kind = ? ORDER BY ticker LIMIT 1').pluck().get(kind) as string | undefined;
  const byKind = ['cpa', 'third_party'].flatMap((k) => firstOfKind(k) ?? []);
  const sample = [...new Set([tickers[0]!, tickers[7]!, tickers[tickers.length - 1]!, 'D1139', 'D1107', ...byKind])];
  const etfs = store.etfs();
  const ranking = RankingIndex.fromStore(store);
  const page = (n: number) => ({ ...ranking.page({}, 'score_desc', 50, (n - 1) * 50), page: n, perPage: 50, mode: 'compact' as const });
  const lastPage = Math.ceil(tickers.length / 50);
  return [
    { name: 'index', url: '/api/v1/', view: () => apiIndexView(meta, tickers.slice(0, 2), etfs[0]?.etf_code) },
    ...sample.flatMap((t) => [
      { name: `company ${t}`, url: `/api/v1/company/${t}`, view: () => companyView(meta, store.company(t)!) },
      { name: `canonical ${t}`, url: `/api/v1/company/${t}/canonical`, view: () => canonicalView(meta, store.facts(t)!, names) },
      // The shared demo is a first snapshot: each history holds its own entry alone.
      {
        name: `history ${t}`,
        url: `/api/v1/company/${t}/history`,
        view: () => historyView(meta, t, [historyEntry(meta, store.company(t)!, store.facts(t)!.flags)]),
      },
    ]),
    { name: 'etf list', url: '/api/v1/etf', view: () => etfListView(meta, etfs) },
    ...etfs.slice(0, 3).map((e) => ({
      name: `etf ${e.etf_code}`,
      url: `/api/v1/etf/${e.etf_code}`,
      view: () => {
        const found = store.etf(e.etf_code)!;
        return etfView(meta, found.etf, found.holdings, (t) => store.company(t));
      },
    })),
    { name: 'ranking', url: '/api/v1/ranking', view: () => rankingView(meta, page(1)) },
    ...[1, 2, lastPage].map((n) => ({ name: `ranking page ${n}`, url: `/api/v1/ranking/page/${n}`, view: () => rankingView(meta, page(n)) })),
    // The shared demo is a first snapshot: nothing to compare with.
    { name: 'changes', url: '/api/v1/changes', view: () => changesView(meta, null, [], { total: 0, page: 1, perPage: LIMITS.changesPerPage }) },
    {
      name: 'changes page 1',
      url: '/api/v1/changes/page/1',
      view: () => changesView(meta, null, [], { total: 0, page: 1, perPage: LIMITS.changesPerPage }),
    },
    { name: 'registry', url: '/api/v1/sources/registry', view: () => registryView(meta, store.sources()) },
    { name: 'methodology', url: '/api/v1/methodology', view: () => methodologyView(meta, store.cbamProducts()) },
    {
      name: 'openapi',
      url: '/api/v1/openapi.json',
      view: () => {
        // Its examples are bodies of the same tree, /snapshots among them.
        const tree = join(store.dir, 'tree');
        const snapshots = JSON.parse(readFileSync(join(tree, 'api/v1/snapshots.json'), 'utf8'));
        return JSON.parse(JSON.stringify(openApiDocument(meta.methodology_version, openApiExamples(store, tree, snapshots))));
      },
    },
  ];
}

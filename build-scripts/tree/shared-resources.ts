import { indexResponseSchema } from '../../src/contract/api-index.js';
import { etfListResponseSchema, etfResponseSchema } from '../../src/contract/etf.js';
import { methodologyResponseSchema } from '../../src/contract/methodology.js';
import { rankingResponseSchema } from '../../src/contract/ranking.js';
import { registryResponseSchema } from '../../src/contract/registry.js';
import { urls } from '../../src/contract/urls.js';
import type { SnapshotStore } from '../../src/snapshot/store.js';
import { apiIndexView } from '../../src/views/api-index.js';
import { etfListView, etfView } from '../../src/views/etf.js';
import { methodologyView } from '../../src/views/methodology.js';
import { LIMITS } from '../../src/contract/vocabulary.js';
import { rankingView } from '../../src/views/ranking.js';
import { registryView } from '../../src/views/registry.js';
import type { StaticResource } from '../output/tree-files.js';

/**
 * Every static resource that is not a company's own: the default ranking (every page), ETFs,
 * registry, methodology and index. /snapshots lists the downloads, so it is written after them, and
 * the OpenAPI document (its examples are this snapshot's bodies, /snapshots among them) last.
 */
export function* sharedResources(store: SnapshotStore): Generator<StaticResource> {
  const meta = store.meta;
  const sources = store.sources();
  const etfs = store.etfs();

  // Default ranking: score descending, then ticker ascending; every page rendered from one ordered pass.
  const ranked = store.rankedCompanies();
  const pageCount = Math.max(1, Math.ceil(ranked.length / LIMITS.perPageDefault));
  for (let page = 1; page <= pageCount; page++) {
    const rows = ranked.slice((page - 1) * LIMITS.perPageDefault, page * LIMITS.perPageDefault);
    const body = rankingView(meta, { rows, total: ranked.length, page, perPage: LIMITS.perPageDefault, mode: 'compact' });
    yield { url: urls.rankingPage(page), schema: rankingResponseSchema, body };
    if (page === 1) yield { url: urls.ranking, schema: rankingResponseSchema, body };
  }

  const byTicker = (t: string) => store.company(t);
  yield { url: urls.etfList, schema: etfListResponseSchema, body: etfListView(meta, etfs) };
  for (const e of etfs) {
    const found = store.etf(e.etf_code)!;
    yield { url: urls.etf(e.etf_code), schema: etfResponseSchema, body: etfView(meta, found.etf, found.holdings, byTicker) };
  }
  yield { url: urls.registry, schema: registryResponseSchema, body: registryView(meta, sources) };
  yield { url: urls.methodology, schema: methodologyResponseSchema, body: methodologyView(meta, store.cbamProducts()) };
  yield { url: urls.index, schema: indexResponseSchema, body: apiIndexView(meta, store.firstTickers(2), etfs[0]?.etf_code) };
}

import type { SnapshotsResponse } from '../../src/contract/snapshots.js';
import { LIMITS, VERDICTS } from '../../src/contract/vocabulary.js';
import { FLAG_CATALOGUE } from '../../src/methodology/rules.js';
import { scoreHistogram } from '../../src/site/format.js';
import { FILTER_PARAM, pageUrls, SCALAR_ASSET, type RankingFilter } from '../../src/site/paths.js';
import { urls } from '../../src/site/static-paths.js';
import type { IndexedCompany, SnapshotStore } from '../../src/snapshot/store.js';
import { companySummary } from '../../src/views/company.js';
import { etfListView, etfView } from '../../src/views/etf.js';
import { methodologyView } from '../../src/views/methodology.js';
import { rankingView } from '../../src/views/ranking.js';
import { registryView } from '../../src/views/registry.js';
import DocsPage from '../../src/site/pages/Docs.astro';
import DownloadFolderPage from '../../src/site/pages/DownloadFolder.astro';
import DownloadsPage from '../../src/site/pages/Downloads.astro';
import EtfPage from '../../src/site/pages/Etf.astro';
import EtfListPage from '../../src/site/pages/EtfList.astro';
import HomePage from '../../src/site/pages/Home.astro';
import MethodologyPage from '../../src/site/pages/Methodology.astro';
import NotFoundPage from '../../src/site/pages/NotFound.astro';
import RankingPage from '../../src/site/pages/Ranking.astro';
import ResearchPage from '../../src/site/pages/Research.astro';
import SourcesPage from '../../src/site/pages/Sources.astro';
import { ASSURANCE_TEXT, MARKET_TEXT } from '../../src/site/format.js';
import { datasetJsonLd } from './dataset-json-ld.js';
import { docsOperations } from './docs-operations.js';
import type { PageFiles } from './page-files.js';
import type { Render } from './render.js';
import { renderResearchGuide } from './research-guide.js';

/** How many companies the home page shows at each end of the ranking. */
const ENDS = 10;

/** The API URL of a ranking page: the same filter and page, so a person can check one against the other. */
function apiRankingUrl(filter: RankingFilter | undefined, page: number): string {
  const q = new URLSearchParams();
  if (filter) q.set(FILTER_PARAM[filter.kind], filter.value);
  if (page > 1) q.set('page', String(page));
  const s = q.toString();
  return s ? `${urls.ranking}?${s}` : urls.ranking;
}

function headingOf(f: RankingFilter): string {
  switch (f.kind) {
    case 'industry':
      return `Ranking: ${f.value}`;
    case 'market':
      return `Ranking: ${MARKET_TEXT[f.value]}`;
    case 'assurance':
      return `Ranking: ${ASSURANCE_TEXT[f.value]}`;
    case 'flag':
      return `Ranking: companies flagged ${f.value}`;
  }
}

/**
 * Every page that is not a company's own, and the search index. Rankings come from one ordered pass
 * (the default order) split by filter, each page through the same ranking view as the JSON.
 */
export async function writeSharedPages(store: SnapshotStore, render: Render, files: PageFiles, snapshots: SnapshotsResponse): Promise<void> {
  const meta = store.meta;
  const ranked: IndexedCompany[] = [...store.rankedCompaniesWithFlags()];
  const industries = store.industries();

  // The search index: [code, name] pairs, compact enough to load whole (about 2 MB at 100k companies).
  files.write(pageUrls.searchIndex, JSON.stringify({ dataset_snapshot_id: meta.dataset_snapshot_id, companies: ranked.map((c) => [c.ticker, c.company_name]) }));

  const lists: { filter?: RankingFilter; heading: string; rows: IndexedCompany[] }[] = [{ heading: 'Ranking', rows: ranked }];
  const filters: RankingFilter[] = [
    ...industries.map((i): RankingFilter => ({ kind: 'industry', value: i.name, slug: i.code })),
    { kind: 'market', value: 'listed' },
    { kind: 'market', value: 'otc' },
    { kind: 'assurance', value: 'none' },
    { kind: 'assurance', value: 'limited' },
    { kind: 'assurance', value: 'reasonable' },
    ...FLAG_CATALOGUE.map((f): RankingFilter => ({ kind: 'flag', value: f.id })),
  ];
  const matches = (f: RankingFilter, c: IndexedCompany) =>
    f.kind === 'industry' ? c.industry === f.value : f.kind === 'market' ? c.market_type === f.value : f.kind === 'assurance' ? c.assurance_level === f.value : c.flag_ids.includes(f.value);
  for (const filter of filters) lists.push({ filter, heading: headingOf(filter), rows: ranked.filter((c) => matches(filter, c)) });

  for (const { filter, heading, rows } of lists) {
    const pageCount = Math.max(1, Math.ceil(rows.length / LIMITS.perPageDefault));
    for (let page = 1; page <= pageCount; page++) {
      const body = rankingView(meta, { rows: rows.slice((page - 1) * LIMITS.perPageDefault, page * LIMITS.perPageDefault), total: rows.length, page, perPage: LIMITS.perPageDefault, mode: 'compact' });
      files.write(pageUrls.ranking(page, filter), await render(RankingPage, { meta, body, heading, filter, apiUrl: apiRankingUrl(filter, page), industries }));
    }
  }

  const ends = (rows: IndexedCompany[]) => rankingView(meta, { rows, total: ranked.length, page: 1, perPage: rows.length || 1, mode: 'compact' }).data;
  const counts = { companies: ranked.length, penalties: store.penaltyCount(), etfs: store.etfs().length, sources: store.sources().length };
  files.write(pageUrls.home, await render(HomePage, {
    meta, counts, industries,
    top: ends(ranked.slice(0, ENDS)),
    bottom: ends(ranked.slice(-ENDS).reverse()),
    histogram: scoreHistogram(ranked.map((c) => c.credibility_score)),
  }));

  const etfs = store.etfs();
  files.write(pageUrls.etfList, await render(EtfListPage, { meta, list: etfListView(meta, etfs) }));
  for (const e of etfs) {
    const found = store.etf(e.etf_code)!;
    files.write(pageUrls.etf(e.etf_code), await render(EtfPage, { meta, etf: etfView(meta, found.etf, found.holdings, (t) => store.company(t)) }));
  }

  const registry = registryView(meta, store.sources());
  files.write(pageUrls.sources, await render(SourcesPage, { meta, registry }));

  const examples = VERDICTS.flatMap((v) => {
    const best = ranked.find((c) => c.verdict === v);
    return best ? [companySummary(meta, store.company(best.ticker)!)] : [];
  });
  files.write(pageUrls.methodology, await render(MethodologyPage, { meta, methodology: methodologyView(meta, store.cbamProducts()), examples }));
  // This snapshot's own download folder gets its page here, once: a later build never rewrites it.
  const self = snapshots.data.find((e) => e.dataset_snapshot_id === meta.dataset_snapshot_id);
  if (!self) throw new Error(`the snapshot list has no entry for ${meta.dataset_snapshot_id}`);
  files.write(pageUrls.downloads, await render(DownloadsPage, { meta, snapshots, jsonLd: datasetJsonLd(meta, self, registry, pageUrls.downloads) }));
  const folder = pageUrls.downloadFolder(meta.dataset_snapshot_id);
  files.write(folder, await render(DownloadFolderPage, { meta, entry: self, jsonLd: datasetJsonLd(meta, self, registry, folder) }));
  files.write(pageUrls.research, await render(ResearchPage, { meta, ...(await renderResearchGuide()) }));
  files.write(pageUrls.docs, await render(DocsPage, { meta, operations: docsOperations(meta, store.firstTickers(2), etfs[0]?.etf_code), scalarBundle: pageUrls.asset(SCALAR_ASSET) }));
  files.write(pageUrls.notFound, await render(NotFoundPage, { meta }));
}

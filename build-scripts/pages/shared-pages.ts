import type { SnapshotsResponse } from '../../src/contract/snapshots.js';
import { LIMITS, VERDICTS } from '../../src/contract/vocabulary.js';
import { FLAG_CATALOGUE } from '../../src/methodology/rules.js';
import { scoreHistogram } from '../../src/site/i18n/format.js';
import { l10n, type Locale } from '../../src/site/i18n/index.js';
import { FILTER_PARAM, pageUrls, pageUrlsFor, SCALAR_ASSET, type RankingFilter } from '../../src/site/i18n/paths.js';
import { urls } from '../../src/contract/urls.js';
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
import KeysPage from '../../src/site/pages/Keys.astro';
import KeysFramePage from '../../src/site/pages/KeysFrame.astro';
import MethodologyPage from '../../src/site/pages/Methodology.astro';
import NotFoundPage from '../../src/site/pages/NotFound.astro';
import RankingPage from '../../src/site/pages/Ranking.astro';
import ResearchPage from '../../src/site/pages/Research.astro';
import SourcesPage from '../../src/site/pages/Sources.astro';
import { datasetJsonLd } from './dataset-json-ld.js';
import { docsOperations } from './docs-operations.js';
import type { PageFiles } from './page-files.js';
import type { Render } from './render.js';
import { renderResearchGuide } from './research-guide.js';
import { inputOf } from '../../src/methodology/input-of.js';
import { scoreReasons } from '../../src/methodology/score.js';

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

function headingOf(f: RankingFilter | undefined, locale: Locale): string {
  const t = l10n(locale).t;
  switch (f?.kind) {
    case undefined:
      return t.ranking.all;
    case 'industry':
      return t.ranking.industry(f.value);
    case 'market':
      return t.ranking.market(t.market[f.value]);
    case 'assurance':
      return t.ranking.assurance(t.assurance[f.value]);
    case 'flag':
      return t.ranking.flag(f.value);
  }
}

/** Writes one page in every language: `url` names it in a language, `props` are shared. */
type WriteAll = (
  url: (u: ReturnType<typeof pageUrlsFor>) => string,
  page: Parameters<Render>[0],
  props: Record<string, unknown>,
  perLocale?: (l: Locale) => Record<string, unknown>,
) => Promise<void>;

/** What each step of the shared pages reads: the snapshot, the default ranking, and the writers. */
interface SharedPages {
  store: SnapshotStore;
  meta: SnapshotStore['meta'];
  ranked: IndexedCompany[];
  industries: ReturnType<SnapshotStore['industries']>;
  etfs: ReturnType<SnapshotStore['etfs']>;
  render: Render;
  files: PageFiles;
  locales: readonly Locale[];
  writeAll: WriteAll;
}

/**
 * Every page that is not a company's own, in every language, and the search index. Rankings come
 * from one ordered pass (the default order) split by filter, each page through the same ranking view
 * as the JSON; each body is made once and rendered in each language.
 */
export async function writeSharedPages(
  store: SnapshotStore,
  render: Render,
  files: PageFiles,
  snapshots: SnapshotsResponse,
  locales: readonly Locale[],
): Promise<void> {
  const writeAll: WriteAll = async (url, page, props, perLocale = () => ({})) => {
    for (const locale of locales) files.write(url(pageUrlsFor(locale)), await render(page, { ...props, ...perLocale(locale), locale }));
  };
  const p: SharedPages = {
    store,
    meta: store.meta,
    ranked: [...store.rankedCompaniesWithFlags()],
    industries: store.industries(),
    etfs: store.etfs(),
    render,
    files,
    locales,
    writeAll,
  };

  writeSearchIndex(p);
  await writeRankingPages(p);
  await writeHomePage(p);
  await writeEtfPages(p);
  const registry = registryView(p.meta, store.sources());
  await writeAll((u) => u.sources, SourcesPage, { meta: p.meta, registry });
  await writeMethodologyPage(p);
  await writeDownloadPages(p, snapshots, registry);
  for (const locale of locales)
    files.write(pageUrlsFor(locale).research, await render(ResearchPage, { meta: p.meta, locale, ...(await renderResearchGuide(locale)) }));
  await writeAll((u) => u.docs, DocsPage, {
    meta: p.meta,
    operations: docsOperations(p.meta, store.firstTickers(2), p.etfs[0]?.etf_code),
    scalarBundle: pageUrls.asset(SCALAR_ASSET),
  });
  await writeAll((u) => u.keys, KeysPage, { meta: p.meta });
  await writeAll((u) => u.keysFrame, KeysFramePage, { meta: p.meta });
  await writeAll((u) => u.notFound, NotFoundPage, { meta: p.meta });
}

/** The search index: [code, name] pairs, compact enough to load whole (about 2 MB at 100k companies). */
function writeSearchIndex({ meta, ranked, files }: SharedPages): void {
  files.write(
    pageUrls.searchIndex,
    JSON.stringify({ dataset_snapshot_id: meta.dataset_snapshot_id, companies: ranked.map((c) => [c.ticker, c.company_name]) }),
  );
}

/** The default ranking, then one list per filter, each in the default order. */
function rankingLists(ranked: IndexedCompany[], industries: SharedPages['industries']) {
  const lists: { filter?: RankingFilter; rows: IndexedCompany[] }[] = [{ rows: ranked }];
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
    f.kind === 'industry'
      ? c.industry === f.value
      : f.kind === 'market'
        ? c.market_type === f.value
        : f.kind === 'assurance'
          ? c.assurance_level === f.value
          : c.flag_ids.includes(f.value);
  for (const filter of filters) lists.push({ filter, rows: ranked.filter((c) => matches(filter, c)) });
  return lists;
}

async function writeRankingPages({ meta, ranked, industries, writeAll }: SharedPages): Promise<void> {
  for (const { filter, rows } of rankingLists(ranked, industries)) {
    const pageCount = Math.max(1, Math.ceil(rows.length / LIMITS.perPageDefault));
    for (let page = 1; page <= pageCount; page++) {
      const body = rankingView(meta, {
        rows: rows.slice((page - 1) * LIMITS.perPageDefault, page * LIMITS.perPageDefault),
        total: rows.length,
        page,
        perPage: LIMITS.perPageDefault,
        mode: 'compact',
      });
      await writeAll(
        (u) => u.ranking(page, filter),
        RankingPage,
        { meta, body, filter, apiUrl: apiRankingUrl(filter, page), industries },
        (l) => ({ heading: headingOf(filter, l) }),
      );
    }
  }
}

async function writeHomePage({ store, meta, ranked, industries, etfs, writeAll }: SharedPages): Promise<void> {
  const ends = (rows: IndexedCompany[]) =>
    rankingView(meta, { rows, total: ranked.length, page: 1, perPage: rows.length || 1, mode: 'compact' }).data;
  const counts = { companies: ranked.length, penalties: store.penaltyCount(), etfs: etfs.length, sources: store.sources().length };
  await writeAll((u) => u.home, HomePage, {
    meta,
    counts,
    industries,
    top: ends(ranked.slice(0, ENDS)),
    bottom: ends(ranked.slice(-ENDS).reverse()),
    histogram: scoreHistogram(ranked.map((c) => c.credibility_score)),
  });
}

async function writeEtfPages({ store, meta, etfs, writeAll }: SharedPages): Promise<void> {
  await writeAll((u) => u.etfList, EtfListPage, { meta, list: etfListView(meta, etfs) });
  for (const e of etfs) {
    const found = store.etf(e.etf_code)!;
    await writeAll((u) => u.etf(e.etf_code), EtfPage, { meta, etf: etfView(meta, found.etf, found.holdings, (t) => store.company(t)) });
  }
}

/** The methodology, with the best-ranked company of each verdict as a worked example. */
async function writeMethodologyPage({ store, meta, ranked, writeAll }: SharedPages): Promise<void> {
  const examples = VERDICTS.flatMap((v) => {
    const best = ranked.find((c) => c.verdict === v);
    const facts = best && store.facts(best.ticker);
    return facts ? [{ summary: companySummary(meta, facts.company), reasons: scoreReasons(inputOf(facts, meta.data_asof)) }] : [];
  });
  await writeAll((u) => u.methodology, MethodologyPage, { meta, methodology: methodologyView(meta, store.cbamProducts()), examples });
}

async function writeDownloadPages(
  { meta, render, files, locales, writeAll }: SharedPages,
  snapshots: SnapshotsResponse,
  registry: ReturnType<typeof registryView>,
): Promise<void> {
  // The Dataset's JSON-LD is on the English pages only: one description per dataset.
  const self = snapshots.data.find((e) => e.dataset_snapshot_id === meta.dataset_snapshot_id);
  if (!self) throw new Error(`the snapshot list has no entry for ${meta.dataset_snapshot_id}`);
  const englishOnly = (l: Locale, jsonLd: unknown) => (l === 'en' ? { jsonLd } : {});
  await writeAll(
    (u) => u.downloads,
    DownloadsPage,
    { meta, snapshots },
    (l) => englishOnly(l, datasetJsonLd(meta, self, registry, pageUrls.downloads)),
  );
  // This snapshot's own download folder gets its English page here, once: a later build never
  // rewrites it. Other languages' folder pages are pages of the site, written for every snapshot listed.
  for (const entry of snapshots.data) {
    const id = entry.dataset_snapshot_id;
    const own = id === meta.dataset_snapshot_id;
    for (const locale of locales) {
      if (locale === 'en' && !own) continue;
      const folder = pageUrlsFor(locale).downloadFolder(id);
      files.write(
        folder,
        await render(DownloadFolderPage, { meta, entry, locale, ...englishOnly(locale, datasetJsonLd(meta, entry, registry, folder)) }),
      );
    }
  }
}

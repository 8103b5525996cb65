/**
 * Where the pages for people live (contract section 8), shared by the page writer, the components'
 * links and the shim. Every page is a folder URL ending in `/`, written as `<path>index.html` in the
 * snapshot's tree beside `api/`; assets keep their own file names.
 */
import type { AssuranceLevel, MarketType } from '../contract/vocabulary.js';
import { urls } from './static-paths.js';

/** A filter with its own static ranking pages: one value of one ranking parameter. */
export type RankingFilter =
  | { kind: 'industry'; value: string; slug: string }
  | { kind: 'market'; value: MarketType }
  | { kind: 'assurance'; value: AssuranceLevel }
  | { kind: 'flag'; value: string };

/** The ranking API parameter each filter kind stands for (contract 4.2). */
export const FILTER_PARAM: Record<RankingFilter['kind'], string> = { industry: 'industry', market: 'market_type', assurance: 'assurance_level', flag: 'gf' };

function filterBase(f: RankingFilter): string {
  return `/ranking/${f.kind}/${f.kind === 'industry' ? f.slug : f.value}/`;
}

/** Tree folder of the pages' static files: stylesheet, scripts, Scalar's bundle. */
export const ASSETS_DIR = 'assets';

export const pageUrls = {
  home: '/',
  company: (t: string) => `/company/${t}/`,
  ranking: (page = 1, filter?: RankingFilter) => {
    const base = filter ? filterBase(filter) : '/ranking/';
    return page === 1 ? base : `${base}page/${page}/`;
  },
  etfList: '/etf/',
  etf: (code: string) => `/etf/${code}/`,
  sources: '/sources/',
  source: (id: string) => `/sources/#${id}`,
  methodology: '/methodology/',
  flag: (id: string) => `/methodology/#${id}`,
  downloads: '/downloads/',
  /** A snapshot's download folder as a page (its `index.html`, beside the files it lists). */
  downloadFolder: (id: string) => `${urls.downloads(id)}/`,
  research: '/research/',
  docs: '/docs/',
  notFound: '/404.html',
  favicon: '/favicon.ico',
  searchIndex: '/search/index.json',
  asset: (name: string) => `/${ASSETS_DIR}/${name}`,
};

/** Scalar's browser bundle (the API reference on /docs/), copied under the assets folder. */
export const SCALAR_ASSET = 'scalar/standalone.js';

/** The file of the tree a page URL is written to: a folder URL is its index.html. */
export function fileForPageUrl(url: string): string {
  const rel = url.replace(/^\/+/, '');
  return rel === '' || rel.endsWith('/') ? `${rel}index.html` : rel;
}

/** Content types of the files under the pages (the shim serves them with these). */
export const PAGE_CONTENT_TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  json: 'application/json; charset=utf-8',
  svg: 'image/svg+xml',
  ico: 'image/x-icon',
};

/**
 * Where the pages for people live (contract section 8), shared by the page writer, the components'
 * links and the shim. Every page is a folder URL ending in `/`, written as `<path>index.html` in the
 * snapshot's tree beside `api/`; assets keep their own file names.
 */
import type { AssuranceLevel, MarketType } from '../../contract/vocabulary.js';
import { OAUTH_PATHS } from '../../contract/oauth.js';
import { urls } from '../../contract/urls.js';
import { LOCALE_PREFIX, LOCALES, type Locale } from './locales.js';

/** A filter with its own static ranking pages: one value of one ranking parameter. */
export type RankingFilter =
  | { kind: 'industry'; value: string; slug: string }
  | { kind: 'market'; value: MarketType }
  | { kind: 'assurance'; value: AssuranceLevel }
  | { kind: 'flag'; value: string };

/** The ranking API parameter each filter kind stands for (contract 4.2). */
export const FILTER_PARAM: Record<RankingFilter['kind'], string> = {
  industry: 'industry',
  market: 'market_type',
  assurance: 'assurance_level',
  flag: 'gf',
};

function filterBase(f: RankingFilter): string {
  return `/ranking/${f.kind}/${f.kind === 'industry' ? f.slug : f.value}/`;
}

/** Tree folder of the pages' static files: stylesheet, scripts, Scalar's bundle. */
export const ASSETS_DIR = 'assets';

/**
 * The page URLs of one language: English at the site's root (the URLs it always had), every other
 * language under its prefix (`/zh-TW/…`, i18n/locales.ts). Assets, the icon and the search index
 * are shared by every language. A download folder's own page lives in that folder for English
 * (written once, with the folder's files); another language's is a page of its own under the
 * prefix, rewritten by every build for each snapshot the downloads list.
 */
function urlsOf(locale: Locale) {
  const p = LOCALE_PREFIX[locale];
  return {
    locale,
    home: `${p}/`,
    company: (t: string) => `${p}/company/${t}/`,
    ranking: (page = 1, filter?: RankingFilter) => {
      const base = `${p}${filter ? filterBase(filter) : '/ranking/'}`;
      return page === 1 ? base : `${base}page/${page}/`;
    },
    etfList: `${p}/etf/`,
    etf: (code: string) => `${p}/etf/${code}/`,
    sources: `${p}/sources/`,
    source: (id: string) => `${p}/sources/#${id}`,
    methodology: `${p}/methodology/`,
    flag: (id: string) => `${p}/methodology/#${id}`,
    downloads: `${p}/downloads/`,
    /** A snapshot's download folder as a page (English: its `index.html`, beside the files it lists). */
    downloadFolder: (id: string) => (p === '' ? `${urls.downloadFolder(id)}/` : `${p}/downloads/${id}/`),
    research: `${p}/research/`,
    docs: `${p}/docs/`,
    /** Ask for a key, or for a link to manage one; its forms post to the shim (server/routes/keys.ts). */
    keys: `${p}/keys/`,
    /** The frame the shim puts its keys pages in (sent, the key once, errors): this language's layout with two marks to fill. */
    keysFrame: `${p}/keys/frame.html`,
    /** Where the keys page's forms post, and where a mailed link leads (server/routes/keys.ts). */
    keysAsk: `${p}/keys/ask`,
    keysManage: `${p}/keys/manage`,
    keysLink: `${p}/keys/link`,
    /** A key shown once, shown again in this language: the other language's page posts it here (never in a URL). */
    keysShown: `${p}/keys/shown`,
    /** OAuth's pages in this language (server/oauth/pages.ts): the e-mail form posts to the first, the mailed link opens the second. */
    oauthSignIn: `${p}${OAUTH_PATHS.signIn}`,
    oauthConsent: `${p}${OAUTH_PATHS.consent}`,
    notFound: `${p}/404.html`,
    favicon: '/favicon.ico',
    searchIndex: '/search/index.json',
    asset: (name: string) => `/${ASSETS_DIR}/${name}`,
  };
}
export type PageUrls = ReturnType<typeof urlsOf>;

const URLS_BY_LOCALE = Object.fromEntries(LOCALES.map((l) => [l, urlsOf(l)])) as Record<Locale, PageUrls>;

/** The page URLs of a language (one object per language, made once). */
export function pageUrlsFor(locale: Locale): PageUrls {
  return URLS_BY_LOCALE[locale];
}

/** The English pages' URLs: what the site always had. */
export const pageUrls = URLS_BY_LOCALE.en;

/** The API reference's page in every language (its Content-Security-Policy lets Scalar inject styles). */
export const DOCS_PAGES: readonly string[] = LOCALES.map((l) => URLS_BY_LOCALE[l].docs);

/** Every language's texts for the scripts (generated from the catalogues), under the assets folder. */
export const SCRIPT_MESSAGES = 'messages.js';

/** Scalar's browser bundle (the API reference on /docs/), copied under the assets folder. */
export const SCALAR_ASSET = 'scalar/standalone.js';

/** The file of the tree a page URL is written to: a folder URL is its index.html. */
export function fileForPageUrl(url: string): string {
  const rel = url.replace(/^\/+/, '');
  return rel === '' || rel.endsWith('/') ? `${rel}index.html` : rel;
}

/** The marks in a keys frame (`keysFrame`) the shim replaces: the page's title, its main content, and its language switch. */
export const KEYS_FRAME_TITLE = 'KEYS-FRAME-TITLE';
export const KEYS_FRAME_BODY = '<!--keys-frame-body-->';
export const KEYS_FRAME_SWITCH = '<!--keys-frame-switch-->';

/** Content types of the files under the pages (the shim serves them with these). */
export const PAGE_CONTENT_TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  json: 'application/json; charset=utf-8',
  svg: 'image/svg+xml',
  ico: 'image/x-icon',
};

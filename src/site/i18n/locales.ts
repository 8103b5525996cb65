/**
 * The languages the pages are written in. English keeps the URLs the site always had; every other
 * language lives under its own prefix (`/zh-TW/company/D1101/`), so no English link breaks. The
 * API has one language (its ids are stable and its `detail` texts English): only pages are localised.
 */
export const LOCALES = ['en', 'zh-TW'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

/** Path prefix of a language's pages: '' for English, `/zh-TW` for Traditional Chinese. */
export const LOCALE_PREFIX: Readonly<Record<Locale, string>> = { en: '', 'zh-TW': '/zh-TW' };

/** The `lang` of a page's `<html>`, and the `hreflang` its alternates announce. */
export const HTML_LANG: Readonly<Record<Locale, string>> = { en: 'en', 'zh-TW': 'zh-Hant-TW' };
export const HREFLANG: Readonly<Record<Locale, string>> = { en: 'en', 'zh-TW': 'zh-TW' };

/** The language a page path is in, by its prefix. */
export function localeOfPath(path: string): Locale {
  for (const l of LOCALES) if (LOCALE_PREFIX[l] !== '' && (path === LOCALE_PREFIX[l] || path.startsWith(`${LOCALE_PREFIX[l]}/`))) return l;
  return DEFAULT_LOCALE;
}

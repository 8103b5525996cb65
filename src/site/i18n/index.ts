/**
 * A page's language in one object: its catalogue (`t`), how it writes numbers and dates (`f`), its
 * page URLs (`u`) and its `lang`. Pages and components take a `locale` prop and call `l10n(locale)`,
 * which hands back the same object every time (made once per language).
 */
import { formatsFor, type Formats } from './format.js';
import { pageUrlsFor, type PageUrls } from './paths.js';
import { en, type Messages } from './en.js';
import { HREFLANG, HTML_LANG, LOCALES, type Locale } from './locales.js';
import { zhTW } from './zh-TW.js';

export { LOCALES, type Locale } from './locales.js';
export type { Messages } from './en.js';

export const CATALOGUES: Readonly<Record<Locale, Messages>> = { en, 'zh-TW': zhTW };

export interface L10n {
  locale: Locale;
  t: Messages;
  f: Formats;
  u: PageUrls;
  /** `<html lang>`: en, zh-Hant-TW. */
  lang: string;
  hreflang: string;
}

const BY_LOCALE = Object.fromEntries(
  LOCALES.map((locale): [Locale, L10n] => [
    locale,
    { locale, t: CATALOGUES[locale], f: formatsFor(locale), u: pageUrlsFor(locale), lang: HTML_LANG[locale], hreflang: HREFLANG[locale] },
  ]),
) as Record<Locale, L10n>;

export function l10n(locale: Locale = 'en'): L10n {
  return BY_LOCALE[locale];
}

/** /assets/messages.js: every language's script texts, for the scripts to pick the page's by `<html data-locale>`. */
export function scriptMessagesJs(): string {
  const all = Object.fromEntries(LOCALES.map((l) => [l, CATALOGUES[l].script]));
  return [
    '// Generated from src/site/i18n/ by the page writer: the texts the scripts write, in every language.',
    `const ESG_MESSAGES = ${JSON.stringify(all)};`,
    '// esgText("pack", "tooMany", { max: 50, n: 51 }): the page\'s language (<html data-locale>), placeholders filled.',
    'window.esgText = (group, key, values = {}) =>',
    '  (ESG_MESSAGES[document.documentElement.dataset.locale] ?? ESG_MESSAGES.en)[group][key].replace(/\\{(\\w+)\\}/g, (m, k) => (k in values ? String(values[k]) : m));',
    '',
  ].join('\n');
}

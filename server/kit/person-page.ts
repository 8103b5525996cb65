import express, { type Request, type Response } from 'express';
import { NO_STORE } from '../../src/contract/headers.js';
import { PAGE_CSP } from '../../src/contract/security.js';
import { escapeHtml } from '../../src/site/html.js';
import { l10n, LOCALES, type L10n } from '../../src/site/i18n/index.js';
import { fileForPageUrl, KEYS_FRAME_BODY, KEYS_FRAME_SWITCH, KEYS_FRAME_TITLE, PAGE_CONTENT_TYPES } from '../../src/site/i18n/paths.js';
import type { SnapshotSource } from './snapshot-source.js';
import { readSnapshotFile } from './snapshot-files.js';

/**
 * Where a page's language switch leads: the same step of the flow in the other language,
 * never its start. `href`: a page a GET shows (its path and query in the other language). `post`: a
 * page answering a form, whose state is in the page (a key shown once, a page's one-time buttons):
 * the switch is a form posting that state to the other language's route, which shows the same page
 * again; a secret goes in the body, never in a URL. Without one, the switch leads to the other
 * language's keys page: for pages that hold nothing (a mail sent, an error).
 */
export type LangSwitch = { href: (other: L10n) => string } | { post: (other: L10n) => { action: string; fields: Record<string, string> } };

const TO_KEYS_PAGE: LangSwitch = { href: (other) => other.u.keys };

/** The switch's content: one link, or one form, per other language. */
export function switchHtml(l: L10n, to: LangSwitch): string {
  return LOCALES.filter((x) => x !== l.locale)
    .map((x) => {
      const other = l10n(x);
      const attrs = `lang="${other.lang}" title="${escapeHtml(other.t.switchLabel)}" data-lang-switch="${x}"`;
      const name = escapeHtml(other.t.languageName);
      if ('href' in to) return `<a href="${escapeHtml(to.href(other))}" hreflang="${other.hreflang}" ${attrs}>${name}</a>`;
      const { action, fields } = to.post(other);
      return `<form method="post" action="${escapeHtml(action)}">${hiddenFields(fields)}<button type="submit" ${attrs}>${name}</button></form>`;
    })
    .join('');
}

/**
 * A page for one person the shim writes itself (the keys flow, OAuth's sign-in and consent): the
 * language's frame (KeysFrame.astro, from the snapshot) with its title, content and language switch.
 * `csp` replaces the pages' policy where a form must lead elsewhere (the consent page's redirect).
 */
export function sendPersonPage(
  snapshots: SnapshotSource,
  res: Response,
  l: L10n,
  status: number,
  title: string,
  bodyHtml: string,
  csp: string = PAGE_CSP,
  to: LangSwitch = TO_KEYS_PAGE,
): void {
  const frame = readSnapshotFile(snapshots.current().dir, fileForPageUrl(l.u.keysFrame));
  const main = `<h1>${escapeHtml(title)}</h1>\n<div class="keys-flow">${bodyHtml}</div>`;
  const lang = switchHtml(l, to);
  // A snapshot built before the keys page has no frame: a bare page still says it all. (A frame
  // built before the switch mark existed has none: its switch still leads to the other keys page.)
  const html = frame
    ? frame.bytes.toString('utf8').replace(KEYS_FRAME_TITLE, escapeHtml(title)).replace(KEYS_FRAME_SWITCH, lang).replace(KEYS_FRAME_BODY, main)
    : `<!doctype html><html lang="${l.lang}"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><div class="lang-switch">${lang}</div><main>${main}</main></body></html>`;
  const bytes = Buffer.from(html, 'utf8');
  // About one person, maybe holding a key or a link: never cached, never sent on as a referrer, never
  // readable by another origin's script (the API's CORS header does not apply to these pages).
  res.removeHeader('Access-Control-Allow-Origin');
  res.status(status).set({
    'Content-Type': PAGE_CONTENT_TYPES.html!,
    'Content-Security-Policy': csp,
    'Cache-Control': NO_STORE,
    'Referrer-Policy': 'no-referrer',
    'X-Robots-Tag': 'noindex',
    'Content-Length': String(bytes.length),
  });
  res.end(res.req.method === 'HEAD' ? undefined : bytes);
}

export const p = (text: string) => `<p>${escapeHtml(text)}</p>`;
/** An e-mail address in a sentence: data, as typed, not text of the page's language (so in `<code>`). */
export const addressHtml = (email: string) => `<code>${escapeHtml(email)}</code>`;
const hiddenFields = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([k, v]) => `<input type="hidden" name="${k}" value="${escapeHtml(v)}">`)
    .join('');
/**
 * A one-button form posting hidden fields. `attr` marks the button (a `data-` attribute, and a
 * `class`: `primary` for the step a person came for, `danger` for one that cannot be undone; none
 * is the secondary look).
 */
export const button = (action: string, fields: Record<string, string>, label: string, attr: string) =>
  `<form method="post" action="${action}" class="keys-form">${hiddenFields(fields)}<button type="submit" ${attr}>${escapeHtml(label)}</button></form>`;

/** The pages' forms (application/x-www-form-urlencoded, so they work without JavaScript): a few short fields; anything larger is not from a page. */
const parseForm = express.urlencoded({ extended: false, limit: '4kb', type: 'application/x-www-form-urlencoded' });

/** Why a posted body could not be read as a form (body-parser's error types). */
export type FormProblem = 'tooManyFields' | 'tooLarge' | 'unreadable';

export function formProblem(err: unknown): FormProblem {
  const type = (err as { type?: unknown } | undefined)?.type;
  // More than 1,000 fields (body-parser's parameterLimit) is an error of its own, once a 500.
  return type === 'parameters.too.many' ? 'tooManyFields' : type === 'entity.too.large' ? 'tooLarge' : 'unreadable';
}

/** The status a form problem is answered with. */
export const formProblemStatus = (problem: FormProblem) => (problem === 'tooLarge' ? 413 : 400);

/** Reads a page's form into `req.body`; `then` gets what was wrong with it, or null. */
export function readForm(req: Request, res: Response, then: (problem: FormProblem | null) => void): void {
  parseForm(req, res, (err?: unknown) => then(err ? formProblem(err) : null));
}

/**
 * Whether a form post was sent by another site's page (a cross-site request forgery: a probe
 * posted the keys forms from one, and they mailed). As Go's CrossOriginProtection judges it:
 * - `Sec-Fetch-Site` decides where a browser sends it (every current one does, to https and
 *   loopback origins): `same-origin`, or `none` (the person's own doing), passes; `same-site` and
 *   `cross-site` do not (a sibling subdomain is not this site);
 * - else `Origin` decides: this site's (PUBLIC_URL's origin, or the request's own host) passes;
 *   any other, `null` included, does not. Our pages' `Referrer-Policy: no-referrer` makes a browser
 *   send `Origin: null` on their own posts, so a browser without `Sec-Fetch-Site` (plain http to a
 *   host that is not loopback) cannot use the forms: serve them over https;
 * - neither header: not a browser (curl, a script), which no other site can make send a request
 *   with a person's cookies or address; it passes, and the mail limits still apply.
 */
export function fromAnotherSite(req: Request, publicUrl: string): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined) return site !== 'same-origin' && site !== 'none';
  const origin = req.headers.origin;
  if (origin === undefined) return false;
  if (origin === new URL(publicUrl).origin) return false;
  try {
    return new URL(origin).host !== req.headers.host;
  } catch {
    return true;
  }
}

/** A form field as posted, or '' when absent or repeated. */
export const field = (req: Request, name: string): string => {
  const v = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof v === 'string' ? v : '';
};

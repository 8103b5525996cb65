import { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import { OAUTH_LIFETIMES } from '../../src/contract/oauth.js';
import { consentPageCsp } from '../../src/contract/security.js';
import { escapeHtml } from '../../src/site/html.js';
import { l10n, LOCALES, type L10n } from '../../src/site/i18n/index.js';
import type { Locale } from '../../src/site/i18n/locales.js';
import type { KeyMailer } from '../access/key-mail.js';
import type { KeyRequests } from '../access/key-requests.js';
import { mailAddress } from '../access/mail-address.js';
import type { KeyRecord, KeyStore } from '../access/key-store.js';
import type { Logger } from '../kit/logger.js';
import { button, field, formProblemStatus, fromAnotherSite, p, readForm, sendPersonPage as send } from '../kit/person-page.js';
import type { SnapshotSource } from '../kit/snapshot-source.js';
import { isLoopbackRedirect, redirectOrigin } from './client-rules.js';
import type { AuthorizationRequest, OAuthStore } from './store.js';

export interface OAuthPagesOptions {
  snapshots: SnapshotSource;
  store: OAuthStore;
  keys: KeyStore;
  requests: KeyRequests;
  mailer: KeyMailer;
  /** PUBLIC_URL: the issuer named in the redirect (RFC 9207 `iss`). */
  issuer: string;
  logger?: Logger;
}

/**
 * The pages a person meets when an assistant asks to sign in. No password: as on the keys
 * page, a person proves an address by a link mailed to it.
 *
 * 1. GET /authorize (the SDK's handler, then KeysOAuthProvider.authorize) shows `signInPage`: who
 *    asks, where it will send them back, and a field for the address their keys are under.
 * 2. POST /oauth/sign-in mails the consent link (the keys page's one-time links, purpose `consent`).
 * 3. GET /oauth/consent?t=… shows the person's live keys to choose from, Allow and Refuse; it spends
 *    nothing (a mail scanner may open it).
 * 4. POST /oauth/consent spends the link and the request once, records the grant, and redirects to
 *    the client with a code (or `error=access_denied`).
 *
 * Pages are in the language of their path (`/zh-TW/oauth/…` in Chinese), as every page; the sign-in
 * page at /authorize in the language the authorization asked for (`ui_locales`, else the browser's).
 * The language switch keeps the step: on the sign-in page it posts the same request to the
 * other language's /oauth/sign-in, which shows the same sign-in there (its form then posts there, so
 * the mail and the consent page are in that language too); on the consent page it is the mailed link
 * in the other language.
 */
const minutes = OAUTH_LIFETIMES.requestMs / 60_000;

/**
 * Who asks and where the code goes, as both pages open; for a redirect to localhost, a warning that
 * any program on that machine could be the one listening (MCP 2026-07-28, Localhost Redirect URI
 * Risks: a name is a claim, and a loopback address proves nothing about whose it is).
 */
function requestIntro(request: AuthorizationRequest, l: L10n, text: (client: string, origin: string) => string): string {
  const client = escapeHtml(request.client_name);
  const origin = escapeHtml(redirectOrigin(request.redirect_uri));
  const warning = isLoopbackRedirect(request.redirect_uri) ? `<p data-loopback-warning>${l.t.oauth.loopbackWarningHtml(client, origin)}</p>` : '';
  return `<p>${text(client, origin)}</p>${warning}`;
}

/** Where the client gets its answer: the redirect URI with the code (or error), the state and the issuer. */
function redirectTo(request: AuthorizationRequest, issuer: string, params: Record<string, string>): string {
  const u = new URL(request.redirect_uri);
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  if (request.state !== null) u.searchParams.set('state', request.state);
  u.searchParams.set('iss', issuer);
  return u.href;
}

export function signInPage(
  o: Pick<OAuthPagesOptions, 'snapshots'>,
  res: Response,
  request: AuthorizationRequest,
  l: L10n,
  status = 200,
  note = '',
): void {
  const t = l.t.oauth;
  const body = `${requestIntro(request, l, t.signInTextHtml)}${note}${p(t.signInHow)}
<form method="post" action="${l.u.oauthSignIn}" class="keys-form"><input type="hidden" name="request" value="${escapeHtml(request.id)}">
<p><label for="oauth-email">${escapeHtml(t.emailLabel)}</label><br><input id="oauth-email" name="email" type="email" autocomplete="email" required maxlength="254"></p>
<p><button type="submit" data-sign-in class="primary">${escapeHtml(t.signIn)}</button></p></form>
<p>${t.noKeyHtml(l.u.keys)}</p>`;
  // The request's id goes in a form's body, as the sign-in form sends it: never in a URL (a log would hold it).
  send(o.snapshots, res, l, status, t.signInTitle, body, undefined, {
    post: (other) => ({ action: other.u.oauthSignIn, fields: { request: request.id, step: 'show' } }),
  });
}

/** OAuth's page paths in every language: which page, and in which language. */
const PAGE_PATHS = new Map<string, { kind: 'sign-in' | 'consent'; locale: Locale }>(
  LOCALES.flatMap((locale) => {
    const u = l10n(locale).u;
    return [
      [u.oauthSignIn, { kind: 'sign-in' as const, locale }],
      [u.oauthConsent, { kind: 'consent' as const, locale }],
    ];
  }),
);

/**
 * An authorization request refused before anyone has acted: a page, never a redirect to the client
 * (RFC 9700 §4.11.2: a redirect there would make this server an open redirector to any address a
 * client registered, or a metadata document named). The OAuth error is shown for the client's maker.
 */
export function authorizeErrorPage(
  o: Pick<OAuthPagesOptions, 'snapshots'>,
  res: Response,
  l: L10n,
  status: number,
  error: string,
  description: string,
): void {
  const detail = `<p><code>${escapeHtml(error)}</code>${description ? `: ${escapeHtml(description)}` : ''}</p>`;
  send(o.snapshots, res, l, status, l.t.oauth.badRequestTitle, p(l.t.oauth.badRequest) + detail);
}

export function oauthPagesRoute(o: OAuthPagesOptions): RequestHandler {
  const pages = new OAuthPages(o);
  return (req: Request, res: Response, next: NextFunction) => {
    const hit = PAGE_PATHS.get(req.path);
    if (!hit) return next();
    const { kind } = hit;
    const l = l10n(hit.locale);
    const read = req.method === 'GET' || req.method === 'HEAD';
    if (kind === 'consent' && read) return pages.openConsent(req, res, l);
    if (req.method !== 'POST') {
      res.setHeader('Allow', kind === 'consent' ? 'GET, HEAD, POST' : 'POST');
      return send(o.snapshots, res, l, 405, l.t.keys.badFormTitle, '');
    }
    pages.post(kind, req, res, l, next);
  };
}

/** A consent link and its request, both still good, with the language of the page. */
interface Linked {
  request: AuthorizationRequest;
  email: string;
  l: L10n;
}

/** The sign-in and consent pages and their actions, one method each. */
class OAuthPages {
  constructor(private readonly o: OAuthPagesOptions) {}

  /** A form post: its form read within bounds, from this site, then the step its path names. */
  post(kind: 'sign-in' | 'consent', req: Request, res: Response, l: L10n, next: NextFunction): void {
    readForm(req, res, (problem) => {
      if (problem) return this.send(res, l, formProblemStatus(problem), l.t.keys.badFormTitle, p(l.t.keys.formProblem[problem]));
      // The keys page's check (person-page.ts), after the form is read only to answer in the person's language.
      if (fromAnotherSite(req, this.o.issuer)) return this.send(res, l, 403, l.t.keys.crossSiteTitle, p(l.t.keys.crossSiteText));
      if (kind === 'sign-in') this.signIn(req, res, l).catch(next);
      else this.consent(req, res, l);
    });
  }

  private send(res: Response, l: L10n, status: number, title: string, html: string): void {
    send(this.o.snapshots, res, l, status, title, html);
  }

  private gone(res: Response, l: L10n, why: 'unknown' | 'expired' | 'used'): void {
    this.send(res, l, 410, l.t.oauth.requestGoneTitle, p(l.t.oauth.requestWhy[why]));
  }

  /** POST /oauth/sign-in: mails the consent link to the address given (or shows the sign-in again, in this language). */
  private async signIn(req: Request, res: Response, l: L10n): Promise<void> {
    const state = this.o.store.request(field(req, 'request'));
    if (!state.ok) return this.gone(res, l, state.why);
    const { request } = state;
    // The language switch: the same sign-in, in this language; nothing mailed.
    if (field(req, 'step') === 'show') return signInPage(this.o, res, request, l);
    const address = mailAddress(field(req, 'email'));
    if (!address.ok) return signInPage(this.o, res, request, l, 400, p(address.why === 'control' ? l.t.keys.badEmailControl : l.t.oauth.badEmail));
    const email = address.address;
    const taken = this.o.requests.reserveMail(ipKeyGenerator(req.ip ?? req.socket.remoteAddress ?? 'unknown'), address.mailbox);
    if (!taken.ok) {
      res.setHeader('Retry-After', String(taken.retryAfterSeconds));
      return this.send(res, l, 429, l.t.keys.limitTitle, p(taken.spent === 'address' ? l.t.keys.limitAddress : l.t.keys.limitEmail));
    }
    const token = this.o.requests.link('consent', { email, requestId: request.id, locale: l.locale }, OAUTH_LIFETIMES.requestMs);
    try {
      await this.mailConsentLink(email, l, request, token);
    } catch (e) {
      taken.release();
      this.o.logger?.error('oauth: mail not sent', { error: (e as Error).message });
      return this.send(res, l, 503, l.t.keys.mailFailedTitle, p(l.t.keys.mailFailed));
    }
    this.send(res, l, 200, l.t.oauth.sentTitle, `<p>${l.t.oauth.sentTextHtml(`<code>${escapeHtml(email)}</code>`, minutes)}</p>`);
  }

  /** The consent link `token` for `request`, mailed to `email` in the page's language. */
  private async mailConsentLink(email: string, l: L10n, request: AuthorizationRequest, token: string): Promise<void> {
    const { client_name, redirect_uri } = request;
    await this.o.mailer.sendConsentLink(email, l.locale, token, client_name, redirectOrigin(redirect_uri), isLoopbackRedirect(redirect_uri));
  }

  /** The link and its request, both still good, or the page saying why not (already answered). */
  private linked(token: string, res: Response, l: L10n): Linked | null {
    const link = this.o.requests.peek(token);
    if (!link.ok || link.link.purpose !== 'consent') {
      this.gone(res, l, link.ok ? 'unknown' : link.why);
      return null;
    }
    const state = this.o.store.request(link.link.request_id ?? '');
    if (!state.ok) {
      this.gone(res, l, state.why);
      return null;
    }
    return { request: state.request, email: link.link.email, l };
  }

  /** GET /oauth/consent?t=…: the consent page of a mailed link; opening it spends nothing. */
  openConsent(req: Request, res: Response, l: L10n): void {
    const query = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?')) : '';
    const token = new URLSearchParams(query.slice(1)).get('t') ?? '';
    const at = this.linked(token, res, l);
    if (at) this.consentPage(res, token, at, 200, '', query);
  }

  private consentPage(res: Response, token: string, at: Linked, status = 200, note = '', query = `?t=${encodeURIComponent(token)}`): void {
    const { request, email, l } = at;
    const t = l.t.oauth;
    const live = this.o.keys.liveKeysOf(email);
    const intro = `${requestIntro(request, l, t.consentTextHtml)}${note}`;
    // Refuse is the secondary button, Allow the primary: the two never look alike.
    const refuse = button(l.u.oauthConsent, { t: token, decision: 'deny' }, t.deny, 'data-deny class="secondary"');
    const csp = consentPageCsp(request.redirect_uri);
    // The switch: this page in the other language, at the link as mailed (nothing spent by opening it).
    const to = { href: (other: L10n) => `${other.u.oauthConsent}${query}` };
    const body = live.length === 0 ? `${intro}<p>${t.noKeysHtml(l.u.keys)}</p>${refuse}` : intro + allowForm(l, token, live) + refuse;
    send(this.o.snapshots, res, l, status, t.consentTitle, body, csp, to);
  }

  /** POST /oauth/consent: spends the link and the request, and sends the person back to the client with a code or a refusal. */
  private consent(req: Request, res: Response, l: L10n): void {
    const token = field(req, 't');
    const at = this.linked(token, res, l);
    if (!at) return;
    const decision = field(req, 'decision');
    const key = decision === 'allow' ? this.o.keys.liveKeysOf(at.email).find((k) => k.id === field(req, 'key')) : undefined;
    // A choice that is no live key of this address (revoked meanwhile, or forged): ask again, the link unspent.
    if (decision === 'allow' && !key) return this.consentPage(res, token, at, 400, p(at.l.t.keys.noSuchKey));
    if (decision !== 'allow' && decision !== 'deny') return this.consentPage(res, token, at, 400);
    // Both spent once, whoever else presses at the same moment: the link, then the request.
    const spent = this.o.requests.consume(token, ['consent']);
    if (!spent.ok) return this.gone(res, at.l, spent.why);
    if (!this.o.store.takeRequest(at.request.id)) return this.gone(res, at.l, 'used');
    const params: Record<string, string> = key
      ? { code: this.o.store.grant(at.request, key, at.email) }
      : { error: 'access_denied', error_description: 'The person refused to connect the client.' };
    res.redirect(302, redirectTo(at.request, this.o.issuer, params));
  }
}

/** The consent page's Allow form: the person's live keys to choose from (the first chosen), and Allow. */
function allowForm(l: L10n, token: string, live: readonly KeyRecord[]): string {
  const t = l.t.oauth;
  const options = live
    .map(
      (k, i) =>
        `<p><label><input type="radio" name="key" value="${escapeHtml(k.id)}"${i === 0 ? ' checked' : ''}> ${escapeHtml(t.keyOption(k.id, l.t.keys.tierNames[k.tier]))}</label></p>`,
    )
    .join('');
  return `<form method="post" action="${l.u.oauthConsent}" class="keys-form"><input type="hidden" name="t" value="${escapeHtml(token)}"><input type="hidden" name="decision" value="allow">
<fieldset><legend>${escapeHtml(t.keyLegend)}</legend>${options}</fieldset><p><button type="submit" data-allow class="primary">${escapeHtml(t.allow)}</button></p></form>`;
}

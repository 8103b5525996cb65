import { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import { OAUTH_LIFETIMES, OAUTH_PATHS } from '../../src/contract/oauth.js';
import { consentPageCsp } from '../../src/contract/security.js';
import { escapeHtml } from '../../src/site/html.js';
import { l10n, type L10n } from '../../src/site/i18n/index.js';
import { asLocale, type KeyMailer } from '../access/key-mail.js';
import type { KeyRequests } from '../access/key-requests.js';
import { mailAddress } from '../access/mail-address.js';
import type { KeyStore } from '../access/key-store.js';
import type { Logger } from '../logger.js';
import { button, field, formProblemStatus, fromAnotherSite, p, readForm, sendPersonPage as send } from '../routes/person-page.js';
import type { SnapshotSource } from '../snapshot-source.js';
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
 * The pages a person meets when an assistant asks to sign in (issue 43). No password: as on the keys
 * page, a person proves an address by a link mailed to it.
 *
 * 1. GET /authorize (the SDK's handler, then KeysOAuthProvider.authorize) shows `signInPage`: who
 *    asks, where it will send them back, and a field for the address their keys are under.
 * 2. POST /oauth/sign-in mails the consent link (the keys page's one-time links, purpose `consent`).
 * 3. GET /oauth/consent?t=… shows the person's live keys to choose from, Allow and Refuse; it spends
 *    nothing (a mail scanner may open it).
 * 4. POST /oauth/consent spends the link and the request once, records the grant, and redirects to
 *    the client with a code (or `error=access_denied`).
 */
const hostOf = (redirectUri: string) => {
  const u = new URL(redirectUri);
  return u.protocol === 'http:' || u.protocol === 'https:' ? u.host : u.protocol;
};
const minutes = OAUTH_LIFETIMES.requestMs / 60_000;

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
  const body = `<p>${t.signInTextHtml(escapeHtml(request.client_name), escapeHtml(hostOf(request.redirect_uri)))}</p>${note}${p(t.signInHow)}
<form method="post" action="${OAUTH_PATHS.signIn}" class="keys-form"><input type="hidden" name="request" value="${escapeHtml(request.id)}">
<p><label for="oauth-email">${escapeHtml(t.emailLabel)}</label><br><input id="oauth-email" name="email" type="email" autocomplete="email" required maxlength="254"></p>
<p><button type="submit" data-sign-in>${escapeHtml(t.signIn)}</button></p></form>
<p>${t.noKeyHtml(l.u.keys)}</p>`;
  send(o.snapshots, res, l, status, t.signInTitle, body);
}

export function oauthPagesRoute(o: OAuthPagesOptions): RequestHandler {
  const gone = (res: Response, l: L10n, why: 'unknown' | 'expired' | 'used') =>
    send(o.snapshots, res, l, 410, l.t.oauth.requestGoneTitle, p(l.t.oauth.requestWhy[why]));

  async function signIn(req: Request, res: Response): Promise<void> {
    const state = o.store.request(field(req, 'request'));
    if (!state.ok) return gone(res, l10n('en'), state.why);
    const { request } = state;
    const l = l10n(asLocale(request.locale));
    const address = mailAddress(field(req, 'email'));
    if (!address.ok) return signInPage(o, res, request, l, 400, p(address.why === 'control' ? l.t.keys.badEmailControl : l.t.oauth.badEmail));
    const email = address.address;
    const taken = o.requests.reserveMail(ipKeyGenerator(req.ip ?? req.socket.remoteAddress ?? 'unknown'), address.mailbox);
    if (!taken.ok) {
      res.setHeader('Retry-After', String(taken.retryAfterSeconds));
      return send(o.snapshots, res, l, 429, l.t.keys.limitTitle, p(taken.spent === 'address' ? l.t.keys.limitAddress : l.t.keys.limitEmail));
    }
    const token = o.requests.link('consent', { email, requestId: request.id, locale: l.locale }, OAUTH_LIFETIMES.requestMs);
    try {
      await o.mailer.sendConsentLink(email, l.locale, token, request.client_name);
    } catch (e) {
      taken.release();
      o.logger?.error('oauth: mail not sent', { error: (e as Error).message });
      return send(o.snapshots, res, l, 503, l.t.keys.mailFailedTitle, p(l.t.keys.mailFailed));
    }
    send(o.snapshots, res, l, 200, l.t.oauth.sentTitle, `<p>${l.t.oauth.sentTextHtml(`<code>${escapeHtml(email)}</code>`, minutes)}</p>`);
  }

  /** The link and its request, both still good, or the page saying why not (already answered). */
  function linked(token: string, res: Response): { request: AuthorizationRequest; email: string; l: L10n } | null {
    const link = o.requests.peek(token);
    if (!link.ok || link.link.purpose !== 'consent') {
      gone(res, l10n('en'), link.ok ? 'unknown' : link.why);
      return null;
    }
    const l = l10n(asLocale(link.link.locale));
    const state = o.store.request(link.link.request_id ?? '');
    if (!state.ok) {
      gone(res, l, state.why);
      return null;
    }
    return { request: state.request, email: link.link.email, l };
  }

  function consentPage(res: Response, token: string, at: { request: AuthorizationRequest; email: string; l: L10n }, status = 200, note = ''): void {
    const { request, email, l } = at;
    const t = l.t.oauth;
    const live = o.keys.liveKeysOf(email);
    const intro = `<p>${t.consentTextHtml(escapeHtml(request.client_name), escapeHtml(hostOf(request.redirect_uri)))}</p>${note}`;
    const refuse = button(OAUTH_PATHS.consent, { t: token, decision: 'deny' }, t.deny, 'data-deny');
    const csp = consentPageCsp(request.redirect_uri);
    if (live.length === 0) return send(o.snapshots, res, l, status, t.consentTitle, `${intro}<p>${t.noKeysHtml(l.u.keys)}</p>${refuse}`, csp);
    const options = live
      .map(
        (k, i) =>
          `<p><label><input type="radio" name="key" value="${escapeHtml(k.id)}"${i === 0 ? ' checked' : ''}> ${escapeHtml(t.keyOption(k.id, l.t.keys.tierNames[k.tier]))}</label></p>`,
      )
      .join('');
    const allow = `<form method="post" action="${OAUTH_PATHS.consent}" class="keys-form"><input type="hidden" name="t" value="${escapeHtml(token)}"><input type="hidden" name="decision" value="allow">
<fieldset><legend>${escapeHtml(t.keyLegend)}</legend>${options}</fieldset><p><button type="submit" data-allow>${escapeHtml(t.allow)}</button></p></form>`;
    send(o.snapshots, res, l, status, t.consentTitle, intro + allow + refuse, csp);
  }

  function consent(req: Request, res: Response): void {
    const token = field(req, 't');
    const at = linked(token, res);
    if (!at) return;
    const decision = field(req, 'decision');
    const key = decision === 'allow' ? o.keys.liveKeysOf(at.email).find((k) => k.id === field(req, 'key')) : undefined;
    // A choice that is no live key of this address (revoked meanwhile, or forged): ask again, the link unspent.
    if (decision === 'allow' && !key) return consentPage(res, token, at, 400, p(at.l.t.keys.noSuchKey));
    if (decision !== 'allow' && decision !== 'deny') return consentPage(res, token, at, 400);
    // Both spent once, whoever else presses at the same moment: the link, then the request.
    const spent = o.requests.consume(token, ['consent']);
    if (!spent.ok) return gone(res, at.l, spent.why);
    if (!o.store.takeRequest(at.request.id)) return gone(res, at.l, 'used');
    const params: Record<string, string> = key
      ? { code: o.store.grant(at.request, key, at.email) }
      : { error: 'access_denied', error_description: 'The person refused to connect the client.' };
    res.redirect(302, redirectTo(at.request, o.issuer, params));
  }

  /** The language of the sign-in a post belongs to, as far as its fields tell (English when they do not). */
  function localeOf(kind: 'sign-in' | 'consent', req: Request): string {
    if (!req.body) return 'en';
    if (kind === 'sign-in') {
      const state = o.store.request(field(req, 'request'));
      return state.ok ? state.request.locale : 'en';
    }
    const link = o.requests.peek(field(req, 't'));
    return link.ok ? link.link.locale : 'en';
  }

  return (req: Request, res: Response, next: NextFunction) => {
    const kind = req.path === OAUTH_PATHS.signIn ? 'sign-in' : req.path === OAUTH_PATHS.consent ? 'consent' : null;
    if (!kind) return next();
    const read = req.method === 'GET' || req.method === 'HEAD';
    if (kind === 'consent' && read) {
      const token = new URLSearchParams(req.originalUrl.split('?')[1] ?? '').get('t') ?? '';
      const at = linked(token, res);
      return at ? consentPage(res, token, at) : undefined;
    }
    if (req.method !== 'POST') {
      res.setHeader('Allow', kind === 'consent' ? 'GET, HEAD, POST' : 'POST');
      return send(o.snapshots, res, l10n('en'), 405, l10n('en').t.keys.badFormTitle, '');
    }
    readForm(req, res, (problem) => {
      const l = l10n(asLocale(localeOf(kind, req)));
      if (problem) return send(o.snapshots, res, l, formProblemStatus(problem), l.t.keys.badFormTitle, p(l.t.keys.formProblem[problem]));
      // The keys page's check (person-page.ts), after the form is read only to answer in the person's language.
      if (fromAnotherSite(req, o.issuer)) return send(o.snapshots, res, l, 403, l.t.keys.crossSiteTitle, p(l.t.keys.crossSiteText));
      if (kind === 'sign-in') signIn(req, res).catch(next);
      else consent(req, res);
    });
  };
}

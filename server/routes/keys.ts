import { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import { ACT_LIFETIME_MS, PAGE_TIERS, USE_MAX, type PageTier } from '../../src/contract/key-requests.js';
import { API_KEY_HEADER } from '../../src/contract/vocabulary.js';
import { API_BASE } from '../../src/contract/api-paths.js';
import { escapeHtml } from '../../src/site/html.js';
import { l10n, type L10n } from '../../src/site/i18n/index.js';
import { LOCALES, type Locale } from '../../src/site/i18n/locales.js';
import { pageUrlsFor } from '../../src/site/i18n/paths.js';
import type { BucketUsage, Meter } from '../access/meter.js';
import type { KeyRecord } from '../access/key-store.js';
import type { KeyMailer } from '../access/key-mail.js';
import { KeyRequests, type KeyRequest, type Link, type LinkPurpose } from '../access/key-requests.js';
import { mailAddress } from '../access/mail-address.js';
import type { OAuthStore } from '../oauth/store.js';
import type { Logger } from '../kit/logger.js';
import type { SnapshotSource } from '../kit/snapshot-source.js';
import {
  addressHtml,
  button,
  field,
  formProblemStatus,
  fromAnotherSite,
  p,
  readForm,
  sendPersonPage as send,
  type LangSwitch,
} from '../kit/person-page.js';

/**
 * The keys flow's pages, outside /api/v1: they are pages for people, answered in HTML in
 * the page's language, and take HTML form posts (application/x-www-form-urlencoded) so they work
 * without JavaScript under the pages' CSP (form-action 'self'). Programs have nothing to do here: a
 * key is got once, by a person, from a mailed link.
 *
 * - `POST /keys/ask` (tier, email, use): mails a confirmation link.
 * - `POST /keys/manage` (email): mails a link to the address's keys, or, if it holds none, says so
 *   and where to ask; after answering, so the answer is the same either way, in content and time.
 * - `GET /keys/link?t=…`: what the link is for and a button; it uses nothing, so a mail scanner
 *   fetching the link cannot spend it.
 * - `POST /keys/link` (t, and for a rotate or revoke: action, key): spends the link once and acts. A
 *   revoke asks first: its button shows a page that says what it ends, with the button that does it.
 * - `POST /keys/shown` (key, and rotated): a key shown once, shown again in this language; the other
 *   language's page posts it (its language switch), and only a live key is shown.
 * Each under `/zh-TW/` too. Every page's language switch leads to the same step in the other
 * language: a GET page to its path and query there, a page with state (a key, the usage
 * page's one-time buttons) by a form posting that state there. Without SMTP (`mail` unset) `/keys/` says keys come from the operator,
 * and the forms' posts answer that too.
 */
export interface KeysRouteOptions {
  snapshots: SnapshotSource;
  /** The meter whose key store the keys go into (and whose counters a usage page reads). */
  access?: Meter;
  /** SMTP_URL and the rest; absent: keys come from the operator. */
  mailer?: KeyMailer;
  /** The requests' store (the keys database); made from the access's key store when absent. */
  requests?: KeyRequests;
  /** OAuth's grants (server/oauth), when sign-in is on: the usage page lists each key's connected assistants, with a button to disconnect one. */
  oauth?: OAuthStore;
  logger?: Logger;
}

type Kind = 'page' | 'ask' | 'manage' | 'link' | 'shown';
const PATHS = new Map<string, { locale: Locale; kind: Kind }>(
  LOCALES.flatMap((locale) => {
    const u = pageUrlsFor(locale);
    return [
      [u.keys, { locale, kind: 'page' as const }],
      [u.keysAsk, { locale, kind: 'ask' as const }],
      [u.keysManage, { locale, kind: 'manage' as const }],
      [u.keysLink, { locale, kind: 'link' as const }],
      [u.keysShown, { locale, kind: 'shown' as const }],
    ];
  }),
);

const backLink = (l: L10n) => `<p><a href="${l.u.keys}">${escapeHtml(l.t.keys.back)}</a></p>`;

const noMail = (snapshots: SnapshotSource, res: Response, l: L10n, status: number) =>
  send(snapshots, res, l, status, l.t.keys.noMailTitle, `<p>${l.t.keys.operatorHtml}</p>`);

/** Where the mails' daily limits count a client: its address as the quotas count it (IPv6 by /56). */
const addressOf = (req: Request) => ipKeyGenerator(req.ip ?? req.socket.remoteAddress ?? 'unknown');

const badAddress = (l: L10n, why: 'control' | 'invalid') => (why === 'control' ? l.t.keys.badEmailControl : l.t.keys.badEmail);

/** The switch of a page with one-time buttons: their link, posted to the other language, shows the same page there. */
const actSwitch = (act: string, fields: Record<string, string>): LangSwitch => ({
  post: (other) => ({ action: other.u.keysLink, fields: { t: act, action: 'view', ...fields } }),
});

export function keysRoute(o: KeysRouteOptions): RequestHandler {
  const requests = o.requests ?? (o.mailer && o.access ? new KeyRequests(o.access.keys) : undefined);
  const flow =
    o.mailer && o.access && requests
      ? new KeysFlow({ snapshots: o.snapshots, access: o.access, mailer: o.mailer, requests, oauth: o.oauth, logger: o.logger })
      : undefined;

  return (req: Request, res: Response, next: NextFunction) => {
    const hit = PATHS.get(req.path);
    if (!hit) return next();
    const l = l10n(hit.locale);
    const read = req.method === 'GET' || req.method === 'HEAD';
    // The keys page itself is the snapshot's static page when mail can be sent (the pages route serves it).
    if (hit.kind === 'page') return read && !flow ? noMail(o.snapshots, res, l, 200) : next();
    if (hit.kind === 'link' && read) return flow ? flow.linkPage(req, res, l) : noMail(o.snapshots, res, l, 503);
    if (req.method !== 'POST') {
      res.setHeader('Allow', hit.kind === 'link' ? 'GET, HEAD, POST' : 'POST');
      return send(o.snapshots, res, l, 405, l.t.keys.badFormTitle, backLink(l));
    }
    if (!flow) return noMail(o.snapshots, res, l, 503);
    flow.post(hit.kind, req, res, l, next);
  };
}

/** What the flow stands on once mail can be sent: every part is there, so no step asks whether it is. */
interface KeysFlowParts {
  snapshots: SnapshotSource;
  access: Meter;
  mailer: KeyMailer;
  requests: KeyRequests;
  oauth?: OAuthStore;
  logger?: Logger;
}

/** The keys flow's pages and actions, one method each; built only when mail can be sent. */
class KeysFlow {
  constructor(private readonly o: KeysFlowParts) {}

  /** A form post: from this site, its form read within bounds, then the step its path names. */
  post(kind: Exclude<Kind, 'page'>, req: Request, res: Response, l: L10n, next: NextFunction): void {
    if (fromAnotherSite(req, this.o.mailer.publicUrl))
      return this.send(res, l, 403, l.t.keys.crossSiteTitle, p(l.t.keys.crossSiteText) + backLink(l));
    readForm(req, res, (problem) => {
      if (problem) return this.send(res, l, formProblemStatus(problem), l.t.keys.badFormTitle, p(l.t.keys.formProblem[problem]) + backLink(l));
      if (kind === 'shown') return this.shown(req, res, l);
      if (kind === 'manage') return this.manage(req, res, l);
      (kind === 'ask' ? this.ask(req, res, l) : this.useLink(req, res, l)).catch(next);
    });
  }

  private send(res: Response, l: L10n, status: number, title: string, html: string, to?: LangSwitch): void {
    send(this.o.snapshots, res, l, status, title, html, undefined, to);
  }

  private invalidLink(res: Response, l: L10n, why: 'unknown' | 'expired' | 'used'): void {
    this.send(res, l, 410, l.t.keys.linkInvalidTitle, `${p(l.t.keys.linkWhy[why])}<p><a href="${l.u.keys}">${escapeHtml(l.t.keys.askAgain)}</a></p>`);
  }

  /**
   * The page that shows a key once (issued, or made by a rotate of `rotated`). Its language switch
   * posts the key to the other language's `/keys/shown`, in the body: switching loses nothing.
   */
  private showKey(res: Response, l: L10n, key: string, rotated?: string): void {
    const k = l.t.keys;
    const curl = `curl -H "${API_KEY_HEADER}: ${key}" ${this.o.mailer.publicUrl}${API_BASE}/usage`;
    const to: LangSwitch = { post: (other) => ({ action: other.u.keysShown, fields: { key, ...(rotated ? { rotated } : {}) } }) };
    this.send(
      res,
      l,
      200,
      rotated ? k.rotatedTitle : k.keyTitle,
      `${rotated ? p(k.rotatedText(rotated)) : ''}${p(k.keyOnce)}<p>${escapeHtml(k.keyLabel)}: <code data-key>${escapeHtml(key)}</code></p><p>${k.keyUseHtml(escapeHtml(curl))}</p>`,
      to,
    );
  }

  /** POST /keys/shown: a live key, shown again in this language (and the key it replaced, when that is a revoked key of the same holder). */
  shown(req: Request, res: Response, l: L10n): void {
    const key = field(req, 'key');
    const record = this.o.access.keys.verify(key);
    if (!record) return this.send(res, l, 410, l.t.keys.keyNotLiveTitle, p(l.t.keys.keyNotLive) + backLink(l));
    const rotated = field(req, 'rotated');
    const replaced =
      rotated !== '' && record.owner_email !== null
        ? (this.o.access.keys
            .connection()
            .prepare('SELECT 1 FROM api_keys WHERE id = ? AND owner_email = ? AND revoked_at IS NOT NULL')
            .get(rotated, record.owner_email) as object | undefined)
        : undefined;
    this.showKey(res, l, key, replaced ? rotated : undefined);
  }

  /**
   * Takes one mail from the limits, or answers the 429 page. Gives the function that hands the mail
   * back if the relay refuses it (only mail sent counts), or null when it may not go.
   */
  private reserve(req: Request, res: Response, l: L10n, mailbox: string): (() => void) | null {
    const taken = this.o.requests.reserveMail(addressOf(req), mailbox);
    if (taken.ok) return taken.release;
    res.setHeader('Retry-After', String(taken.retryAfterSeconds));
    this.send(res, l, 429, l.t.keys.limitTitle, p(taken.spent === 'address' ? l.t.keys.limitAddress : l.t.keys.limitEmail) + backLink(l));
    return null;
  }

  private mailFailed(res: Response, l: L10n, e: unknown): void {
    this.o.logger?.error('keys: mail not sent', { error: (e as Error).message });
    this.send(res, l, 503, l.t.keys.mailFailedTitle, p(l.t.keys.mailFailed) + backLink(l));
  }

  /** POST /keys/ask: a request for a key, and its confirmation link mailed. */
  async ask(req: Request, res: Response, l: L10n): Promise<void> {
    const tier = field(req, 'tier');
    const address = mailAddress(field(req, 'email'));
    // One line: a pasted line break or tab is a space, and the operator reads it in a table.
    const use = field(req, 'use').replace(/\s+/g, ' ').trim();
    const problems = [
      ...((PAGE_TIERS as readonly string[]).includes(tier) ? [] : [l.t.keys.badTier]),
      ...(address.ok ? [] : [badAddress(l, address.why)]),
      ...(use.length >= 1 && [...use].length <= USE_MAX ? [] : [l.t.keys.badUse]),
    ];
    if (problems.length > 0 || !address.ok) return this.send(res, l, 400, l.t.keys.badFormTitle, problems.map(p).join('') + backLink(l));
    const { address: email, mailbox } = address;
    const release = this.reserve(req, res, l, mailbox);
    if (!release) return;
    const request = this.o.requests.ask({ tier: tier as PageTier, email, use, locale: l.locale });
    const token = this.o.requests.link('confirm', { email, requestId: request.id, locale: l.locale });
    try {
      await this.o.mailer.sendLink('confirm', email, l.locale, token);
    } catch (e) {
      release();
      return this.mailFailed(res, l, e);
    }
    this.send(res, l, 200, l.t.keys.sentTitle, `<p>${l.t.keys.sentTextHtml(addressHtml(email))}</p>`);
  }

  /**
   * Answers first, the same page for every address, then mails: a link to the address's keys, or a
   * note that it holds none. Whether it holds a key is not even looked up before the answer, so
   * nothing in it, its timing included, tells (it took 130–550 ms with a key and 5–50 ms without,
   * in the probe); and a mail goes either way, so the mail limits tell nothing either.
   */
  manage(req: Request, res: Response, l: L10n): void {
    const address = mailAddress(field(req, 'email'));
    if (!address.ok) return this.send(res, l, 400, l.t.keys.badFormTitle, p(badAddress(l, address.why)) + backLink(l));
    const release = this.reserve(req, res, l, address.mailbox);
    if (!release) return;
    this.send(res, l, 200, l.t.keys.sentTitle, `<p>${l.t.keys.manageSentTextHtml(addressHtml(address.address))}</p>`);
    setImmediate(() =>
      this.mailKeysLink(address.address, l.locale).catch((e: unknown) => {
        release();
        this.o.logger?.error('keys: mail not sent', { error: (e as Error).message });
      }),
    );
  }

  private async mailKeysLink(email: string, locale: Locale): Promise<void> {
    if (this.o.access.keys.liveKeysOf(email).length === 0) return this.o.mailer.sendNoKeys(email, locale);
    await this.o.mailer.sendLink('manage', email, locale, this.o.requests.link('manage', { email, locale }));
  }

  /** GET of a mailed link: what it is for and the button that uses it; spends nothing. */
  linkPage(req: Request, res: Response, l: L10n): void {
    const token = new URLSearchParams(req.originalUrl.split('?')[1] ?? '').get('t') ?? '';
    const state = this.o.requests.peek(token);
    // An `act` link is carried by a page's buttons, a `consent` link opens OAuth's page: neither is the keys page's to show.
    if (!state.ok || state.link.purpose === 'act' || state.link.purpose === 'consent')
      return this.invalidLink(res, l, state.ok ? 'unknown' : state.why);
    const purpose = state.link.purpose;
    // The switch: this link in the other language, as mailed (its query as it came).
    const query = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?')) : '';
    this.send(
      res,
      l,
      200,
      l.t.keys.linkTitle[purpose],
      p(l.t.keys.linkText) + button(l.u.keysLink, { t: token }, l.t.keys.linkButton[purpose], 'data-link-go class="primary"'),
      { href: (other) => `${other.u.keysLink}${query}` },
    );
  }

  /** The usage page of an address's live keys, with one rotate and one revoke button each (a fresh `act` link they share). */
  private async keysPage(res: Response, l: L10n, email: string, before = ''): Promise<void> {
    const records = this.o.access.keys.liveKeysOf(email);
    if (records.length === 0) return this.send(res, l, 200, l.t.keys.manageTitle, before + p(l.t.keys.noKeys) + backLink(l));
    const act = this.o.requests.link('act', { email, locale: l.locale }, ACT_LIFETIME_MS);
    const k = l.t.keys;
    const sections = await Promise.all(
      records.map(async (r) => keySection(l, r, await this.o.access.keyUsage(r), act, this.o.oauth?.grantsOfKey(r.id) ?? [])),
    );
    this.send(res, l, 200, k.manageTitle, before + sections.join('\n') + p(k.buttonsExpire), actSwitch(act, {}));
  }

  /** A revoke asks first: what it ends, the button that does it, and the way back to the usage page. */
  private revokePage(res: Response, l: L10n, email: string, r: KeyRecord): void {
    const k = l.t.keys;
    const act = this.o.requests.link('act', { email, locale: l.locale }, ACT_LIFETIME_MS);
    const grants = this.o.oauth?.grantsOfKey(r.id).length ?? 0;
    this.send(
      res,
      l,
      200,
      k.revokeAskTitle(r.id),
      p(k.revokeAskText(r.id, grants)) +
        `<div class="key-actions">${button(l.u.keysLink, { t: act, action: 'revoke', key: r.id, confirm: 'yes' }, k.revokeYes, 'data-revoke-yes class="danger"')}` +
        `${button(l.u.keysLink, { t: act, action: 'view' }, k.revokeNo, 'data-revoke-no')}</div>` +
        p(k.buttonsExpire),
      actSwitch(act, { then: 'revoke', key: r.id }),
    );
  }

  /** POST of a link: spends it (once, whoever else tries at the same moment) and does what it is for. */
  async useLink(req: Request, res: Response, l: L10n): Promise<void> {
    const action = field(req, 'action');
    const purposes: LinkPurpose[] = action === '' ? ['confirm', 'collect', 'manage'] : ['act'];
    const state = this.o.requests.consume(field(req, 't'), purposes);
    if (!state.ok) return this.invalidLink(res, l, state.why);
    const { link } = state;
    switch (link.purpose) {
      case 'confirm':
        return this.confirm(res, l, link);
      case 'collect':
        return this.collect(res, l, link);
      case 'manage':
        return this.keysPage(res, l, link.email);
      case 'act':
        return this.act(req, res, l, link.email, action);
    }
  }

  /** A confirmed request: its key, or, for the academic tier, word that the operator decides. */
  private confirm(res: Response, l: L10n, link: Link): void {
    const request = this.requestOf(link);
    if (!request) return this.invalidLink(res, l, 'unknown');
    this.o.requests.confirm(request.id);
    if (request.tier === 'academic') return this.send(res, l, 200, l.t.keys.pendingTitle, p(l.t.keys.pendingText));
    this.showKey(res, l, this.o.requests.issue(request).key);
  }

  /** An approved request's key. An approval mailed twice has two links: the first used issues the key, the other is spent with it. */
  private collect(res: Response, l: L10n, link: Link): void {
    const request = this.requestOf(link);
    if (!request || request.key_id !== null) return this.invalidLink(res, l, request ? 'used' : 'unknown');
    this.showKey(res, l, this.o.requests.issue(request).key);
  }

  /** The request a confirm or collect link was made for (every such link names one). */
  private requestOf(link: Link): KeyRequest | undefined {
    return link.request_id === null ? undefined : this.o.requests.request(link.request_id);
  }

  /** A usage page's button: view the page again, or rotate, revoke or disconnect one of the address's live keys. */
  private async act(req: Request, res: Response, l: L10n, email: string, action: string): Promise<void> {
    const k = l.t.keys;
    const id = field(req, 'key');
    const record = this.o.access.keys.liveKeysOf(email).find((r) => r.id === id);
    // The usage page again (its language switch, a revoke not confirmed), or the revoke's question again in this language.
    if (action === 'view') return record && field(req, 'then') === 'revoke' ? this.revokePage(res, l, email, record) : this.keysPage(res, l, email);
    if (!record || (action !== 'rotate' && action !== 'revoke' && action !== 'disconnect')) return this.keysPage(res, l, email, p(k.noSuchKey));
    if (action === 'disconnect') return this.disconnect(req, res, l, email, record);
    if (action === 'revoke' && field(req, 'confirm') !== 'yes') return this.revokePage(res, l, email, record);
    this.o.access.keys.revoke(record.id);
    if (action === 'revoke') return this.send(res, l, 200, k.revokedTitle, p(k.revokedText(record.id)) + backLink(l));
    const fresh = this.o.access.keys.create({ tier: record.tier, owner: record.owner, email });
    this.showKey(res, l, fresh.key, record.id);
  }

  /** Only a grant of this live key of this address: the link proves the address, the key id narrows it. */
  private async disconnect(req: Request, res: Response, l: L10n, email: string, record: KeyRecord): Promise<void> {
    const grant = this.o.oauth?.grantsOfKey(record.id).find((g) => g.id === field(req, 'grant'));
    if (grant) this.o.oauth?.revokeGrant(grant.id, 'disconnected by the key holder');
    return this.keysPage(res, l, email, p(grant ? l.t.keys.disconnected(grant.client_name) : l.t.keys.noSuchKey));
  }
}

type Grant = ReturnType<OAuthStore['grantsOfKey']>[number];

/** One key's section of the usage page: its buckets' use, its connected assistants, its rotate and revoke buttons. */
function keySection(l: L10n, r: KeyRecord, usage: BucketUsage[], act: string, grants: readonly Grant[]): string {
  const k = l.t.keys;
  const heading = escapeHtml(k.keyHeading(r.id, k.tierNames[r.tier]));
  return (
    `<section data-key-id="${r.id}"><h2>${heading}</h2>${p(k.createdAt(l.f.date(r.created_at)))}\n` +
    `<div class="table-wrap" tabindex="0" role="region" aria-label="${heading}: ${escapeHtml(k.usageCaption)}">` +
    `<table><caption>${escapeHtml(k.usageCaption)}</caption><thead><tr>` +
    `<th scope="col">${escapeHtml(k.bucket)}</th><th scope="col" class="num">${escapeHtml(k.limit)}</th>` +
    `<th scope="col" class="num">${escapeHtml(k.used)}</th><th scope="col" class="num">${escapeHtml(k.remaining)}</th>` +
    `<th scope="col">${escapeHtml(k.resets)}</th></tr></thead><tbody>${usage.map((b) => bucketRow(l, b)).join('')}</tbody></table></div>\n` +
    `${connections(l, r, act, grants)}<div class="key-actions">` +
    `${button(l.u.keysLink, { t: act, action: 'rotate', key: r.id }, k.rotate, 'data-rotate')}` +
    `${button(l.u.keysLink, { t: act, action: 'revoke', key: r.id }, k.revoke, 'data-revoke class="danger"')}</div></section>`
  );
}

/** One bucket's row: its limit, what is used and what remains, and when its window resets. */
function bucketRow(l: L10n, b: BucketUsage): string {
  const k = l.t.keys;
  const n = (x: number | null) => (x === null ? escapeHtml(k.unlimited) : l.f.number(x));
  const used = b.used === null ? escapeHtml(k.unknownUsage) : l.f.number(b.used);
  const remaining = b.limit === null || b.used === null ? n(null) : l.f.number(Math.max(0, b.limit - b.used));
  const resets = new Date(b.window.endMs).toISOString().replace('.000Z', 'Z');
  return (
    `<tr><th scope="row">${escapeHtml(k.bucketNames[b.bucket])}</th>` +
    `<td class="num">${b.limit === 0 ? escapeHtml(k.none) : n(b.limit)}</td><td class="num">${used}</td>` +
    `<td class="num">${b.limit === 0 ? '' : remaining}</td><td>${resets}</td></tr>`
  );
}

/** The assistants signed in with a key (OAuth grants), each with a button that ends its grant. */
function connections(l: L10n, r: KeyRecord, act: string, grants: readonly Grant[]): string {
  if (grants.length === 0) return '';
  const k = l.t.keys;
  const items = grants
    .map(
      (g) =>
        `<li>${escapeHtml(k.connectedSince(g.client_name, l.f.date(new Date(g.created_at).toISOString())))} ` +
        `${button(l.u.keysLink, { t: act, action: 'disconnect', key: r.id, grant: g.id }, k.disconnect, 'data-disconnect')}</li>`,
    )
    .join('');
  return `<h3>${escapeHtml(k.connectedHeading)}</h3><ul class="keys-connections">${items}</ul>`;
}

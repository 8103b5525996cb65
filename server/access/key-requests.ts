import { createHash, randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { KeyRecord, KeyStore } from './key-store.js';
import { LINK_LIFETIME_MS, MAIL_LIMITS, type PageTier } from '../../src/contract/key-requests.js';

/**
 * What an e-mailed link lets its holder do, once:
 * - `confirm`: confirm a request (a developer key is issued then; an academic one waits for the operator);
 * - `collect`: take an academic key the operator approved;
 * - `manage`: see the address's keys and their usage, with buttons to rotate or revoke them;
 * - `act`: one rotate or revoke from that page (never mailed: the page's buttons carry it);
 * - `consent`: OAuth's consent page (server/oauth/pages.ts) for the authorization request `request_id`.
 */
export type LinkPurpose = 'confirm' | 'collect' | 'manage' | 'act' | 'consent';

const DAY_MS = 86_400_000;

/** A mail the limits let through, held until it is known whether the relay took it. */
export type MailTaken = { ok: true; release: () => void } | { ok: false; spent: 'address' | 'email'; retryAfterSeconds: number };

export interface KeyRequest {
  id: string;
  tier: PageTier;
  email: string;
  intended_use: string;
  locale: string;
  created_at: string;
  confirmed_at: string | null;
  approved_at: string | null;
  key_id: string | null;
  /** Set when the operator turned an academic request down (`npm run keys -- reject`). */
  rejected_at: string | null;
}

export interface Link {
  purpose: LinkPurpose;
  email: string;
  request_id: string | null;
  locale: string;
  expires_at: string;
  used_at: string | null;
}

export type LinkState = { ok: true; link: Link } | { ok: false; why: 'unknown' | 'expired' | 'used' };

const SCHEMA = `CREATE TABLE IF NOT EXISTS key_requests (
  id TEXT PRIMARY KEY,
  tier TEXT NOT NULL,
  email TEXT NOT NULL,
  intended_use TEXT NOT NULL,
  locale TEXT NOT NULL,
  created_at TEXT NOT NULL,
  confirmed_at TEXT,
  approved_at TEXT,
  key_id TEXT
);
-- One-time links: only the SHA-256 of the token is kept, as for keys; used_at makes a link work once.
CREATE TABLE IF NOT EXISTS key_links (
  hash TEXT PRIMARY KEY,
  purpose TEXT NOT NULL,
  email TEXT NOT NULL,
  request_id TEXT,
  locale TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  used_at TEXT
);
-- Every mail the relay took (or is being sent), by client address and recipient mailbox (mail-address.ts), for the daily limits.
CREATE TABLE IF NOT EXISTS key_mails (at INTEGER NOT NULL, address TEXT NOT NULL, email TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS key_mails_by_address ON key_mails (address, at);
CREATE INDEX IF NOT EXISTS key_mails_by_email ON key_mails (email, at);`;

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');
/** Tokens are 32 random bytes, base64url: what a link carries as `?t=`. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * The keys page's state, in the keys database beside the keys (one file, one backup): requests,
 * one-time links (hashed) and the mails sent. No password: a person proves an address by following a
 * link mailed to it.
 */
export class KeyRequests {
  private readonly db: Database.Database;
  private readonly clock: () => number;
  private readonly limits: { perAddress: number; perEmail: number };

  constructor(
    private readonly keys: KeyStore,
    o: { clock?: () => number; limits?: { perAddress: number; perEmail: number } } = {},
  ) {
    this.db = keys.connection();
    this.db.exec(SCHEMA);
    // A store made before requests could be rejected lacks the column: add it, empty.
    const columns = this.db.prepare('PRAGMA table_info(key_requests)').all() as { name: string }[];
    if (!columns.some((c) => c.name === 'rejected_at')) this.db.exec('ALTER TABLE key_requests ADD COLUMN rejected_at TEXT');
    this.clock = o.clock ?? Date.now;
    this.limits = o.limits ?? MAIL_LIMITS;
  }

  private now(): string {
    return new Date(this.clock()).toISOString();
  }

  /**
   * Takes one mail from the daily allowance of a client address and of a recipient's mailbox
   * (mail-address.ts), or says which is spent and in how many seconds it frees up (then nothing is
   * taken). The caller sends the mail and calls `release` if the relay refused it: only mail that
   * left counts, so a relay that is down does not use up a person's day. A mail being
   * sent counts meanwhile, so clients at the same moment cannot pass the limit together.
   *
   * A client address is limited in the mailboxes it mails (`perAddress` a day), not in its mails:
   * one person's documented steps (two keys, two sign-ins, a link to manage them) are five mails to
   * one mailbox, and a campus behind one address has many such people. A mailbox is limited in the
   * mails it receives (`perEmail`), whoever asks.
   */
  reserveMail(address: string, mailbox: string): MailTaken {
    return this.db.transaction((): MailTaken => {
      const now = this.clock();
      const since = now - DAY_MS;
      const toMailbox = this.db.prepare('SELECT count(*) AS n, min(at) AS oldest FROM key_mails WHERE email = ? AND at > ?').get(mailbox, since) as {
        n: number;
        oldest: number | null;
      };
      const retryAfter = (oldest: number | null) => Math.max(1, Math.ceil(((oldest ?? now) + DAY_MS - now) / 1000));
      if (toMailbox.n >= this.limits.perEmail) return { ok: false, spent: 'email', retryAfterSeconds: retryAfter(toMailbox.oldest) };
      const known = this.db.prepare('SELECT 1 FROM key_mails WHERE address = ? AND email = ? AND at > ? LIMIT 1').get(address, mailbox, since);
      if (!known) {
        // Each mailbox this address mailed, with its last mail: the first of them to leave the window frees a place.
        const mailboxes = this.db
          .prepare(
            'SELECT count(*) AS n, min(last) AS oldest FROM (SELECT max(at) AS last FROM key_mails WHERE address = ? AND at > ? GROUP BY email)',
          )
          .get(address, since) as { n: number; oldest: number | null };
        if (mailboxes.n >= this.limits.perAddress) return { ok: false, spent: 'address', retryAfterSeconds: retryAfter(mailboxes.oldest) };
      }
      this.db.prepare('DELETE FROM key_mails WHERE at <= ?').run(since);
      const row = this.db.prepare('INSERT INTO key_mails (at, address, email) VALUES (?, ?, ?)').run(now, address, mailbox).lastInsertRowid;
      // A mail sent after the answer may fail while the shim closes: its count goes with the connection.
      return { ok: true, release: () => void (this.db.open && this.db.prepare('DELETE FROM key_mails WHERE rowid = ?').run(row)) };
    })();
  }

  /** Records a request for a key; it does nothing until its confirmation link is followed. */
  ask(r: { tier: PageTier; email: string; use: string; locale: string }): KeyRequest {
    const request: KeyRequest = {
      id: randomBytes(5).toString('hex'),
      tier: r.tier,
      email: r.email,
      intended_use: r.use,
      locale: r.locale,
      created_at: this.now(),
      confirmed_at: null,
      approved_at: null,
      key_id: null,
      rejected_at: null,
    };
    this.db
      .prepare('INSERT INTO key_requests (id, tier, email, intended_use, locale, created_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(request.id, request.tier, request.email, request.intended_use, request.locale, request.created_at);
    return request;
  }

  request(id: string): KeyRequest | undefined {
    return this.db.prepare('SELECT * FROM key_requests WHERE id = ?').get(id) as KeyRequest | undefined;
  }

  /** A new one-time link's token (shown only in the mail or the page that carries it). */
  link(purpose: LinkPurpose, l: { email: string; requestId?: string; locale: string }, lifetimeMs = LINK_LIFETIME_MS): string {
    const token = randomBytes(32).toString('base64url');
    this.db
      .prepare('INSERT INTO key_links (hash, purpose, email, request_id, locale, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(tokenHash(token), purpose, l.email, l.requestId ?? null, l.locale, this.now(), new Date(this.clock() + lifetimeMs).toISOString());
    return token;
  }

  /** What a token is, without using it (the GET a mail scanner may make). */
  peek(token: string): LinkState {
    const row = TOKEN.test(token) ? (this.db.prepare('SELECT * FROM key_links WHERE hash = ?').get(tokenHash(token)) as Link | undefined) : undefined;
    if (!row) return { ok: false, why: 'unknown' };
    if (row.used_at !== null) return { ok: false, why: 'used' };
    if (row.expires_at <= this.now()) return { ok: false, why: 'expired' };
    return { ok: true, link: row };
  }

  /** Uses a token: at most one caller ever gets `ok` for it, whatever runs at once (one UPDATE decides). */
  consume(token: string, purposes: readonly LinkPurpose[]): LinkState {
    const state = this.peek(token);
    if (!state.ok) return state;
    if (!purposes.includes(state.link.purpose)) return { ok: false, why: 'unknown' };
    const now = this.now();
    const taken = this.db
      .prepare('UPDATE key_links SET used_at = ? WHERE hash = ? AND used_at IS NULL AND expires_at > ?')
      .run(now, tokenHash(token), now);
    return taken.changes === 1 ? { ok: true, link: { ...state.link, used_at: now } } : { ok: false, why: 'used' };
  }

  /** Marks a request confirmed (its address proven). */
  confirm(id: string): void {
    this.db.prepare('UPDATE key_requests SET confirmed_at = coalesce(confirmed_at, ?) WHERE id = ?').run(this.now(), id);
  }

  /** Issues the key of a confirmed developer request or an approved academic one: shown once, to the caller. */
  issue(request: KeyRequest): { record: KeyRecord; key: string } {
    const issued = this.keys.create({ tier: request.tier, owner: request.email, email: request.email });
    this.db.prepare('UPDATE key_requests SET key_id = ? WHERE id = ?').run(issued.record.id, request.id);
    return issued;
  }

  /** Academic requests confirmed by their applicant and waiting for the operator, oldest first. */
  pending(): KeyRequest[] {
    return this.db
      .prepare(
        "SELECT * FROM key_requests WHERE tier = 'academic' AND confirmed_at IS NOT NULL AND approved_at IS NULL AND rejected_at IS NULL ORDER BY created_at, id",
      )
      .all() as KeyRequest[];
  }

  /** Approves a pending academic request (or one approved whose key was never collected); the caller mails its applicant a `collect` link. */
  approve(id: string): { ok: true; request: KeyRequest } | { ok: false; why: string } {
    const request = this.request(id);
    if (!request) return { ok: false, why: `no request with id ${id}` };
    if (request.tier !== 'academic') return { ok: false, why: `request ${id} is for a ${request.tier} key, issued on confirmation` };
    if (request.rejected_at !== null) return { ok: false, why: `request ${id} was rejected (${request.rejected_at})` };
    if (request.confirmed_at === null)
      return { ok: false, why: `request ${id} is not confirmed yet: its applicant has not followed the mailed link` };
    if (request.key_id !== null)
      return { ok: false, why: `request ${id} was approved (${request.approved_at}) and its key collected (key ${request.key_id})` };
    // Approved but not collected (the mail was lost, or its link ran out): approving again mails a new link.
    if (request.approved_at === null) this.db.prepare('UPDATE key_requests SET approved_at = ? WHERE id = ?').run(this.now(), id);
    return { ok: true, request: this.request(id)! };
  }

  /** Turns a pending academic request down: it leaves the pending list and can no longer be approved. */
  reject(id: string): { ok: true; request: KeyRequest } | { ok: false; why: string } {
    const request = this.request(id);
    if (!request) return { ok: false, why: `no request with id ${id}` };
    if (request.tier !== 'academic') return { ok: false, why: `request ${id} is for a ${request.tier} key, issued on confirmation` };
    if (request.rejected_at !== null) return { ok: false, why: `request ${id} was already rejected (${request.rejected_at})` };
    if (request.approved_at !== null) return { ok: false, why: `request ${id} was approved (${request.approved_at}); revoke its key instead` };
    this.db.prepare('UPDATE key_requests SET rejected_at = ? WHERE id = ?').run(this.now(), id);
    return { ok: true, request: this.request(id)! };
  }

  /** Takes an approval back (its mail could not be sent), so that approving again works. */
  unapprove(id: string): void {
    this.db.prepare('UPDATE key_requests SET approved_at = NULL WHERE id = ?').run(id);
  }
}

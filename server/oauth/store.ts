import { hash, randomBytes, randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { KeyRecord, KeyStore } from '../access/key-store.js';
import { OAUTH_LIFETIMES, OAUTH_RETENTION, TOKEN_PREFIX } from '../../src/contract/oauth.js';

/**
 * OAuth's state, in the keys database beside the keys it stands for (one file, one backup,
 * every shim sees the same): registered clients, authorization requests waiting for a person's
 * consent, codes, grants and tokens. Tokens and codes are kept as their SHA-256 only, as keys are.
 *
 * A grant is one consent: a client may use one key. Its codes and tokens die with it, and it dies
 * with its key: every token check joins the key, so a key revoked (by the keys page, the command or
 * another shim) refuses its tokens on the next call, with no cache to wait for.
 */

const SCHEMA = `CREATE TABLE IF NOT EXISTS oauth_clients (
  client_id TEXT PRIMARY KEY,
  -- The SHA-256 of a confidential client's secret (the token endpoint compares hashes); NULL for a public client.
  secret_hash TEXT,
  info TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS oauth_requests (
  id TEXT PRIMARY KEY,
  client_id TEXT NOT NULL,
  client_name TEXT NOT NULL,
  redirect_uri TEXT NOT NULL,
  code_challenge TEXT NOT NULL,
  state TEXT,
  resource TEXT NOT NULL,
  locale TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER
);
CREATE TABLE IF NOT EXISTS oauth_grants (
  id TEXT PRIMARY KEY,
  client_id TEXT NOT NULL,
  client_name TEXT NOT NULL,
  key_id TEXT NOT NULL,
  email TEXT NOT NULL,
  resource TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  revoked_at INTEGER,
  revoked_why TEXT
);
CREATE INDEX IF NOT EXISTS oauth_grants_by_key ON oauth_grants (key_id);
CREATE TABLE IF NOT EXISTS oauth_codes (
  hash TEXT PRIMARY KEY,
  grant_id TEXT NOT NULL,
  client_id TEXT NOT NULL,
  redirect_uri TEXT NOT NULL,
  code_challenge TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER
);
CREATE TABLE IF NOT EXISTS oauth_tokens (
  hash TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  grant_id TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER
);
CREATE INDEX IF NOT EXISTS oauth_tokens_by_expiry ON oauth_tokens (expires_at);
CREATE INDEX IF NOT EXISTS oauth_tokens_by_grant ON oauth_tokens (grant_id);
CREATE INDEX IF NOT EXISTS oauth_grants_by_client ON oauth_grants (client_id);
CREATE INDEX IF NOT EXISTS oauth_requests_by_expiry ON oauth_requests (expires_at);`;

/**
 * When a registration was last used (an authorization request, tokens issued): NULL until its first
 * /authorize. Added to databases made before it; pruning reads it (OAuthStore.prune).
 */
function addClientsUsedAt(db: Database.Database): void {
  const columns = db.prepare('PRAGMA table_info(oauth_clients)').all() as { name: string }[];
  if (!columns.some((c) => c.name === 'used_at')) {
    // A client that had a grant was used: counted from its registration, so a live grant keeps it.
    db.exec('ALTER TABLE oauth_clients ADD COLUMN used_at INTEGER');
    db.exec('UPDATE oauth_clients SET used_at = created_at WHERE client_id IN (SELECT client_id FROM oauth_grants)');
  }
  db.exec('CREATE INDEX IF NOT EXISTS oauth_clients_by_use ON oauth_clients (used_at, created_at)');
}

const sha256hex = (s: string) => hash('sha256', s, 'hex');
const secret = () => randomBytes(32).toString('base64url');

/** A client as the SDK's handlers see it; `client_secret` is the stored hash (the token route hashes what a client sends). */
export type StoredClient = OAuthClientInformationFull;

export interface AuthorizationRequest {
  id: string;
  client_id: string;
  client_name: string;
  redirect_uri: string;
  code_challenge: string;
  state: string | null;
  resource: string;
  locale: string;
  expires_at: number;
  used_at: number | null;
}

export interface Grant {
  id: string;
  client_id: string;
  client_name: string;
  key_id: string;
  email: string;
  resource: string;
  created_at: number;
  revoked_at: number | null;
  revoked_why: string | null;
}

export interface IssuedTokens {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
}

/**
 * Why an exchange at the token endpoint gave nothing (said to the client in `error_description`):
 * `invalid_target` when the `resource` it named is not the grant's (RFC 8707 §2), else `invalid_grant`.
 */
export type ExchangeRefusal = { ok: false; why: string; error?: 'invalid_target' };

/** What an access token stands for, or why it stands for nothing (said to the client in `error_description`). */
export type TokenCheck = { ok: true; key: KeyRecord; clientId: string; resource: string; expiresAt: number } | { ok: false; why: string };

/** A token with its grant and its key (the key's columns as KeyRecord has them). */
type TokenRow = KeyRecord & {
  kind: string;
  expires_at: number;
  used_at: number | null;
  grant_id: string;
  client_id: string;
  resource: string;
  grant_revoked_at: number | null;
  revoked_why: string | null;
};

/** A token request naming another resource than its grant's: refused, nothing spent. */
const otherTarget = (asked: string, granted: string): ExchangeRefusal => ({
  ok: false,
  error: 'invalid_target',
  why: `resource ${asked} is not the one this grant is for (${granted}): ask for that one, or sign in again for the other.`,
});

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Access tokens checked and remembered at once; more in use only costs the forgotten ones a read again. */
const MAX_CHECKED = 10_000;

export class OAuthStore {
  private readonly db: Database.Database;
  private readonly clock: () => number;
  private readonly tokenByHash: Database.Statement<[string], TokenRow>;
  private readonly dataVersion: Database.Statement<[], number>;
  /** Read at every request to /token, /revoke and /authorize (the SDK looks the client up): prepared once. */
  private readonly clientById: Database.Statement<[string], { secret_hash: string | null; info: string }>;
  /**
   * Live access tokens already checked, by the string presented, until anything in the keys database
   * changes: another connection's commit moves `PRAGMA data_version` (read at every check, a few µs
   * cheaper than the joined read it saves), and this connection's own revocations clear it. So a
   * token of a key revoked anywhere is refused on the very next call, and a call with a token
   * otherwise costs a map lookup (bench/results.md).
   */
  private readonly checked = new Map<string, Extract<TokenCheck, { ok: true }>>();
  private seenVersion = -1;

  private readonly pruner: NodeJS.Timeout;

  constructor(keys: KeyStore, o: { clock?: () => number } = {}) {
    this.db = keys.connection();
    this.db.exec(SCHEMA);
    addClientsUsedAt(this.db);
    this.clock = o.clock ?? Date.now;
    // Also at every write of a registration or request; the timer gives the space back on a quiet shim.
    this.pruner = setInterval(() => this.prune(), OAUTH_RETENTION.pruneEveryMs);
    this.pruner.unref();
    this.dataVersion = this.db.prepare<[], number>('PRAGMA data_version').pluck();
    this.clientById = this.db.prepare('SELECT secret_hash, info FROM oauth_clients WHERE client_id = ?');
    keys.onRevoke(() => this.checked.clear());
    // One indexed read per call with a token: the key's state is read with it, so a revocation anywhere is seen at once.
    this.tokenByHash = this.db.prepare(
      `SELECT t.kind, t.expires_at, t.used_at, g.id AS grant_id, g.client_id, g.resource, g.revoked_at AS grant_revoked_at, g.revoked_why,
              k.id, k.tier, k.owner, k.daily_limit, k.per_minute_limit, k.created_at, k.revoked_at, k.owner_email
         FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id JOIN api_keys k ON k.id = g.key_id
        WHERE t.hash = ?`,
    );
  }

  // Clients ------------------------------------------------------------------------------------

  /** Stores a dynamically registered client (RFC 7591); a confidential client's secret only as its hash. */
  registerClient(info: Omit<StoredClient, 'client_id' | 'client_id_issued_at'> & { client_id?: string }): StoredClient {
    const client_id = info.client_id ?? randomUUID();
    const full = { ...info, client_id, client_id_issued_at: Math.floor(this.clock() / 1000) } as StoredClient;
    const { client_secret, ...rest } = full;
    this.db
      .prepare('INSERT INTO oauth_clients (client_id, secret_hash, info, created_at) VALUES (?, ?, ?, ?)')
      .run(client_id, client_secret ? sha256hex(client_secret) : null, JSON.stringify(rest), this.clock());
    this.pruneRegistrations();
    return full;
  }

  /** A registered client, its secret field holding the secret's hash (compared against the hash of what the client sends). */
  client(clientId: string): StoredClient | undefined {
    const row = this.clientById.get(clientId);
    if (!row) return undefined;
    const info = JSON.parse(row.info) as StoredClient;
    return row.secret_hash ? { ...info, client_secret: row.secret_hash } : info;
  }

  /** How a client secret is compared: as its SHA-256, the only form kept. */
  static hashSecret(s: string): string {
    return sha256hex(s);
  }

  // Authorization requests ---------------------------------------------------------------------

  /** Records an authorization request waiting for a person to sign in and consent. */
  openRequest(r: Omit<AuthorizationRequest, 'id' | 'expires_at' | 'used_at'>): AuthorizationRequest {
    const request: AuthorizationRequest = { ...r, id: secret(), expires_at: this.clock() + OAUTH_LIFETIMES.requestMs, used_at: null };
    this.db
      .prepare(
        'INSERT INTO oauth_requests (id, client_id, client_name, redirect_uri, code_challenge, state, resource, locale, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(request.id, r.client_id, r.client_name, r.redirect_uri, r.code_challenge, r.state, r.resource, r.locale, request.expires_at);
    this.db.prepare('UPDATE oauth_clients SET used_at = ? WHERE client_id = ?').run(this.clock(), r.client_id);
    this.pruneRequests();
    return request;
  }

  /** A request still waiting (not expired, not answered), or why not. */
  request(id: string): { ok: true; request: AuthorizationRequest } | { ok: false; why: 'unknown' | 'expired' | 'used' } {
    const row = this.db.prepare('SELECT * FROM oauth_requests WHERE id = ?').get(id) as AuthorizationRequest | undefined;
    if (!row) return { ok: false, why: 'unknown' };
    if (row.used_at !== null) return { ok: false, why: 'used' };
    if (row.expires_at <= this.clock()) return { ok: false, why: 'expired' };
    return { ok: true, request: row };
  }

  /** Answers a request once: true for the one caller that takes it. */
  takeRequest(id: string): boolean {
    const now = this.clock();
    return (
      this.db.prepare('UPDATE oauth_requests SET used_at = ? WHERE id = ? AND used_at IS NULL AND expires_at > ?').run(now, id, now).changes === 1
    );
  }

  // Grants and codes ---------------------------------------------------------------------------

  /** A person's consent: the request's client may use `key`. Returns the authorization code for the redirect. */
  grant(request: AuthorizationRequest, key: KeyRecord, email: string): string {
    const grantId = secret();
    const code = secret();
    const now = this.clock();
    this.db.transaction(() => {
      this.db
        .prepare('INSERT INTO oauth_grants (id, client_id, client_name, key_id, email, resource, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
        .run(grantId, request.client_id, request.client_name, key.id, email, request.resource, now);
      this.db
        .prepare('INSERT INTO oauth_codes (hash, grant_id, client_id, redirect_uri, code_challenge, expires_at) VALUES (?, ?, ?, ?, ?, ?)')
        .run(sha256hex(code), grantId, request.client_id, request.redirect_uri, request.code_challenge, now + OAUTH_LIFETIMES.codeMs);
    })();
    return code;
  }

  /** The PKCE challenge of a live code of this client (the SDK's token handler verifies the verifier against it). */
  challengeOf(clientId: string, code: string): string | undefined {
    const row = this.db.prepare('SELECT client_id, code_challenge FROM oauth_codes WHERE hash = ?').get(sha256hex(code)) as
      { client_id: string; code_challenge: string } | undefined;
    return row && row.client_id === clientId ? row.code_challenge : undefined;
  }

  /**
   * Exchanges a code for tokens, once. A code used twice is a stolen code or a broken client: the
   * grant it came from is revoked (OAuth 2.1 §4.1.3), so the tokens of its first use stop too.
   * `resource`, when the client names one, must be the grant's (the one consented to): else nothing
   * is spent, and the client may try again with the right one.
   */
  exchangeCode(
    clientId: string,
    code: string,
    redirectUri: string | undefined,
    resource?: string,
  ): { ok: true; tokens: IssuedTokens } | ExchangeRefusal {
    const now = this.clock();
    // IMMEDIATE, as `refresh` is: a code raced on two shims is used once, and its second use seen.
    return this.db
      .transaction(() => {
        const row = this.db
          .prepare('SELECT c.*, g.resource FROM oauth_codes c LEFT JOIN oauth_grants g ON g.id = c.grant_id WHERE c.hash = ?')
          .get(sha256hex(code)) as
          | { grant_id: string; client_id: string; redirect_uri: string; expires_at: number; used_at: number | null; resource: string | null }
          | undefined;
        if (!row || row.client_id !== clientId) return { ok: false as const, why: 'The authorization code is not one issued to this client.' };
        if (row.used_at !== null) {
          this.revokeGrant(row.grant_id, 'its authorization code was used twice');
          return { ok: false as const, why: 'The authorization code was already used; the grant it came from is revoked. Sign in again.' };
        }
        if (row.expires_at <= now) return { ok: false as const, why: `The authorization code expired at ${iso(row.expires_at)}. Sign in again.` };
        if (redirectUri !== undefined && redirectUri !== row.redirect_uri)
          return { ok: false as const, why: 'redirect_uri is not the one the authorization request named.' };
        if (resource !== undefined && row.resource !== null && resource !== row.resource) return otherTarget(resource, row.resource);
        const live = this.liveGrant(row.grant_id);
        if (!live.ok) return live;
        this.db.prepare('UPDATE oauth_codes SET used_at = ? WHERE hash = ?').run(now, sha256hex(code));
        return { ok: true as const, tokens: this.issue(row.grant_id) };
      })
      .immediate();
  }

  /**
   * Exchanges a refresh token for new tokens; the old refresh token stops (rotation, OAuth 2.1
   * §4.3.1). One presented again after its rotation was copied: its grant is revoked.
   *
   * The read, the check and the write are one IMMEDIATE transaction: it takes the keys
   * database's write lock before reading, waiting for another shim's rotation to commit (the
   * connection's busy_timeout), so the second of two shims presented the same token reads it spent
   * and revokes the grant. A deferred transaction read first and then failed to write
   * (SQLITE_BUSY_SNAPSHOT: a 500, and the replay unseen, both shims' reads saying "unused").
   */
  refresh(clientId: string, refreshToken: string, resource?: string): { ok: true; tokens: IssuedTokens } | ExchangeRefusal {
    const now = this.clock();
    return this.db
      .transaction(() => {
        const row = this.tokenByHash.get(sha256hex(refreshToken));
        if (!row || row.kind !== 'refresh' || row.client_id !== clientId)
          return { ok: false as const, why: 'The refresh token is not one issued to this client.' };
        if (row.used_at !== null) {
          this.revokeGrant(row.grant_id, 'a rotated refresh token was presented again');
          return { ok: false as const, why: 'The refresh token was already used (tokens rotate); the grant is revoked. Sign in again.' };
        }
        if (row.expires_at <= now) return { ok: false as const, why: `The refresh token expired at ${iso(row.expires_at)}. Sign in again.` };
        if (resource !== undefined && resource !== row.resource) return otherTarget(resource, row.resource);
        const live = this.liveGrant(row.grant_id);
        if (!live.ok) return live;
        this.db.prepare('UPDATE oauth_tokens SET used_at = ? WHERE hash = ?').run(now, sha256hex(refreshToken));
        return { ok: true as const, tokens: this.issue(row.grant_id) };
      })
      .immediate();
  }

  /** Revokes the grant a token (access or refresh) belongs to, if it is this client's (RFC 7009: an unknown token is no error). */
  revokeToken(clientId: string, token: string): void {
    const row = this.tokenByHash.get(sha256hex(token));
    if (row && row.client_id === clientId) this.revokeGrant(row.grant_id, 'revoked by its client');
  }

  /** The live grants of a key (what the keys page shows as connected assistants). */
  grantsOfKey(keyId: string): Grant[] {
    return this.db.prepare('SELECT * FROM oauth_grants WHERE key_id = ? AND revoked_at IS NULL ORDER BY created_at').all(keyId) as Grant[];
  }

  revokeGrant(grantId: string, why: string): void {
    this.checked.clear();
    this.db.prepare('UPDATE oauth_grants SET revoked_at = ?, revoked_why = ? WHERE id = ? AND revoked_at IS NULL').run(this.clock(), why, grantId);
  }

  /**
   * What a presented access token stands for: one indexed read joining its grant and key (or the
   * answer remembered since the keys database last changed), so a token of a revoked key or grant
   * is refused on the very next call, whichever shim or command revoked it.
   */
  checkAccess(token: string): TokenCheck {
    const version = this.dataVersion.get()!;
    if (version !== this.seenVersion) {
      this.checked.clear();
      this.seenVersion = version;
    }
    const known = this.checked.get(token);
    if (known && known.expiresAt > this.clock()) return known;
    const check = this.readAccess(token);
    if (check.ok) {
      if (this.checked.size >= MAX_CHECKED) this.checked.delete(this.checked.keys().next().value!);
      this.checked.set(token, check);
    }
    return check;
  }

  private readAccess(token: string): TokenCheck {
    const row = this.tokenByHash.get(sha256hex(token));
    if (!row || row.kind !== 'access') return { ok: false, why: 'The access token is not one this server issued. Sign in again.' };
    if (row.expires_at <= this.clock())
      return { ok: false, why: `The access token expired at ${iso(row.expires_at)}. Refresh it with the refresh token, or sign in again.` };
    if (row.revoked_at !== null)
      return {
        ok: false,
        why: `The key this token stands for (key ${row.id}) was revoked at ${row.revoked_at}. Sign in again and choose a live key.`,
      };
    if (row.grant_revoked_at !== null)
      return { ok: false, why: `The access token was revoked at ${iso(row.grant_revoked_at)} (${row.revoked_why}). Sign in again.` };
    const { kind: _k, expires_at: _e, used_at: _u, grant_id: _g, client_id: _c, resource: _r, grant_revoked_at: _gr, revoked_why: _w, ...key } = row;
    return { ok: true, key, clientId: row.client_id, resource: row.resource, expiresAt: row.expires_at };
  }

  // Pruning ------------------------------------------------------------------------------------

  /**
   * Deletes what OAUTH_RETENTION says is over (docs/keys-and-quotas.md "Limits and caps"): every
   * `pruneEveryMs` on every shim (deleting what another shim deleted first is no error), and each
   * kind also when one is written. Returns how many rows of each kind went.
   */
  prune(): { requests: number; registrations: number } {
    return { requests: this.pruneRequests(), registrations: this.pruneRegistrations() };
  }

  stop(): void {
    clearInterval(this.pruner);
  }

  /** Authorizations past their link's life and `requestKeptMs`, then the oldest past `maxRequests`. */
  private pruneRequests(): number {
    const expired = this.db.prepare('DELETE FROM oauth_requests WHERE expires_at < ?').run(this.clock() - OAUTH_RETENTION.requestKeptMs).changes;
    const over = this.db
      .prepare('DELETE FROM oauth_requests WHERE id IN (SELECT id FROM oauth_requests ORDER BY expires_at DESC LIMIT -1 OFFSET ?)')
      .run(OAUTH_RETENTION.maxRequests).changes;
    return expired + over;
  }

  /**
   * Registrations never used at /authorize within `unusedRegistrationMs`, and those unused for
   * `idleRegistrationMs` with no live grant (one not revoked, holding a refresh token that lives);
   * then the oldest never-used ones past `maxUnusedRegistrations`. A client removed and back is told
   * its client_id is unknown, and registers again (the SDK's client does so by itself).
   */
  private pruneRegistrations(): number {
    const now = this.clock();
    const stale = this.db
      .prepare(
        `DELETE FROM oauth_clients
          WHERE (used_at IS NULL AND created_at < ?)
             OR (used_at < ? AND NOT EXISTS (
                  SELECT 1 FROM oauth_grants g JOIN oauth_tokens t ON t.grant_id = g.id
                   WHERE g.client_id = oauth_clients.client_id AND g.revoked_at IS NULL
                     AND t.kind = 'refresh' AND t.used_at IS NULL AND t.expires_at > ?))`,
      )
      .run(now - OAUTH_RETENTION.unusedRegistrationMs, now - OAUTH_RETENTION.idleRegistrationMs, now).changes;
    const over = this.db
      .prepare(
        'DELETE FROM oauth_clients WHERE client_id IN (SELECT client_id FROM oauth_clients WHERE used_at IS NULL ORDER BY created_at DESC LIMIT -1 OFFSET ?)',
      )
      .run(OAUTH_RETENTION.maxUnusedRegistrations).changes;
    return stale + over;
  }

  /** Whether a grant may still be used: not revoked, and its key live. */
  private liveGrant(grantId: string): { ok: true } | { ok: false; why: string } {
    const g = this.db
      .prepare(
        'SELECT g.revoked_at, g.revoked_why, k.id AS key_id, k.revoked_at AS key_revoked_at FROM oauth_grants g JOIN api_keys k ON k.id = g.key_id WHERE g.id = ?',
      )
      .get(grantId) as { revoked_at: number | null; revoked_why: string | null; key_id: string; key_revoked_at: string | null } | undefined;
    if (!g) return { ok: false, why: 'The grant is gone. Sign in again.' };
    if (g.key_revoked_at !== null)
      return {
        ok: false,
        why: `The key this grant stands for (key ${g.key_id}) was revoked at ${g.key_revoked_at}. Sign in again and choose a live key.`,
      };
    if (g.revoked_at !== null) return { ok: false, why: `The grant was revoked at ${iso(g.revoked_at)} (${g.revoked_why}). Sign in again.` };
    return { ok: true };
  }

  /** A new access and refresh token of a grant; what expired long ago is cleared on the way. */
  private issue(grantId: string): IssuedTokens {
    const now = this.clock();
    const access = `${TOKEN_PREFIX.access}${secret()}`;
    const refresh = `${TOKEN_PREFIX.refresh}${secret()}`;
    const insert = this.db.prepare('INSERT INTO oauth_tokens (hash, kind, grant_id, expires_at) VALUES (?, ?, ?, ?)');
    insert.run(sha256hex(access), 'access', grantId, now + OAUTH_LIFETIMES.accessMs);
    insert.run(sha256hex(refresh), 'refresh', grantId, now + OAUTH_LIFETIMES.refreshMs);
    this.db.prepare('UPDATE oauth_clients SET used_at = ? WHERE client_id = (SELECT client_id FROM oauth_grants WHERE id = ?)').run(now, grantId);
    // Kept a day past expiry, so a late call is told "expired" rather than "unknown".
    this.db.prepare('DELETE FROM oauth_tokens WHERE expires_at < ?').run(now - 86_400_000);
    this.db.prepare('DELETE FROM oauth_codes WHERE expires_at < ?').run(now - 86_400_000);
    return { access_token: access, token_type: 'Bearer', expires_in: Math.round(OAUTH_LIFETIMES.accessMs / 1000), refresh_token: refresh };
  }
}

import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { KEY_TIERS, type KeyTier } from '../../src/contract/vocabulary.js';
import { MALFORMED_KEY } from '../../src/contract/errors.js';

/** One API key as stored: never the key itself, only its SHA-256. */
export interface KeyRecord {
  id: string;
  tier: KeyTier;
  owner: string;
  /** Commercial keys' own limits; null takes the tier's. */
  daily_limit: number | null;
  per_minute_limit: number | null;
  created_at: string;
  revoked_at: string | null;
  /** The holder's e-mail when the key came from the keys page (they manage it by e-mailed links); null for `npm run keys -- create`. */
  owner_email: string | null;
}

interface Row extends KeyRecord {
  hash: string;
}

export interface NewKey {
  tier: KeyTier;
  owner: string;
  daily?: number;
  perMinute?: number;
  /** The holder's e-mail (keys from the page). */
  email?: string;
}

export const DEFAULT_KEYS_DB = 'data/keys.sqlite';

/**
 * A key is `esg_<id>_<secret>`: the id (public, shown by `list`) finds the record, the SHA-256 of the
 * whole key is compared in constant time. The id has a fixed length so the key parses one way.
 */
const KEY_FORMAT = /^esg_([0-9a-f]{10})_([A-Za-z0-9_-]{43})$/;
/** One-shot hashing: every metered call verifies its key, and this is about half createHash's cost (bench/results.md). */
const sha256 = (key: string) => hash('sha256', key, 'buffer');
/**
 * Keys verified and remembered at once: more live keys in use than this only costs the ones
 * forgotten (the longest remembered) a lookup and their hashing again.
 */
const MAX_VERIFIED = 10_000;
/** Compared against when the id is unknown, so a miss costs what a hit costs. */
const NO_HASH = sha256('no such key');

const SCHEMA = `CREATE TABLE IF NOT EXISTS api_keys (
  id TEXT PRIMARY KEY,
  hash TEXT NOT NULL,
  tier TEXT NOT NULL,
  owner TEXT NOT NULL,
  daily_limit INTEGER,
  per_minute_limit INTEGER,
  created_at TEXT NOT NULL,
  revoked_at TEXT,
  owner_email TEXT
);
-- The change counter: every key revoked, altered or deleted, by whatever writes the file. A new
-- key needs no entry: a key not remembered is looked up in the file.
CREATE TABLE IF NOT EXISTS api_key_changes (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL);
CREATE TRIGGER IF NOT EXISTS api_key_updated AFTER UPDATE ON api_keys BEGIN INSERT INTO api_key_changes (id) VALUES (OLD.id); END;
CREATE TRIGGER IF NOT EXISTS api_key_deleted AFTER DELETE ON api_keys BEGIN INSERT INTO api_key_changes (id) VALUES (OLD.id); END;`;

/**
 * Creates the keys database readable by its owner only (0600) if it does not exist yet. SQLite would
 * create it with the umask's mode, usually world-readable, and owners and key hashes are nobody
 * else's to read; it gives its WAL and shared-memory files the database's own mode, so they follow.
 * An existing file keeps the mode its operator gave it.
 */
function createOwnerOnly(path: string): void {
  try {
    closeSync(openSync(path, 'wx', 0o600));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
}

/**
 * The key store (contract 6): a SQLite file apart from the snapshots. The `npm run keys` command
 * writes it; a running shim reads it, so a new or revoked key needs no restart.
 *
 * Nothing is loaded whole: a key is looked up by its id (the primary key) when it is first
 * presented, then remembered (at most MAX_VERIFIED). Every `maxStalenessMs`, on a timer rather
 * than inside a request, the store asks SQLite whether another connection committed
 * (data_version) and, if one did, reads the change counter past the last change it saw and
 * forgets just those keys. Memory stays the same at 1,000 or 1,000,000 keys, and a create or
 * revoke costs a running shim a few rows' read; reloading every key on each change stalled every
 * keyed call 0.7–2.3 s at 50,000–100,000 keys, and ran out of memory at 200,000.
 */
export class KeyStore {
  private readonly db: Database.Database;
  private readonly byId: Database.Statement<[string], Row>;
  private readonly changesSince: Database.Statement<[number], { seq: number; id: string }>;
  /**
   * Live keys already verified, by the string presented: a client sends its key with every call,
   * and hashing it each time was most of what metering a call cost (OpenSSL's digest setup, a few
   * µs in the server). Only a live key gets here, only the exact string finds it, and a change to
   * the key (revoked, altered, deleted) makes the store forget it.
   */
  private readonly verified = new Map<string, KeyRecord>();
  /** The string each remembered key was presented as, by id: what a change names. */
  private readonly verifiedById = new Map<string, string>();
  private version: number;
  private lastChange: number;
  private readonly revokeListeners: ((id: string) => void)[] = [];
  private readonly watcher: NodeJS.Timeout | undefined;

  private constructor(
    db: Database.Database,
    private readonly maxStalenessMs: number,
  ) {
    this.db = db;
    this.byId = db.prepare('SELECT * FROM api_keys WHERE id = ?');
    this.changesSince = db.prepare('SELECT seq, id FROM api_key_changes WHERE seq > ? ORDER BY seq');
    this.version = this.dataVersion();
    this.lastChange = (db.prepare('SELECT coalesce(max(seq), 0) AS n FROM api_key_changes').get() as { n: number }).n;
    if (maxStalenessMs > 0) {
      this.watcher = setInterval(() => this.refresh(), maxStalenessMs);
      this.watcher.unref();
    }
  }

  /** `maxStalenessMs` 0 checks for changes at every verification instead (tests: no wait). */
  static open(path: string, options: { maxStalenessMs?: number } = {}): KeyStore {
    mkdirSync(dirname(path), { recursive: true });
    createOwnerOnly(path);
    const db = new Database(path);
    db.pragma('journal_mode = WAL');
    db.pragma('busy_timeout = 2000');
    db.exec(SCHEMA);
    // A store made before keys came from the page lacks the holder's e-mail: add it, empty.
    const columns = db.prepare('PRAGMA table_info(api_keys)').all() as { name: string }[];
    if (!columns.some((c) => c.name === 'owner_email')) db.exec('ALTER TABLE api_keys ADD COLUMN owner_email TEXT');
    db.exec('CREATE INDEX IF NOT EXISTS api_keys_by_email ON api_keys (owner_email) WHERE owner_email IS NOT NULL');
    return new KeyStore(db, options.maxStalenessMs ?? 1000);
  }

  /** Creates a key; the returned `key` is the only time it exists outside its holder's hands. */
  create(k: NewKey): { record: KeyRecord; key: string } {
    if (!(KEY_TIERS as readonly string[]).includes(k.tier)) throw new Error(`tier must be one of ${KEY_TIERS.join(', ')}`);
    if (k.owner.trim() === '') throw new Error('owner must not be empty');
    if (k.tier !== 'commercial' && (k.daily !== undefined || k.perMinute !== undefined))
      throw new Error('only commercial keys take their own limits');
    for (const n of [k.daily, k.perMinute])
      if (n !== undefined && !(Number.isSafeInteger(n) && n >= 1)) throw new Error('limits are whole numbers from 1');
    const id = randomBytes(5).toString('hex');
    const key = `esg_${id}_${randomBytes(32).toString('base64url')}`;
    const record: KeyRecord = {
      id,
      tier: k.tier,
      owner: k.owner.trim(),
      daily_limit: k.daily ?? null,
      per_minute_limit: k.perMinute ?? null,
      created_at: new Date().toISOString(),
      revoked_at: null,
      owner_email: k.email ?? null,
    };
    this.db
      .prepare(
        'INSERT INTO api_keys (id, hash, tier, owner, daily_limit, per_minute_limit, created_at, revoked_at, owner_email) VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?)',
      )
      .run(
        id,
        sha256(key).toString('hex'),
        record.tier,
        record.owner,
        record.daily_limit,
        record.per_minute_limit,
        record.created_at,
        record.owner_email,
      );
    return { record, key };
  }

  list(): KeyRecord[] {
    return this.db
      .prepare('SELECT id, tier, owner, daily_limit, per_minute_limit, created_at, revoked_at, owner_email FROM api_keys ORDER BY created_at, id')
      .all() as KeyRecord[];
  }

  /** The live keys held by an e-mail address (keys from the page), oldest first. */
  liveKeysOf(email: string): KeyRecord[] {
    return this.db
      .prepare(
        'SELECT id, tier, owner, daily_limit, per_minute_limit, created_at, revoked_at, owner_email FROM api_keys WHERE owner_email = ? AND revoked_at IS NULL ORDER BY created_at, id',
      )
      .all(email) as KeyRecord[];
  }

  /** The same SQLite connection, for the keys page's requests and links (key-requests.ts), kept in the same file. */
  connection(): Database.Database {
    return this.db;
  }

  revoke(id: string): 'revoked' | 'already revoked' | 'unknown' {
    const row = this.db.prepare('SELECT revoked_at FROM api_keys WHERE id = ?').get(id) as { revoked_at: string | null } | undefined;
    if (!row) return 'unknown';
    if (row.revoked_at !== null) return 'already revoked';
    this.db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ?').run(new Date().toISOString(), id);
    // This connection's own commits do not move its data_version: forget the key now, and tell who remembers more of it.
    this.forget(id);
    for (const listener of this.revokeListeners) listener(id);
    return 'revoked';
  }

  /** Called when this connection revokes a key (another connection's revocation shows in its data_version instead): OAuth forgets the key's tokens. */
  onRevoke(listener: (id: string) => void): void {
    this.revokeListeners.push(listener);
  }

  /** The live key a client presented, or null (malformed, unknown, wrong secret or revoked). */
  verify(presented: string): KeyRecord | null {
    if (this.maxStalenessMs === 0) this.refresh();
    const known = this.verified.get(presented);
    if (known) return known;
    const m = KEY_FORMAT.exec(presented);
    const row = m ? this.byId.get(m[1]!) : undefined;
    // Compared whether the id is known or not, so a miss costs what a hit costs.
    const equal = timingSafeEqual(sha256(presented), row ? Buffer.from(row.hash, 'hex') : NO_HASH);
    if (!row || !equal || row.revoked_at !== null) return null;
    const { hash: _, ...record } = row;
    if (this.verified.size >= MAX_VERIFIED) this.forget(this.verified.values().next().value!.id);
    this.verified.set(presented, record);
    this.verifiedById.set(record.id, presented);
    return record;
  }

  /**
   * Why a presented key is not live, said to its holder, or null when it is. Only a caller who holds
   * the whole key (the secret matches) learns that it was revoked and when; anyone else learns
   * only that it is unknown. Called on the failure path only. `withId: false` leaves the key's id
   * out (the holder knows which key they sent).
   */
  whyNotLive(presented: string, o: { withId?: boolean } = {}): string | null {
    if (this.verify(presented)) return null;
    const m = KEY_FORMAT.exec(presented);
    if (!m) return MALFORMED_KEY;
    const row = this.byId.get(m[1]!);
    const key = o.withId === false ? 'The key sent' : `The key esg_${m[1]}_…`;
    if (!row || !timingSafeEqual(sha256(presented), Buffer.from(row.hash, 'hex'))) return `${key} is not known to this server.`;
    // To the second: the time is for a person, and a run of digits is what some clients misread (index.ts refuseDeadCredential).
    return `${key} was revoked at ${row.revoked_at!.replace(/\.\d+Z$/, 'Z')}. Get a new key at /keys/, or ask the operator.`;
  }

  close(): void {
    clearInterval(this.watcher);
    this.db.close();
  }

  /** If another connection (the keys command, another shim) committed: forget the keys changed since the last look. */
  private refresh(): void {
    const version = this.dataVersion();
    if (version === this.version) return;
    this.version = version;
    for (const { seq, id } of this.changesSince.all(this.lastChange)) {
      this.forget(id);
      this.lastChange = seq;
    }
  }

  private forget(id: string): void {
    const presented = this.verifiedById.get(id);
    if (presented === undefined) return;
    this.verifiedById.delete(id);
    this.verified.delete(presented);
  }

  private dataVersion(): number {
    return this.db.pragma('data_version', { simple: true }) as number;
  }
}

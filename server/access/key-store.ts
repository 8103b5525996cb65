import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { KEY_TIERS, type KeyTier } from '../../src/contract/vocabulary.js';

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
}

interface Row extends KeyRecord {
  hash: string;
}

/** In memory: the record, and its hash as bytes for the comparison. */
interface Entry {
  record: KeyRecord;
  hash: Buffer;
}

export interface NewKey {
  tier: KeyTier;
  owner: string;
  daily?: number;
  perMinute?: number;
}

export const DEFAULT_KEYS_DB = 'data/keys.sqlite';

/**
 * A key is `esg_<id>_<secret>`: the id (public, shown by `list`) finds the record, the SHA-256 of the
 * whole key is compared in constant time. The id has a fixed length so the key parses one way.
 */
const KEY_FORMAT = /^esg_([0-9a-f]{10})_([A-Za-z0-9_-]{43})$/;
/** One-shot hashing: every metered call verifies its key, and this is about half createHash's cost (0.6 against 1.1 µs, measured here). */
const sha256 = (key: string) => hash('sha256', key, 'buffer');
/** More live keys than this in use at once only costs their hashing again. */
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
  revoked_at TEXT
)`;

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
 * writes it; a running shim reads it and notices another process's writes (SQLite's data_version)
 * within `maxStalenessMs`, so a new or revoked key needs no restart.
 */
export class KeyStore {
  private readonly db: Database.Database;
  private byId = new Map<string, Entry>();
  /**
   * Keys already verified since the last reload, by the string presented: a client sends its key
   * with every call, and hashing it each time was most of what metering a call cost (OpenSSL's
   * digest setup, a few µs in the server). Only a live key gets here, only the exact string finds
   * it, and a reload (a key created or revoked anywhere) empties it, so revocation is seen as before.
   */
  private verified = new Map<string, KeyRecord>();
  private version = -1;
  private checkedAt = -Infinity;

  private constructor(
    db: Database.Database,
    private readonly maxStalenessMs: number,
  ) {
    this.db = db;
    this.reload();
  }

  static open(path: string, options: { maxStalenessMs?: number } = {}): KeyStore {
    mkdirSync(dirname(path), { recursive: true });
    createOwnerOnly(path);
    const db = new Database(path);
    db.pragma('journal_mode = WAL');
    db.pragma('busy_timeout = 2000');
    db.exec(SCHEMA);
    return new KeyStore(db, options.maxStalenessMs ?? 1000);
  }

  /** Creates a key; the returned `key` is the only time it exists outside its holder's hands. */
  create(k: NewKey): { record: KeyRecord; key: string } {
    if (!(KEY_TIERS as readonly string[]).includes(k.tier)) throw new Error(`tier must be one of ${KEY_TIERS.join(', ')}`);
    if (k.owner.trim() === '') throw new Error('owner must not be empty');
    if (k.tier !== 'commercial' && (k.daily !== undefined || k.perMinute !== undefined)) throw new Error('only commercial keys take their own limits');
    for (const n of [k.daily, k.perMinute]) if (n !== undefined && !(Number.isSafeInteger(n) && n >= 1)) throw new Error('limits are whole numbers from 1');
    const id = randomBytes(5).toString('hex');
    const key = `esg_${id}_${randomBytes(32).toString('base64url')}`;
    const record: KeyRecord = { id, tier: k.tier, owner: k.owner.trim(), daily_limit: k.daily ?? null, per_minute_limit: k.perMinute ?? null, created_at: new Date().toISOString(), revoked_at: null };
    this.db
      .prepare('INSERT INTO api_keys (id, hash, tier, owner, daily_limit, per_minute_limit, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?, NULL)')
      .run(id, sha256(key).toString('hex'), record.tier, record.owner, record.daily_limit, record.per_minute_limit, record.created_at);
    this.reload();
    return { record, key };
  }

  list(): KeyRecord[] {
    return this.db.prepare('SELECT id, tier, owner, daily_limit, per_minute_limit, created_at, revoked_at FROM api_keys ORDER BY created_at, id').all() as KeyRecord[];
  }

  revoke(id: string): 'revoked' | 'already revoked' | 'unknown' {
    const row = this.db.prepare('SELECT revoked_at FROM api_keys WHERE id = ?').get(id) as { revoked_at: string | null } | undefined;
    if (!row) return 'unknown';
    if (row.revoked_at !== null) return 'already revoked';
    this.db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ?').run(new Date().toISOString(), id);
    this.reload();
    return 'revoked';
  }

  /** The live key a client presented, or null (malformed, unknown, wrong secret or revoked). */
  verify(presented: string): KeyRecord | null {
    this.refresh();
    const known = this.verified.get(presented);
    if (known) return known;
    const m = KEY_FORMAT.exec(presented);
    const entry = m ? this.byId.get(m[1]!) : undefined;
    const equal = timingSafeEqual(sha256(presented), entry?.hash ?? NO_HASH);
    if (!entry || !equal || entry.record.revoked_at !== null) return null;
    if (this.verified.size >= MAX_VERIFIED) this.verified.clear();
    this.verified.set(presented, entry.record);
    return entry.record;
  }

  close(): void {
    this.db.close();
  }

  /** At most once per `maxStalenessMs`: reload if another connection (the keys command) committed. */
  private refresh(): void {
    const now = performance.now();
    if (now - this.checkedAt < this.maxStalenessMs) return;
    this.checkedAt = now;
    if (this.db.pragma('data_version', { simple: true }) !== this.version) this.reload();
  }

  private reload(): void {
    this.version = this.db.pragma('data_version', { simple: true }) as number;
    const rows = this.db.prepare('SELECT * FROM api_keys').all() as Row[];
    this.verified = new Map();
    this.byId = new Map(
      rows.map(({ hash, ...record }) => [record.id, { record, hash: Buffer.from(hash, 'hex') }]),
    );
  }
}

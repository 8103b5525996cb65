import { hash } from 'node:crypto';
import Database from 'better-sqlite3';
import { KeyStore } from '../../server/access/key-store.js';

/**
 * Adds `count` keys to the key store at `path` (made by KeyStore.open, so its schema and mode are
 * the real ones), in one transaction: `npm run keys -- create` a million times would take hours.
 * Their ids are `f` and a number (real ids are 10 random hex digits), their hashes those of keys
 * nobody holds: they fill the store, and no call presents them. Tests and the bench.
 */
export function addFillerKeys(path: string, count: number): void {
  KeyStore.open(path).close();
  const db = new Database(path);
  try {
    const insert = db.prepare(
      "INSERT INTO api_keys (id, hash, tier, owner, daily_limit, per_minute_limit, created_at, revoked_at) VALUES (?, ?, 'academic', 'filler', NULL, NULL, ?, NULL)",
    );
    const createdAt = new Date().toISOString();
    db.transaction(() => {
      for (let i = 0; i < count; i++) insert.run(`f${i.toString(16).padStart(9, '0')}`, hash('sha256', `filler ${i}`), createdAt);
    })();
  } finally {
    db.close();
  }
}

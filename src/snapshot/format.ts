import Database from 'better-sqlite3';
import { join } from 'node:path';
import { FORMAT_VERSION } from './schema.js';

/**
 * A snapshot of another layout than this code's (meta.format_version, schema.ts) is refused when it
 * is opened, with what to do: the readers select the current layout's columns, and a guess at an
 * older one's is how the compatibility readers this replaced came about.
 */
export class SnapshotFormatError extends Error {
  override name = 'SnapshotFormatError';
}

/** Format 0: the snapshots written before the format was recorded. */
export function formatOf(value: string | undefined): number {
  return value === undefined ? 0 : Number(value);
}

/** Throws SnapshotFormatError unless `value` (the snapshot's meta.format_version) is this code's. */
export function checkFormat(dir: string, value: string | undefined): void {
  const format = formatOf(value);
  if (format === FORMAT_VERSION) return;
  const what = value === undefined ? 'format 0 (written before format versions were recorded)' : `format ${value}`;
  const todo =
    Number.isInteger(format) && format < FORMAT_VERSION
      ? 'run `npm run migrate` to upgrade the published snapshots in place'
      : 'it was written by a newer build: serve it with the code that wrote it';
  throw new SnapshotFormatError(`The snapshot in ${dir} is of ${what}; this code reads format ${FORMAT_VERSION}: ${todo}.`);
}

/** A snapshot folder's meta rows, read whatever its format (every format has had this table). */
export function readMeta(dir: string): Record<string, string> {
  const db = new Database(join(dir, 'snapshot.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return Object.fromEntries(db.prepare('SELECT key, value FROM meta').raw().all() as [string, string][]);
  } finally {
    db.close();
  }
}

/**
 * A store file beside the snapshot (changes.sqlite, a history store file) records its layout's
 * version in SQLite's user_version; 0 is a file written before versions were recorded, whose layout
 * is version 1's. A file of a newer layout than this code's is refused when opened, as a snapshot is.
 */
export function checkStoreFormat(db: Database.Database, what: string, version: number): void {
  const found = Math.max(1, db.pragma('user_version', { simple: true }) as number);
  if (found !== version)
    throw new SnapshotFormatError(
      `${what} is of layout ${found}; this code reads layout ${version}: it was written by another build, serve it with that code.`,
    );
}

/** Marks a store file being written with its layout's version (checkStoreFormat). */
export function markStoreFormat(db: Database.Database, version: number): void {
  db.pragma(`user_version = ${version}`);
}

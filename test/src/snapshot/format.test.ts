import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, symlinkSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/contract/errors.js';
import { publishedSnapshotSource } from '../../../server/kit/snapshot-source.js';
import { SnapshotFormatError } from '../../../src/snapshot/format.js';
import { FORMAT_VERSION } from '../../../src/snapshot/schema.js';
import { SnapshotStore } from '../../../src/snapshot/store.js';
import { writeHandBuiltSnapshot } from '../../helpers/hand-built-snapshot.js';

/**
 * meta.format_version: the build writes it, and a snapshot of another format is refused on open
 * with both versions and what to do; the shim answers such a current snapshot as unreadable (502).
 */
let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'snapshot-format-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A hand-built snapshot whose format_version is `version` (undefined: none, as before it was recorded). */
function snapshotOfFormat(name: string, version: string | undefined): string {
  const dir = writeHandBuiltSnapshot(join(work, name));
  const db = new Database(join(dir, 'snapshot.sqlite'));
  if (version === undefined) db.exec("DELETE FROM meta WHERE key = 'format_version'");
  else db.prepare("UPDATE meta SET value = ? WHERE key = 'format_version'").run(version);
  db.close();
  return dir;
}

describe('meta.format_version', () => {
  it('is written by the build, and a snapshot of this format opens', () => {
    const dir = writeHandBuiltSnapshot(join(work, 'current'));
    const db = new Database(join(dir, 'snapshot.sqlite'), { readonly: true });
    expect(db.prepare("SELECT value FROM meta WHERE key = 'format_version'").pluck().get()).toBe(String(FORMAT_VERSION));
    db.close();
    SnapshotStore.open(dir).close();
  });

  it('refuses an older snapshot, naming both formats and `npm run migrate`', () => {
    const dir = snapshotOfFormat('old', undefined);
    expect(() => SnapshotStore.open(dir)).toThrow(SnapshotFormatError);
    expect(() => SnapshotStore.open(dir)).toThrow(
      `is of format 0 (written before format versions were recorded); this code reads format ${FORMAT_VERSION}: run \`npm run migrate\``,
    );
  });

  it('refuses a newer snapshot, naming both formats', () => {
    const dir = snapshotOfFormat('newer', String(FORMAT_VERSION + 1));
    expect(() => SnapshotStore.open(dir)).toThrow(
      `is of format ${FORMAT_VERSION + 1}; this code reads format ${FORMAT_VERSION}: it was written by a newer build`,
    );
  });

  it('the shim answers a current snapshot of another format 502 UPSTREAM_FAILURE, and logs why', () => {
    const root = join(work, 'served');
    mkdirSync(root);
    snapshotOfFormat(join('served', 'a'), undefined);
    symlinkSync('a', join(root, 'current'));
    const lines: string[] = [];
    const logger = { warn: (m: string) => lines.push(m), info: () => {}, error: () => {} };
    const source = publishedSnapshotSource(root, { logger: logger as never });
    try {
      expect(() => source.current()).toThrow(ApiError);
      try {
        source.current();
      } catch (e) {
        expect((e as ApiError).code).toBe('UPSTREAM_FAILURE');
      }
      expect(lines.some((l) => l.includes('npm run migrate'))).toBe(true);
    } finally {
      source.close();
    }
  });
});

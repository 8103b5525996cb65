import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { CHANGES_DB, type IndexedChange } from '../../src/snapshot/changes-store.js';
import { formatOf, readMeta } from '../../src/snapshot/format.js';
import { currentSnapshotId, publishedSnapshotIds } from '../../src/snapshot/published.js';
import { FORMAT_VERSION } from '../../src/snapshot/schema.js';
import { writeChangesStore } from '../history/write-changes-store.js';
import { acquireBuildLock } from '../snapshot/publish.js';
import { fsyncPath } from '../snapshot/fsync.js';
import { importLegacyHistory } from './legacy-history.js';
import { upgradeFormat } from './upgrade-db.js';

/** How builds before changes.sqlite stored a snapshot's changes: one JSON file beside its database. */
const LEGACY_CHANGES = 'changes.json';

export interface MigrateResult {
  /** Snapshots brought to the current format, oldest first. */
  upgraded: string[];
  /** Already of the current format. */
  current: string[];
}

/**
 * `npm run migrate`: brings every published snapshot folder under `root` to the current format
 * (src/snapshot/schema.ts FORMAT_VERSION), in place, so the shim and the next build read it; a
 * snapshot of a newer format stops it. Under the build lock, so no build runs meanwhile. For each
 * snapshot of an older format, oldest first: of format 0, its changes.json becomes changes.sqlite and
 * the current one's whole histories are carried into the history store (the last build before the
 * store left them there); then its database is rewritten (upgrade-db.ts), last, as the mark that the
 * snapshot is done, so a migration stopped midway is finished by running it again.
 */
export async function migrateSnapshots(root: string): Promise<MigrateResult> {
  const release = acquireBuildLock(root);
  try {
    const result: MigrateResult = { upgraded: [], current: [] };
    const currentId = currentSnapshotId(root);
    for (const id of publishedSnapshotIds(root)) {
      const dir = join(root, id);
      const dbPath = join(dir, 'snapshot.sqlite');
      if (!existsSync(dbPath)) continue;
      const format = formatOf(readMeta(dir).format_version);
      if (format === FORMAT_VERSION) {
        result.current.push(id);
        continue;
      }
      if (!Number.isInteger(format) || format < 0 || format > FORMAT_VERSION)
        throw new Error(`snapshot ${id} is of format ${format}: this code migrates formats 0 to ${FORMAT_VERSION - 1} to ${FORMAT_VERSION}`);
      if (format === 0) {
        migrateChanges(dir);
        if (id === currentId) await importLegacyHistory(root, dir);
      }
      upgradeFormat(dbPath, format);
      result.upgraded.push(id);
    }
    return result;
  } finally {
    release();
  }
}

/** A changes.json becomes the changes database the shim's filtered /changes read, with the same items in the same order. */
function migrateChanges(dir: string): void {
  const file = join(dir, LEGACY_CHANGES);
  if (!existsSync(file)) return;
  if (!existsSync(join(dir, CHANGES_DB))) {
    const legacy = JSON.parse(readFileSync(file, 'utf8')) as { from_snapshot_id: string | null; changes: IndexedChange[] };
    writeChangesStore(dir, legacy.from_snapshot_id, legacy.changes);
    fsyncPath(join(dir, CHANGES_DB));
  }
  rmSync(file);
  fsyncPath(dir);
}

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { formatOf, readMeta } from '../../src/snapshot/format.js';
import { currentSnapshotId, publishedSnapshotIds } from '../../src/snapshot/published.js';
import { acquireBuildLock } from '../snapshot/publish.js';
import { checkSteps, stepsFrom } from './steps.js';
import { upgradeFormat } from './upgrade-db.js';

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
 * snapshot of an older format, oldest first, the steps from its format (steps.ts) in order: each
 * step's work on the folder, then its database rewritten with every step's additions (upgrade-db.ts),
 * last, as the mark that the snapshot is done, so a migration stopped midway is finished by running
 * it again.
 */
export async function migrateSnapshots(root: string): Promise<MigrateResult> {
  checkSteps();
  const release = acquireBuildLock(root);
  try {
    const result: MigrateResult = { upgraded: [], current: [] };
    const currentId = currentSnapshotId(root);
    for (const id of publishedSnapshotIds(root)) {
      const dir = join(root, id);
      const dbPath = join(dir, 'snapshot.sqlite');
      if (!existsSync(dbPath)) continue;
      const steps = stepsFrom(formatOf(readMeta(dir).format_version), `snapshot ${id}`);
      if (steps.length === 0) {
        result.current.push(id);
        continue;
      }
      for (const step of steps) await step.folder?.({ root, dir, current: id === currentId });
      upgradeFormat(dbPath, steps);
      result.upgraded.push(id);
    }
    return result;
  } finally {
    release();
  }
}

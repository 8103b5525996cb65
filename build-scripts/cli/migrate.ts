import { snapshotsDirFromEnv } from '../../src/snapshot/published.js';
import { migrateSnapshots } from '../migrate/migrate.js';

/** npm run migrate: upgrades the published snapshots in SNAPSHOTS_DIR to this code's format, in place. */
const root = snapshotsDirFromEnv();
try {
  const { upgraded, current } = await migrateSnapshots(root);
  console.log(
    `${root}: ${upgraded.length} snapshot(s) upgraded${upgraded.length ? ` (${upgraded.join(', ')})` : ''}, ${current.length} already current`,
  );
} catch (e) {
  console.error(`migrate failed: ${(e as Error).message}`);
  process.exit(1);
}

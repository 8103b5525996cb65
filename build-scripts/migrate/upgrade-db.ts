import Database from 'better-sqlite3';
import { renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { FORMAT_VERSION, META, SNAPSHOT_DDL, SNAPSHOT_TABLES } from '../../src/snapshot/schema.js';
import { fsyncPath } from '../snapshot/fsync.js';
import type { Fills, MigrationStep } from './steps.js';

/** What each column a snapshot lacks reads as, and the tables it may lack: every step's additions. */
function additionsOf(steps: readonly MigrationStep[]): { fills: Fills; optional: Set<string> } {
  const fills: Fills = {};
  for (const step of steps) for (const [table, columns] of Object.entries(step.columnsAdded)) fills[table] = { ...fills[table], ...columns };
  return { fills, optional: new Set(steps.flatMap((s) => s.tablesAdded)) };
}

/**
 * Rewrites a snapshot database of an older format as the current format, given the steps from its
 * format (steps.ts): a new file with the current DDL, every row copied across (the columns and
 * tables it lacks as the steps read them), meta with format_version, then renamed
 * over the old one. A new file rather than ALTER TABLE in place, because the snapshot's download
 * folder holds a hard link to the same file (link-or-copy.ts), whose bytes its SHA256SUMS and
 * /snapshots listing vouch for: the rename leaves the download as it was published.
 */
export function upgradeFormat(path: string, steps: readonly MigrationStep[]): void {
  const { fills, optional } = additionsOf(steps);
  const from = steps[0]?.from;
  const next = `${path}.migrating`;
  rmSync(next, { force: true });
  const db = new Database(next);
  try {
    db.exec(SNAPSHOT_DDL);
    db.prepare('ATTACH DATABASE ? AS old').run(path);
    const oldColumns = (table: string) => new Set(db.prepare("SELECT name FROM pragma_table_info(?, 'old')").pluck().all(table) as string[]);
    db.transaction(() => {
      for (const table of SNAPSHOT_TABLES) {
        const have = oldColumns(table.name);
        if (have.size === 0) {
          if (optional.has(table.name)) continue;
          throw new Error(`${path}: no table ${table.name}`);
        }
        const values = table.names.map((n: string) => {
          if (have.has(n)) return `${table.name}.${n}`;
          const fill = fills[table.name]?.[n];
          if (fill === undefined) throw new Error(`${path}: ${table.name} has no column ${n}, and format ${from} never lacked it`);
          return fill;
        });
        db.exec(`INSERT INTO main.${table.name} (${table.names.join(', ')}) SELECT ${values.join(', ')} FROM old.${table.name} AS ${table.name}`);
      }
      db.prepare(`INSERT OR REPLACE INTO main.${META.name} (key, value) VALUES ('format_version', ?)`).run(String(FORMAT_VERSION));
    })();
    db.exec('DETACH DATABASE old');
    db.exec('ANALYZE');
    db.exec('VACUUM');
  } catch (e) {
    db.close();
    rmSync(next, { force: true });
    throw e;
  }
  db.close();
  fsyncPath(next);
  renameSync(next, path);
  fsyncPath(dirname(path));
}

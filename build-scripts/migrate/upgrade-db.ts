import Database from 'better-sqlite3';
import { renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { FORMAT_VERSION, META, SNAPSHOT_DDL, SNAPSHOT_TABLES } from '../../src/snapshot/schema.js';
import { fsyncPath } from '../snapshot/fsync.js';

type Fills = Record<string, Record<string, string>>;

/**
 * What a column added in format 1 reads as in a snapshot written before it, as an expression
 * over the old table's row (aliased by the table's name). These are the answers those snapshots
 * always gave: a build read them so to explain changes.
 */
const FORMAT_1_FILLS: Fills = {
  // Kinds were not stored: every assured report then was a CPA's, with no standard or other verifiers.
  assurances: { kind: "'cpa'", standard: 'NULL', verifications: "'[]'" },
  // Every fund came from the MOPS form, which lists every holding: the period is the quarter
  // holdings_asof ends, the cut-off 0, and the listed weight the sum of the stored weights.
  etfs: {
    holdings_period: "substr(etfs.holdings_asof, 1, 4) || 'Q' || ((CAST(substr(etfs.holdings_asof, 6, 2) AS INTEGER) + 2) / 3)",
    holdings_min_weight: '0',
    listed_weight: '(SELECT IFNULL(ROUND(SUM(h.weight), 4), 0) FROM old.etf_holdings h WHERE h.etf_code = etfs.etf_code)',
  },
  // The basis's figure was not stored (its English basis still states it).
  carbon_fees: { basis_tco2e: 'NULL' },
  // No source was carried forward before that was recorded.
  sources: { carried_forward: 'NULL' },
};

/**
 * Columns added in format 2 (genuine disclosures, contract 3.2 and 3.3). Those snapshots read every
 * missing figure's 取得驗證 as no and kept no 資料邊界 text (their `boundary` stays as classified then);
 * they recorded no publisher's date.
 */
const FORMAT_2_FILLS: Fills = {
  carbon_disclosures: { scope3_verified: '0', boundary_text: 'NULL' },
  sources: { publisher_date: 'NULL' },
};

/** The columns each format added, by the format that added them. */
const ADDED_IN: Record<number, Fills> = { 1: FORMAT_1_FILLS, 2: FORMAT_2_FILLS };

/** What each column a snapshot of format `from` lacks reads as: every later format's additions. */
function fillsSince(from: number): Fills {
  const fills: Fills = {};
  for (const [format, added] of Object.entries(ADDED_IN)) {
    if (Number(format) <= from) continue;
    for (const [table, columns] of Object.entries(added)) fills[table] = { ...fills[table], ...columns };
  }
  return fills;
}

/** Tables a format-0 snapshot may lack, read as empty: snapshots published before source files were recorded. */
const FORMAT_0_OPTIONAL = new Set(['source_files']);

/**
 * Rewrites a snapshot database of an older format (`from`) as the current format: a new file with the current DDL,
 * every row copied across (columns it lacks filled as above), meta with format_version, then renamed
 * over the old one. A new file rather than ALTER TABLE in place, because the snapshot's download
 * folder holds a hard link to the same file (link-or-copy.ts), whose bytes its SHA256SUMS and
 * /snapshots listing vouch for: the rename leaves the download as it was published.
 */
export function upgradeFormat(path: string, from: number): void {
  const fills = fillsSince(from);
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
          if (from === 0 && FORMAT_0_OPTIONAL.has(table.name)) continue;
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

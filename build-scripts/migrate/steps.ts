import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { CHANGES_DB, type IndexedChange } from '../../src/snapshot/changes-store.js';
import { FORMAT_VERSION } from '../../src/snapshot/schema.js';
import { writeChangesStore } from '../history/write-changes-store.js';
import { fsyncPath } from '../snapshot/fsync.js';
import { importLegacyHistory } from './legacy-history.js';

/** Column → what it reads as in a snapshot without it: an SQL expression over the old table's row (aliased by the table's name). */
export type Fills = Record<string, Record<string, string>>;

/** A published snapshot being migrated. */
export interface MigratingSnapshot {
  /** The snapshots folder (the history store is in it). */
  root: string;
  dir: string;
  /** Whether it is the current snapshot. */
  current: boolean;
}

/**
 * One format's migration: what a snapshot of format `from` lacks of format `to`. The database is
 * rewritten once, after every step's folder work, with every step's additions (upgrade-db.ts): a new
 * file with the current layout is the one way to keep the published download's bytes (its hard link
 * keeps the old file), and its being written last marks the snapshot done, so a migration stopped
 * midway is finished by running it again.
 */
export interface MigrationStep {
  readonly name: string;
  readonly from: number;
  readonly to: number;
  /** The columns `to` added, by table, with what each reads as in a snapshot of `from`. */
  readonly columnsAdded: Fills;
  /** Tables a snapshot of `from` may lack: read as empty. */
  readonly tablesAdded: readonly string[];
  /** Work on the snapshot's folder besides its database, before the database is rewritten. */
  readonly folder?: (s: MigratingSnapshot) => Promise<void>;
}

/** How builds before changes.sqlite stored a snapshot's changes: one JSON file beside its database. */
const LEGACY_CHANGES = 'changes.json';

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

/** Every step, in order: each `from` is the previous step's `to`, and the last `to` is this code's format. */
export const MIGRATION_STEPS: readonly MigrationStep[] = [
  {
    name: 'format 0 → 1: format versions recorded; assurance kinds, fund coverage, the carbon-fee figure, carried-forward sources; changes.sqlite and the history store',
    from: 0,
    to: 1,
    columnsAdded: {
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
    },
    // Snapshots published before source files were recorded.
    tablesAdded: ['source_files'],
    // Its changes.json becomes changes.sqlite; the current one's whole histories are carried into
    // the history store (the last build before the store left them there).
    folder: async ({ root, dir, current }) => {
      migrateChanges(dir);
      if (current) await importLegacyHistory(root, dir);
    },
  },
  {
    // Genuine disclosures (contract 3.2 and 3.3) and methodology 1.2. Those snapshots read every
    // missing figure's 取得驗證 as no and kept no 資料邊界 text (their `boundary` stays as classified
    // then); they recorded no publisher's date, and no disclosure conduct.
    name: 'format 1 → 2: disclosure conduct, scope-3 verification, the boundary text, the publisher’s date',
    from: 1,
    to: 2,
    columnsAdded: {
      carbon_disclosures: { scope3_verified: '0', boundary_text: 'NULL' },
      sources: { publisher_date: 'NULL' },
    },
    tablesAdded: ['disclosure_conduct'],
  },
];

/** A snapshot's format is not one this code can migrate from. */
export class UnknownFormatError extends Error {
  override name = 'UnknownFormatError';
}

/** The steps that bring a snapshot of `format` to this code's, in order; none when it is current. */
export function stepsFrom(format: number, what: string, steps: readonly MigrationStep[] = MIGRATION_STEPS): MigrationStep[] {
  const last = steps.at(-1)?.to ?? 0;
  if (Number.isInteger(format) && format > last)
    throw new UnknownFormatError(`${what} is of format ${format}, newer than this code's ${last}: serve it with the code that wrote it`);
  const start = steps.findIndex((s) => s.from === format);
  if (format === last) return [];
  if (start < 0) throw new UnknownFormatError(`${what} is of format ${format}: this code migrates formats ${steps[0]?.from ?? 0} to ${last}`);
  return steps.slice(start);
}

/** The list's own check: ordered and contiguous, ending at this code's format (the test holds it; migrate checks before it starts). */
export function checkSteps(steps: readonly MigrationStep[] = MIGRATION_STEPS, current = FORMAT_VERSION): void {
  steps.forEach((s, i) => {
    if (s.to !== s.from + 1) throw new Error(`migration step "${s.name}": from ${s.from} to ${s.to}, not to the next format`);
    if (i > 0 && s.from !== steps[i - 1]!.to) throw new Error(`migration step "${s.name}" starts at ${s.from}, not at ${steps[i - 1]!.to}`);
  });
  if ((steps.at(-1)?.to ?? 0) !== current) throw new Error(`the migration steps end at format ${steps.at(-1)?.to}, not at this code's ${current}`);
}

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChangeItem } from '../contract/changes.js';

/** A change with what filters read but the body does not show. */
export interface IndexedChange {
  industry: string;
  item: ChangeItem;
}

/**
 * Every change of a snapshot since the previous one, in the contract's order, with what filters
 * read (the industry): written beside the database at build time, read once by the shim.
 */
export const CHANGES_FILE = 'changes.json';

export interface ChangesFile {
  from_snapshot_id: string | null;
  changes: IndexedChange[];
}

export function readChangesFile(snapshotDir: string): ChangesFile {
  return JSON.parse(readFileSync(join(snapshotDir, CHANGES_FILE), 'utf8')) as ChangesFile;
}

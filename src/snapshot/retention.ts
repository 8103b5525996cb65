import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SNAPSHOT_ID_PATTERN } from '../contract/vocabulary.js';

/**
 * Retention (contract 10): the last SNAPSHOTS_KEEP published snapshots are kept; older ones are
 * pruned when a new one is published. Pruned ids are recorded in one file beside the snapshot
 * folders, so they answer 410 GONE (not 404) for as long as the folder of snapshots lives.
 */
export const PRUNED_FILE = 'pruned.json';
export const DEFAULT_SNAPSHOTS_KEEP = 24;

/** SNAPSHOTS_KEEP from the environment: an integer ≥ 1 (default 24); anything else is refused. */
export function snapshotsKeepFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.SNAPSHOTS_KEEP;
  if (raw === undefined || raw === '') return DEFAULT_SNAPSHOTS_KEEP;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new Error(`SNAPSHOTS_KEEP must be a whole number ≥ 1, got "${raw}"`);
  return Number(raw);
}

/** Ids of every snapshot pruned from `root`, oldest first (empty when none was). */
export function prunedSnapshotIds(root: string): string[] {
  let text: string;
  try {
    text = readFileSync(join(root, PRUNED_FILE), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  const ids = JSON.parse(text) as unknown;
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string' && SNAPSHOT_ID_PATTERN.test(id)) : [];
}

export function isPruned(root: string, id: string): boolean {
  return prunedSnapshotIds(root).includes(id);
}

import type { HistoryEntry } from '../contract/history.js';

/**
 * How many of a company's history entries its page shows: the newest, as many as the snapshots a
 * deployment keeps by default (SNAPSHOTS_KEEP). Every snapshot's pages are kept with it, so a page
 * showing the whole history would make the kept pages grow with the square of their number; the
 * whole history stays one link away, in /company/{ticker}/history.
 */
export const PAGE_HISTORY_ENTRIES = 24;

/** The entries a page shows (newest first, as the body lists them, so indices into the body hold) and how many there are in all. */
export function pageHistory(entries: readonly HistoryEntry[]): { shown: HistoryEntry[]; total: number } {
  return { shown: entries.slice(0, PAGE_HISTORY_ENTRIES), total: entries.length };
}

import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../../src/contract/history.js';
import { PAGE_HISTORY_ENTRIES, pageHistory } from '../../../src/site/page-history.js';

/** A company page shows the newest entries of its history, at most as many as a deployment keeps snapshots. */
const entry = (i: number) => ({ dataset_snapshot_id: `2026-01-${String(i + 1).padStart(2, '0')}` }) as HistoryEntry;

describe('the history a company page shows', () => {
  it('all of a short history', () => {
    const entries = [2, 1, 0].map(entry);
    expect(pageHistory(entries)).toEqual({ shown: entries, total: 3 });
  });

  it('the newest entries of a long one, in the body’s order (so `history.data.N` still names each), and how many there are', () => {
    const entries = Array.from({ length: 30 }, (_, i) => entry(29 - i)); // newest first, as the body lists them
    const { shown, total } = pageHistory(entries);
    expect(PAGE_HISTORY_ENTRIES).toBe(24);
    expect(total).toBe(30);
    expect(shown).toEqual(entries.slice(0, 24));
    expect(shown[0]!.dataset_snapshot_id).toBe('2026-01-30');
  });
});

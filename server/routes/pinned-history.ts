import { urls } from '../../src/contract/urls.js';
import { pinnedHistory } from '../../src/snapshot/history-store.js';
import { Lru } from '../../src/lru.js';
import { historyBody } from '../../src/views/history.js';
import { etagOf, type CachedFile } from '../kit/http.js';

/** A company history's URL (the table's), its ticker captured. */
const HISTORY_URL = new RegExp(`^${urls.history('\u0000').replace(/[/.]/g, '\\$&').replace('\u0000', '([0-9A-Z]+)')}$`);

/** Rebuilt bodies with their ETags, bounded in bytes (a published snapshot's history never changes). */
const cache = new Lru<CachedFile>(4 * 1024 * 1024, (f) => f.bytes.length);

/**
 * `/company/{t}/history` of a kept snapshot that is no longer current: its tree no longer holds the
 * file (history/store-steps.ts dropped it), so the body is rebuilt from the history store with the
 * view the tree writer used, from the same entry bytes: what the file was, byte for byte, so the
 * same ETag. Null for any other URL, or when the store cannot rebuild it (the company was not in
 * that snapshot: the pinned read's 404).
 */
export function storedHistoryFile(root: string, id: string, url: string): CachedFile | null {
  const ticker = HISTORY_URL.exec(url)?.[1];
  if (ticker === undefined) return null;
  const key = `${root}\n${id}\n${ticker}`;
  let file = cache.get(key);
  if (!file) {
    const found = pinnedHistory(root, id, ticker);
    if (!found) return null;
    const bytes = historyBody(found.head, ticker, found.entries);
    file = { bytes, etag: etagOf(bytes) };
    cache.set(key, file);
  }
  return file;
}

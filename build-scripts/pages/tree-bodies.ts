import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChangesResponse } from '../../src/contract/changes.js';
import type { HistoryResponse } from '../../src/contract/history.js';
import { fileForUrlPath } from '../../src/contract/api-paths.js';
import { urls } from '../../src/contract/urls.js';
import type { CompanyChange } from '../../src/views/changes.js';

/**
 * JSON bodies the build wrote into a snapshot's tree before the pages (contract 10: each company's
 * history and the changes since the previous snapshot), read back for the company pages. History is
 * carried forward from older snapshots the database does not hold, and the changes were explained
 * against the previous snapshot, so the pages show these very bodies: the page and the JSON cannot
 * disagree. The tree writer validated them against their schemas before writing.
 */

/** A snapshot's own tree of JSON files (`<snapshot>/tree`, as the shim serves it). */
export function treeOf(snapshotDir: string): string {
  return join(snapshotDir, 'tree');
}

function readBody<T>(treeDir: string, url: string): T {
  return JSON.parse(readFileSync(join(treeDir, fileForUrlPath(url)), 'utf8')) as T;
}

/** The body of /api/v1/company/{ticker}/history. */
export function readHistory(treeDir: string, ticker: string): HistoryResponse {
  const body = readBody<HistoryResponse>(treeDir, urls.history(ticker));
  if (body.ticker !== ticker) throw new Error(`${urls.history(ticker)} holds the history of ${body.ticker}`);
  return body;
}

/** This snapshot's changes by ticker, and the snapshot they are measured from (null for the first). */
export interface ChangesByTicker {
  fromSnapshotId: string | null;
  byTicker: Map<string, CompanyChange>;
}

/**
 * Every static page of /changes (page 1 always exists), read once per page-writer thread: the items
 * are sorted by the size of the move, not by ticker, so a chunk of companies has its items on every page.
 */
export function readChanges(treeDir: string): ChangesByTicker {
  const byTicker = new Map<string, CompanyChange>();
  let fromSnapshotId: string | null = null;
  for (let page = 1, pages = 1; page <= pages; page++) {
    const body = readBody<ChangesResponse>(treeDir, urls.changesPage(page));
    fromSnapshotId = body.from_snapshot_id;
    pages = body.meta.page_count;
    for (const item of body.data) byTicker.set(item.ticker, { item, page });
  }
  return { fromSnapshotId, byTicker };
}

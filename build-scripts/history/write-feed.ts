import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ChangeItem } from '../../src/contract/changes.js';
import { LIMITS } from '../../src/contract/vocabulary.js';
import { fileForUrlPath } from '../../src/contract/api-paths.js';
import { urls } from '../../src/contract/urls.js';
import { newestFirst } from '../../src/snapshot/newest-first.js';
import { compareSnapshotIds } from '../../src/snapshot/published.js';
import type { SnapshotMeta } from '../../src/snapshot/schema.js';
import { feedEntry, feedView, type FeedEntry } from '../../src/views/feed.js';

/** The feed's entries (newest first, at most 12) beside the database: what the next build carries forward. */
export const FEED_FILE = 'feed.json';

/**
 * Writes /feed.atom and this snapshot's feed.json: its own entry and the previous snapshot's, the
 * last 12 published, listed newest first as everywhere (data date, then publish time: a corrected
 * older month sits below the later months).
 */
export function writeFeed(o: {
  meta: SnapshotMeta;
  fromSnapshotId: string | null;
  changes: readonly ChangeItem[];
  snapshotDir: string;
  treeDir: string;
  previousDir: string | null;
}): { bytes: number } {
  const previousFile = o.previousDir ? join(o.previousDir, FEED_FILE) : null;
  const earlier = previousFile && existsSync(previousFile) ? (JSON.parse(readFileSync(previousFile, 'utf8')) as FeedEntry[]) : [];
  const all = [feedEntry(o.meta, o.fromSnapshotId, o.changes), ...earlier.filter((e) => e.dataset_snapshot_id !== o.meta.dataset_snapshot_id)];
  // Which 12: the last published (the feed follows publications); then the one order of snapshots.
  const entries = all.sort(lastPublishedFirst).slice(0, LIMITS.feedEntries).sort(newestFirst);
  writeFileSync(join(o.snapshotDir, FEED_FILE), JSON.stringify(entries));
  const xml = feedView(o.meta, entries);
  const file = join(o.treeDir, fileForUrlPath(urls.feed));
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, xml);
  return { bytes: Buffer.byteLength(xml) };
}

const lastPublishedFirst = (a: FeedEntry, b: FeedEntry) =>
  a.published_at !== b.published_at ? (a.published_at < b.published_at ? 1 : -1) : compareSnapshotIds(b.dataset_snapshot_id, a.dataset_snapshot_id);

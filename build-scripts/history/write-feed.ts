import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ChangeItem } from '../../src/contract/changes.js';
import { LIMITS } from '../../src/contract/vocabulary.js';
import { fileForUrlPath, urls } from '../../src/site/static-paths.js';
import type { SnapshotMeta } from '../../src/snapshot/schema.js';
import { feedEntry, feedView, type FeedEntry } from '../../src/views/feed.js';

/** The feed's entries (newest first, at most 12) beside the database: what the next build carries forward. */
export const FEED_FILE = 'feed.json';

/** Writes /feed.atom and this snapshot's feed.json: its own entry, then the previous snapshot's, up to 12. */
export function writeFeed(o: { meta: SnapshotMeta; fromSnapshotId: string | null; changes: readonly ChangeItem[]; snapshotDir: string; treeDir: string; previousDir: string | null }): { bytes: number } {
  const previousFile = o.previousDir ? join(o.previousDir, FEED_FILE) : null;
  const earlier = previousFile && existsSync(previousFile) ? (JSON.parse(readFileSync(previousFile, 'utf8')) as FeedEntry[]) : [];
  const entries = [feedEntry(o.meta, o.fromSnapshotId, o.changes), ...earlier.filter((e) => e.dataset_snapshot_id !== o.meta.dataset_snapshot_id)].slice(0, LIMITS.feedEntries);
  writeFileSync(join(o.snapshotDir, FEED_FILE), JSON.stringify(entries));
  const xml = feedView(o.meta, entries);
  const file = join(o.treeDir, fileForUrlPath(urls.feed));
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, xml);
  return { bytes: Buffer.byteLength(xml) };
}

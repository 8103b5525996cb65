import type { Request, Response } from 'express';
import { Lru } from '../../src/lru.js';
import { RankingIndex } from '../../src/snapshot/ranking-index.js';
import type { SnapshotStore } from '../../src/snapshot/store.js';
import { sourceNamesOf } from '../../src/views/source-names.js';
import type { Access } from '../access/index.js';
import type { DownloadSlots } from '../kit/download-slots.js';
import type { SnapshotSource } from '../kit/snapshot-source.js';

/**
 * A value built from a snapshot the first time a route needs it and dropped with the snapshot. Each
 * helper is its own cache, so a route pulls in only what it uses: a `canonical?fields=` request never
 * builds the ranking index.
 */
function perSnapshot<T>(build: (store: SnapshotStore) => T): (store: SnapshotStore) => T {
  const built = new WeakMap<SnapshotStore, T>();
  return (store) => {
    let value = built.get(store);
    if (value === undefined) {
      value = build(store);
      built.set(store, value);
    }
    return value;
  };
}

/** Source id → registry name, for the `source_name` beside every `source_id`. */
export const sourceNames = perSnapshot((store) => sourceNamesOf(store.sources()));
/** The in-memory index behind filtered rankings. */
export const rankingIndex = perSnapshot((store) => RankingIndex.fromStore(store));
/** POST /batch items of found companies, as UTF-8 bytes, bounded at 4 MB. */
export const batchItems = perSnapshot(() => new Lru<Buffer>(4 * 1024 * 1024, (bytes) => bytes.length));

/** What a route handler gets: the request, the snapshot it must answer from, and the raw query. */
export interface RouteContext {
  req: Request;
  res: Response;
  store: SnapshotStore;
  source: SnapshotSource;
  /** The query string without `?` ('' when absent). */
  rawQuery: string;
  /** A rest parameter's segments (a pinned read's static path), else empty. */
  rest: readonly string[];
  /** The static file a GET of a path below /api/v1 answers, as the router resolves it (a pinned read's rest path). */
  staticFile: (segments: readonly string[]) => { url: string; media?: string } | null;
  /** Keys and quotas; absent when the app was built without them. */
  access?: Access;
  /** How many downloads may be sent at once, per client and in all. */
  downloads: DownloadSlots;
}

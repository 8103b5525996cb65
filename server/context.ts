import type { Request, Response } from 'express';
import { Lru } from '../src/lru.js';
import { RankingIndex } from '../src/snapshot/ranking-index.js';
import type { SnapshotStore } from '../src/snapshot/store.js';
import { sourceNamesOf } from '../src/views/source-names.js';
import type { SourceNames } from '../src/views/canonical.js';
import type { Access } from './access/index.js';
import type { SnapshotSource } from './snapshot-source.js';

/** Per-snapshot helpers built once when a snapshot is first used, dropped with it. */
export interface SnapshotHelpers {
  sourceNames: SourceNames;
  ranking: RankingIndex;
  /** POST /batch items of found companies, as UTF-8 bytes, bounded at 4 MB. */
  batchItems: Lru<Buffer>;
}

const helpers = new WeakMap<SnapshotStore, SnapshotHelpers>();

export function helpersOf(store: SnapshotStore): SnapshotHelpers {
  let h = helpers.get(store);
  if (!h) {
    h = { sourceNames: sourceNamesOf(store.sources()), ranking: RankingIndex.fromStore(store), batchItems: new Lru<Buffer>(4 * 1024 * 1024, (bytes) => bytes.length) };
    helpers.set(store, h);
  }
  return h;
}

/** What a route handler gets: the request, the snapshot it must answer from, and the raw query. */
export interface RouteContext {
  req: Request;
  res: Response;
  store: SnapshotStore;
  source: SnapshotSource;
  /** The query string without `?` ('' when absent). */
  rawQuery: string;
  /** Path parameters (codes already validated and upper-cased). */
  params: string[];
  /** Keys and quotas; absent when the app was built without them. */
  access?: Access;
}

import type Database from 'better-sqlite3';
import type { SnapshotMeta } from '../../src/snapshot/schema.js';

/** The facts about a snapshot that its descriptors (datapackage.json, CITATION.cff) are written from. */
export interface SnapshotFacts {
  meta: SnapshotMeta;
  /** Rows of the `sources` table, by source_id. */
  sources: { source_id: string; name: string; homepage_url: string; licence_id: string; licence_name: string; licence_url: string }[];
}

const REQUIRED_META = ['dataset_snapshot_id', 'data_asof', 'methodology_version', 'kind', 'published_at'] as const;

/** Reads meta and sources; a missing or malformed key fails here rather than producing a wrong descriptor. */
export function readSnapshotFacts(db: Database.Database): SnapshotFacts {
  const kv = new Map(db.prepare('SELECT key, value FROM meta').raw(true).all() as [string, string][]);
  for (const k of REQUIRED_META) if (!kv.get(k)) throw new Error(`snapshot meta has no ${k}`);
  const kind = kv.get('kind');
  if (kind !== 'demo' && kind !== 'production') throw new Error(`snapshot meta kind is ${JSON.stringify(kind)}, not demo or production`);
  const publishedAt = kv.get('published_at')!;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(publishedAt) || Number.isNaN(Date.parse(publishedAt))) {
    throw new Error(`snapshot meta published_at ${JSON.stringify(publishedAt)} is not an ISO 8601 UTC timestamp`);
  }
  const meta: SnapshotMeta = {
    dataset_snapshot_id: kv.get('dataset_snapshot_id')!,
    data_asof: kv.get('data_asof')!,
    methodology_version: kv.get('methodology_version')!,
    kind,
    published_at: publishedAt,
    registry_year: kv.get('registry_year') ?? '',
    service_host: kv.get('service_host') ?? '',
  };
  const sources = db
    .prepare('SELECT source_id, name, homepage_url, licence_id, licence_name, licence_url FROM sources ORDER BY source_id')
    .all() as SnapshotFacts['sources'];
  return { meta, sources };
}

/** The service's home page, from the host named in citations (a bare host gets https://). */
export function serviceUrl(host: string): string | undefined {
  if (!host) return undefined;
  return /^https?:\/\//.test(host) ? host.replace(/\/*$/, '/') : `https://${host.replace(/\/*$/, '')}/`;
}

/** Publish time in whole seconds since the epoch: the archive's mtime for every entry. */
export function publishedEpochSeconds(meta: SnapshotMeta): number {
  return Math.floor(Date.parse(meta.published_at) / 1000);
}

import type { RegistryResponse, SourceEntry } from '../contract/registry.js';
import type { SnapshotMeta } from '../snapshot/schema.js';
import type { SourceRecord } from '../snapshot/store.js';
import { withEnvelope } from './envelope.js';

export interface RegistryFilter {
  govOnly?: boolean;
  ownerOrg?: string;
}

function sourceEntry(s: SourceRecord): SourceEntry {
  return {
    source_id: s.source_id,
    name: s.name,
    owner_org: s.owner_org,
    owner_org_name: s.owner_org_name,
    is_government: s.is_government,
    licence: { id: s.licence_id, name: s.licence_name, url: s.licence_url },
    update_frequency: s.update_frequency,
    homepage_url: s.homepage_url,
    description: s.description,
    record_count: s.record_count,
    retrieved_at: s.retrieved_at,
    carried_forward: s.carried_forward,
    publisher_date: s.publisher_date,
    files: s.files.map((f) => ({ file: f.file, url: f.url, retrieved_at: f.retrieved_at, bytes: f.bytes, sha256: f.sha256 })),
  };
}

/** GET /sources/registry (contract 4.5); with no filter, the static file's body. */
export function registryView(meta: SnapshotMeta, sources: SourceRecord[], filter: RegistryFilter = {}): RegistryResponse {
  const data = sources
    .filter((s) => !filter.govOnly || s.is_government)
    .filter((s) => filter.ownerOrg === undefined || s.owner_org.toUpperCase() === filter.ownerOrg.toUpperCase())
    .map(sourceEntry);
  return withEnvelope(meta, { data, meta: { total: data.length } });
}

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openApiDocument } from '../src/contract/openapi.js';
import type { SnapshotEntry, SnapshotsResponse } from '../src/contract/snapshots.js';
import { snapshotsResponseSchema } from '../src/contract/snapshots.js';
import { fileForUrlPath } from '../src/contract/api-paths.js';
import { urls } from '../src/contract/urls.js';
import { publishedSnapshotIds } from '../src/snapshot/published.js';
import { prunedSnapshotIds } from '../src/snapshot/retention.js';
import type { SnapshotStore } from '../src/snapshot/store.js';
import { snapshotsView } from '../src/views/snapshots.js';
import type { DownloadFile } from './downloads/write-downloads.js';
import { openApiExamples } from './tree/openapi-examples.js';
import { TreeFiles } from './output/tree-files.js';

/** The `/snapshots` entry a published snapshot wrote about itself. */
function entryOf(snapshotDir: string, id: string): SnapshotEntry | undefined {
  const file = join(snapshotDir, 'tree', fileForUrlPath(urls.snapshots));
  if (!existsSync(file)) return undefined;
  const parsed = snapshotsResponseSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  return parsed.success ? parsed.data.data.find((e) => e.dataset_snapshot_id === id) : undefined;
}

export interface IndexFilesOptions {
  store: SnapshotStore;
  snapshotsDir: string;
  treeDir: string;
  /** The snapshot being built. */
  id: string;
  /** How many published snapshots stay after this publish, this one included. */
  keep: number;
  /** Its downloads, as written. */
  files: readonly DownloadFile[];
}

/**
 * The tree's two index files, written once everything else of it is: `/snapshots` (this snapshot's
 * own entry, with its downloads, after the published ones this publish keeps) and the OpenAPI
 * document, last, since its examples are bodies of this tree, `/snapshots` among them. Returns the
 * `/snapshots` body (the downloads page shows it) and what was written.
 */
export function writeIndexFiles(o: IndexFilesOptions): { body: SnapshotsResponse; files: number; bytes: number } {
  const meta = o.store.meta;
  const downloadsUrl = urls.downloadFolder(o.id);
  const self: SnapshotEntry = {
    dataset_snapshot_id: o.id,
    data_asof: meta.data_asof,
    methodology_version: meta.methodology_version,
    kind: meta.kind,
    published_at: meta.published_at,
    counts: {
      companies: o.store.companyCount(),
      penalties: o.store.penaltyCount(),
      etfs: o.store.etfs().length,
      sources: o.store.sources().length,
    },
    files: o.files.map((f) => ({ path: `${downloadsUrl}/${f.name}`, bytes: f.bytes, sha256: f.sha256, mediatype: f.mediatype })),
  };
  // /snapshots lists what stays after this publish prunes the oldest beyond `keep`.
  const gone = new Set(prunedSnapshotIds(o.snapshotsDir));
  const earlier = publishedSnapshotIds(o.snapshotsDir)
    .filter((old) => !gone.has(old))
    .slice(1 - o.keep || Infinity)
    .flatMap((old) => entryOf(join(o.snapshotsDir, old), old) ?? []);
  const body = snapshotsView(meta, [...earlier, self]);
  const out = new TreeFiles(o.treeDir);
  out.write({ url: urls.snapshots, schema: snapshotsResponseSchema, body });
  out.write({ url: urls.openapi, schema: null, body: openApiDocument(meta.methodology_version, openApiExamples(o.store, o.treeDir, body)) });
  return { body, files: 2, bytes: out.stats.bytes };
}

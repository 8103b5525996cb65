import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { SOURCES } from '../adapters/catalogue.js';
import * as layouts from '../adapters/layouts.js';

/** One response a file was assembled from (MOENV's pages), as served. */
const servedPartSchema = z.object({
  url: z.string().url(),
  http_status: z.number().int(),
  bytes: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  records: z.number().int().nonnegative(),
});

/** What `npm run fetch` knows of one file it wrote: where from, when, and its exact bytes. */
export const fetchedFileSchema = z.object({
  file: z.string().min(1),
  source_id: z.string().min(1),
  /** The request URL without the API key (for a paged source, without the page parameters). */
  url: z.string().url(),
  retrieved_at: z.string().datetime(),
  http_status: z.number().int(),
  bytes: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  records: z.number().int().nonnegative(),
  /** For a paged source, each page as served; the file is their records joined into one array. */
  pages: z.array(servedPartSchema).optional(),
});
export type FetchedFile = z.infer<typeof fetchedFileSchema>;

/**
 * Optional `manifest.json` in a sources folder: when the files were retrieved and the as-of date
 * they describe and, when `npm run fetch` wrote the folder, each file's URL, status, size, sha256
 * and record count. Without it, retrieval times come from the files' modification times.
 */
export const manifestSchema = z.object({
  kind: z.enum(['demo', 'production']).optional(),
  asof: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).optional(),
  retrieved_at: z.record(z.string(), z.string().datetime()).optional(),
  files: z.array(fetchedFileSchema).optional(),
});
export type SourcesManifest = z.infer<typeof manifestSchema>;

export function readManifest(dir: string): SourcesManifest {
  const path = join(dir, 'manifest.json');
  if (!existsSync(path)) return {};
  const parsed = manifestSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
  if (!parsed.success) throw new Error(`${path}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

const fileOfSource = new Map<string, string[]>();
for (const layout of Object.values(layouts) as layouts.FileLayout[]) {
  const files = fileOfSource.get(layout.sourceId) ?? [];
  files.push(layout.file, ...(layout.alternatives ?? []));
  fileOfSource.set(layout.sourceId, files);
}

/** When each source was read: the manifest's word, else the newest modification time of its files. */
export function retrievalTimes(dir: string, manifest: SourcesManifest): Map<string, string> {
  const times = new Map<string, string>();
  for (const { source_id } of SOURCES) {
    const fetched = (manifest.files ?? []).filter((f) => f.source_id === source_id).map((f) => f.retrieved_at).sort();
    const stated = manifest.retrieved_at?.[source_id] ?? fetched[fetched.length - 1];
    if (stated) {
      times.set(source_id, new Date(stated).toISOString().replace(/\.000Z$/, 'Z'));
      continue;
    }
    const mtimes = (fileOfSource.get(source_id) ?? []).map((f) => join(dir, f)).filter(existsSync).map((p) => statSync(p).mtimeMs);
    times.set(source_id, new Date(mtimes.length > 0 ? Math.max(...mtimes) : 0).toISOString().replace(/\.\d{3}Z$/, 'Z'));
  }
  return times;
}

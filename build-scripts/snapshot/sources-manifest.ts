import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { SOURCES } from '../adapters/catalogue.js';
import * as layouts from '../adapters/layouts.js';

/**
 * Optional `manifest.json` in a sources folder: when the files were retrieved and the as-of date
 * they describe. Without it, retrieval times come from the files' modification times.
 */
const manifestSchema = z.object({
  kind: z.enum(['demo', 'production']).optional(),
  asof: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).optional(),
  retrieved_at: z.record(z.string(), z.string().datetime()).optional(),
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
for (const layout of Object.values(layouts)) {
  const files = fileOfSource.get(layout.sourceId) ?? [];
  files.push(layout.file);
  fileOfSource.set(layout.sourceId, files);
}

/** When each source was read: the manifest's word, else the newest modification time of its files. */
export function retrievalTimes(dir: string, manifest: SourcesManifest): Map<string, string> {
  const times = new Map<string, string>();
  for (const { source_id } of SOURCES) {
    const stated = manifest.retrieved_at?.[source_id];
    if (stated) {
      times.set(source_id, new Date(stated).toISOString());
      continue;
    }
    const mtimes = (fileOfSource.get(source_id) ?? []).map((f) => join(dir, f)).filter(existsSync).map((p) => statSync(p).mtimeMs);
    times.set(source_id, new Date(mtimes.length > 0 ? Math.max(...mtimes) : 0).toISOString().replace(/\.\d{3}Z$/, 'Z'));
  }
  return times;
}

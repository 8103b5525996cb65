import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { filesOf } from '../sources/kit/files.js';
import { SOURCE_MODULES } from '../sources/index.js';

/** One response an older fetch joined into one file (MOENV pages before answers were kept one by one). */
const servedPartSchema = z.object({
  url: z.string().url(),
  http_status: z.number().int(),
  bytes: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  records: z.number().int().nonnegative(),
});

/**
 * One file of a sources folder as `npm run fetch` knows it: an answer kept as the publisher served
 * it (URL without the key, method, the request body as sent, status, bytes, sha256, records), or a
 * file an operator placed by hand (no URL; its bytes and sha256 as found).
 */
export const manifestFileSchema = z.object({
  file: z.string().min(1),
  source_id: z.string().min(1),
  url: z.string().url().nullable(),
  method: z.enum(['GET', 'POST']).nullable().optional(),
  request_body: z.string().optional(),
  http_status: z.number().int().nullable(),
  content_type: z.string().optional(),
  retrieved_at: z.string().datetime(),
  bytes: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  records: z.number().int().nonnegative(),
  placed_by_hand: z.literal(true).optional(),
  /** An older fetch's joined file: the pages it was made of. */
  pages: z.array(servedPartSchema).optional(),
});
export type ManifestFile = z.infer<typeof manifestFileSchema>;

/** Per source: what the fetch yielded, beside what the previous fetch of it did (the relative assertion's basis). */
const sourceCountSchema = z.object({ records: z.number().int().nonnegative(), previous_records: z.number().int().nonnegative().nullable() });

/**
 * Optional `manifest.json` in a sources folder: when the files were retrieved, the as-of date they
 * describe and, when `npm run fetch` wrote the folder, every answer it kept and every file it found
 * placed by hand. Without it, retrieval times come from the files' modification times.
 */
export const manifestSchema = z.object({
  kind: z.enum(['demo', 'production']).optional(),
  asof: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
  retrieved_at: z.record(z.string(), z.string().datetime()).optional(),
  files: z.array(manifestFileSchema).optional(),
  sources: z.record(z.string(), sourceCountSchema).optional(),
  /** Sources whose latest answer was empty, blocked or unavailable, and whose previous good answers this folder keeps instead (contract section 9). */
  carried_forward: z.record(z.string(), z.object({ attempted_at: z.string().datetime(), reason: z.string().min(1) })).optional(),
});
export type SourcesManifest = z.infer<typeof manifestSchema>;

export function readManifest(dir: string): SourcesManifest {
  const path = join(dir, 'manifest.json');
  if (!existsSync(path)) return {};
  const parsed = manifestSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
  if (!parsed.success) throw new Error(`${path}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

/** When each source was read: the manifest's word, else the newest modification time of its files. */
export function retrievalTimes(dir: string, manifest: SourcesManifest): Map<string, string> {
  const times = new Map<string, string>();
  for (const m of SOURCE_MODULES) {
    const id = m.info.source_id;
    const fetched = (manifest.files ?? [])
      .filter((f) => f.source_id === id)
      .map((f) => f.retrieved_at)
      .sort();
    const stated = manifest.retrieved_at?.[id] ?? fetched[fetched.length - 1];
    if (stated) {
      times.set(id, new Date(stated).toISOString().replace(/\.000Z$/, 'Z'));
      continue;
    }
    const mtimes = filesOf(dir, m).map((f) => statSync(join(dir, f)).mtimeMs);
    times.set(id, new Date(mtimes.length > 0 ? Math.max(...mtimes) : 0).toISOString().replace(/\.\d{3}Z$/, 'Z'));
  }
  return times;
}

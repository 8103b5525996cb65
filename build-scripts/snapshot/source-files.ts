import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { filesOf } from '../sources/kit/files.js';
import { SOURCE_MODULES } from '../sources/index.js';
import type { SourcesManifest } from './sources-manifest.js';

/** One publisher file the build read, as stored in `source_files` and shown in the registry. */
export interface SourceFileRow {
  source_id: string;
  file: string;
  url: string | null;
  retrieved_at: string;
  bytes: number;
  sha256: string;
}

export async function hashFile(path: string): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { bytes, sha256: hash.digest('hex') };
}

/** The folder's files no longer match what the fetch recorded: the facts would not trace to those bytes. */
export class SourceFileMismatch extends Error {
  override name = 'SourceFileMismatch';
}

/**
 * Hashes every publisher file in the folder (each answer as served: every MOENV page, every GenPlus
 * year and market, every SITCA answer) and joins the manifest's word on it (URL, retrieval time). A
 * file the manifest lists with another sha256 was changed after the fetch: that is an error, not a
 * detail. Files the fetch did not write keep a null URL and the source's retrieval time.
 */
export async function describeSourceFiles(
  dir: string,
  manifest: SourcesManifest,
  retrievedAt: (sourceId: string) => string,
): Promise<SourceFileRow[]> {
  const fetched = new Map((manifest.files ?? []).map((f) => [f.file, f]));
  const rows: SourceFileRow[] = [];
  for (const m of SOURCE_MODULES) {
    for (const file of filesOf(dir, m)) {
      const { bytes, sha256 } = await hashFile(join(dir, file));
      const entry = fetched.get(file);
      if (entry && (entry.sha256 !== sha256 || entry.bytes !== bytes)) {
        throw new SourceFileMismatch(
          `${m.info.source_id} ${file}: sha256 ${sha256.slice(0, 12)}… (${bytes} bytes) is not what the fetch recorded ` +
            `in manifest.json (${entry.sha256.slice(0, 12)}…, ${entry.bytes} bytes); fetch again or remove its manifest ` +
            `entry`,
        );
      }
      rows.push({
        source_id: m.info.source_id,
        file,
        url: entry?.url ?? null,
        retrieved_at: entry ? new Date(entry.retrieved_at).toISOString().replace(/\.\d{3}Z$/, 'Z') : retrievedAt(m.info.source_id),
        bytes,
        sha256,
      });
    }
  }
  return rows;
}

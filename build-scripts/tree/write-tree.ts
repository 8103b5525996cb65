import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { z } from 'zod';
import { fileForUrlPath } from '../../src/site/static-paths.js';
import type { SnapshotStore } from '../../src/snapshot/store.js';
import { staticResources } from './static-resources.js';

export class TreeValidationError extends Error {
  override name = 'TreeValidationError';
}

export interface TreeStats {
  files: number;
  bytes: number;
}

/** Validates a body against its contract schema; a failure names the URL and the first issues. */
export function assertValid(url: string, schema: z.ZodType | null, body: unknown): void {
  if (!schema) return;
  const result = schema.safeParse(body);
  if (!result.success) {
    const issues = result.error.issues.slice(0, 3).map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new TreeValidationError(`${url}: body does not match its schema: ${issues}`);
  }
}

/**
 * Writes one JSON file under treeDir for a URL path. Plain synchronous writes: for 200k small files
 * they beat streams and promise-based fs (the per-call overhead is what dominates).
 */
export function writeJsonFile(treeDir: string, url: string, body: unknown, createdDirs: Set<string>): number {
  const file = join(treeDir, fileForUrlPath(url));
  const dir = dirname(file);
  if (!createdDirs.has(dir)) {
    mkdirSync(dir, { recursive: true });
    createdDirs.add(dir);
  }
  const bytes = Buffer.from(JSON.stringify(body), 'utf8');
  writeFileSync(file, bytes);
  return bytes.length;
}

/** Renders every static resource of the snapshot into treeDir, each body validated first. */
export function writeTree(store: SnapshotStore, treeDir: string, onProgress?: (files: number) => void): TreeStats {
  const createdDirs = new Set<string>();
  const stats: TreeStats = { files: 0, bytes: 0 };
  for (const r of staticResources(store)) {
    assertValid(r.url, r.schema, r.body);
    stats.bytes += writeJsonFile(treeDir, r.url, r.body, createdDirs);
    if (++stats.files % 50_000 === 0) onProgress?.(stats.files);
  }
  return stats;
}

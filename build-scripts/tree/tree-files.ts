import { mkdirSync, writeFileSync } from 'node:fs';
import type { z } from 'zod';
import { validatorFor } from '../../src/contract/validate.js';
import { fileForUrlPath } from '../../src/site/static-paths.js';
import type { StaticResource } from './company-resources.js';

export class TreeValidationError extends Error {
  override name = 'TreeValidationError';
}

export interface TreeStats {
  files: number;
  bytes: number;
}

/** Validates a body against its contract schema; a failure names the URL and the first problem. */
function assertValid(url: string, schema: z.ZodType | null, body: unknown): void {
  if (!schema) return;
  const problem = validatorFor(schema)(body);
  if (problem !== null) throw new TreeValidationError(`${url}: body does not match its schema: ${problem}`);
}

/**
 * Writes validated bodies as JSON files under one tree folder, making each folder once. Plain
 * synchronous writes: for 200k small files they beat streams and promise-based fs (the per-call
 * overhead is what dominates), and a string goes out without a Buffer of our own to allocate.
 */
export class TreeFiles {
  readonly stats: TreeStats = { files: 0, bytes: 0 };
  private readonly createdDirs = new Set<string>();

  constructor(readonly treeDir: string) {}

  /** Validates the body first: a schema failure throws before anything is written. */
  write(r: StaticResource): void {
    assertValid(r.url, r.schema, r.body);
    this.writeText(r.url, JSON.stringify(r.body));
  }

  /** A body already serialised, and validated by the caller (the history writer works on text). */
  writeText(url: string, json: string): void {
    // URLs here come from `urls`, already normal: plain concatenation spares path.join's parsing per file.
    const file = `${this.treeDir}/${fileForUrlPath(url)}`;
    const dir = file.slice(0, file.lastIndexOf('/'));
    if (!this.createdDirs.has(dir)) {
      mkdirSync(dir, { recursive: true });
      this.createdDirs.add(dir);
    }
    writeFileSync(file, json);
    this.stats.files++;
    this.stats.bytes += Buffer.byteLength(json);
  }

  writeAll(resources: Iterable<StaticResource>): void {
    for (const r of resources) this.write(r);
  }
}

import type { z } from 'zod';
import { validatorFor } from '../../src/contract/validate.js';
import { fileForUrlPath } from '../../src/contract/api-paths.js';
import { FolderFiles, type WriteStats } from './folder-files.js';

/** One path-only GET resource: its URL, the schema its body must satisfy, and the body. */
export interface StaticResource {
  url: string;
  schema: z.ZodType | null;
  body: unknown;
}

export class TreeValidationError extends Error {
  override name = 'TreeValidationError';
}

export type TreeStats = WriteStats;

/** Validates a body against its contract schema; a failure names the URL and the first problem. */
function assertValid(url: string, schema: z.ZodType | null, body: unknown): void {
  if (!schema) return;
  const problem = validatorFor(schema)(body);
  if (problem !== null) throw new TreeValidationError(`${url}: body does not match its schema: ${problem}`);
}

/** Writes validated bodies as JSON files under one tree folder. */
export class TreeFiles {
  private readonly out: FolderFiles;

  constructor(readonly treeDir: string) {
    this.out = new FolderFiles(treeDir);
  }

  get stats(): TreeStats {
    return this.out.stats;
  }

  /** Validates the body first: a schema failure throws before anything is written. */
  write(r: StaticResource): void {
    assertValid(r.url, r.schema, r.body);
    this.writeText(r.url, JSON.stringify(r.body));
  }

  /** A body already serialised, and validated by the caller (the history writer works on its bytes). */
  writeText(url: string, json: string | Uint8Array): void {
    this.out.write(fileForUrlPath(url), json);
  }

  writeAll(resources: Iterable<StaticResource>): void {
    for (const r of resources) this.write(r);
  }
}

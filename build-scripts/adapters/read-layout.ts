import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { readCsv } from './csv-reader.js';
import type { FileLayout } from './layouts.js';

/** One row an adapter refused, with where it is and why. */
export interface Reject {
  readonly file: string;
  readonly line: number;
  readonly reason: string;
}

/** Collects rejected rows across all adapters of one build. */
export class RejectLog {
  readonly rejects: Reject[] = [];
  add(file: string, line: number, reason: string): void {
    this.rejects.push({ file, line, reason });
  }
  get count(): number {
    return this.rejects.length;
  }
  countFor(file: string): number {
    return this.rejects.filter((r) => r.file === file).length;
  }
  /** `file:line: reason`, one per line (the first `limit` of them). */
  format(limit = 50): string {
    const shown = this.rejects.slice(0, limit).map((r) => `${r.file}:${r.line}: ${r.reason}`);
    if (this.rejects.length > limit) shown.push(`… and ${this.rejects.length - limit} more`);
    return shown.join('\n');
  }
}

/** A source file lacks a column the adapter needs: the whole file is unusable. */
export class MissingColumnError extends Error {
  constructor(
    readonly file: string,
    readonly column: string,
  ) {
    super(`${file}: missing required column "${column}"`);
    this.name = 'MissingColumnError';
  }
}

export class MissingFileError extends Error {
  constructor(readonly file: string) {
    super(`${file}: source file not found`);
    this.name = 'MissingFileError';
  }
}

/** Header position of every column of a layout (-1 when an optional column is absent). */
function mapHeader<K extends string>(layout: FileLayout<K>, header: string[], file: string): Record<K, number> {
  const positions = new Map(header.map((h, i) => [h.trim(), i] as const));
  const result = {} as Record<K, number>;
  for (const [key, spec] of Object.entries(layout.columns) as [K, FileLayout<K>['columns'][K]][]) {
    const found = spec.labels.map((l) => positions.get(l)).find((p) => p !== undefined);
    if (found === undefined && spec.required) throw new MissingColumnError(file, spec.labels.join(' / '));
    result[key] = found ?? -1;
  }
  return result;
}

export interface LayoutRow<T> {
  readonly line: number;
  readonly row: T;
}

/**
 * Streams the rows of one publisher file: maps columns by header name, validates each row with
 * `schema` and yields the parsed rows. A row that fails is recorded in `rejects` as
 * `file:line: column: reason` and skipped. A missing optional file yields nothing.
 */
export async function* readLayout<K extends string, T>(
  dir: string,
  layout: FileLayout<K>,
  schema: z.ZodType<T, Partial<Record<K, string>>>,
  rejects: RejectLog,
  options: { optional?: boolean } = {},
): AsyncGenerator<LayoutRow<T>> {
  const path = join(dir, layout.file);
  if (!existsSync(path)) {
    if (options.optional) return;
    throw new MissingFileError(layout.file);
  }
  let columns: Record<K, number> | null = null;
  let width = 0;
  for await (const { line, fields } of readCsv(path)) {
    if (columns === null) {
      columns = mapHeader(layout, fields, layout.file);
      width = fields.length;
      continue;
    }
    if (fields.length !== width) {
      rejects.add(layout.file, line, `expected ${width} fields, found ${fields.length}`);
      continue;
    }
    const raw = {} as Record<K, string>;
    for (const key of Object.keys(columns) as K[]) {
      const at = columns[key];
      raw[key] = at >= 0 ? (fields[at] ?? '') : '';
    }
    const parsed = schema.safeParse(raw);
    if (parsed.success) {
      yield { line, row: parsed.data };
    } else {
      const issue = parsed.error.issues[0]!;
      const key = issue.path[0] as K | undefined;
      const label = key !== undefined ? (layout.columns[key]?.labels[0] ?? String(key)) : 'row';
      rejects.add(layout.file, line, `${label}: ${issue.message}`);
    }
  }
  if (columns === null) throw new MissingColumnError(layout.file, 'header row');
}

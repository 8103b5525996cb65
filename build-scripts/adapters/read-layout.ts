import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { CsvFormatError, readCsv } from './csv-reader.js';
import { JsonFormatError, readJsonRecords } from './json-records.js';
import { sniffEncoding } from './decode.js';
import type { FileLayout } from './layouts.js';
import { cleanText } from './clean-text.js';

/** One row an adapter refused, with where it is (a CSV line, or a JSON record's 1-based index) and why. */
export interface Reject {
  readonly file: string;
  readonly line: number;
  readonly reason: string;
  readonly unit?: 'record';
}

/** `file:12` for a CSV line, `file:record 12` for the 12th element of a JSON array. */
export const rejectPlace = (r: Pick<Reject, 'file' | 'line' | 'unit'>) => `${r.file}:${r.unit === 'record' ? `record ${r.line}` : r.line}`;

/** Collects rejected rows across all adapters of one build. */
export class RejectLog {
  readonly rejects: Reject[] = [];
  add(file: string, line: number, reason: string, unit: 'line' | 'record' = 'line'): void {
    this.rejects.push(unit === 'record' ? { file, line, reason, unit } : { file, line, reason });
  }
  get count(): number {
    return this.rejects.length;
  }
  countFor(file: string): number {
    return this.rejects.filter((r) => r.file === file).length;
  }
  /** `file:line: reason`, one per line (the first `limit` of them). */
  format(limit = 50): string {
    const shown = this.rejects.slice(0, limit).map((r) => `${rejectPlace(r)}: ${r.reason}`);
    if (this.rejects.length > limit) shown.push(`… and ${this.rejects.length - limit} more`);
    return shown.join('\n');
  }
}

/** A source file lacks a column the adapter needs: the whole file is unusable. */
export class MissingColumnError extends Error {
  constructor(
    readonly file: string,
    readonly column: string,
    readonly sourceId?: string,
  ) {
    super(
      `${sourceId ? `${sourceId} ` : ''}${file}: missing required column or key "${column}" (renamed by the publisher? see docs/real-data.md, "When a publisher changes its form")`,
    );
    this.name = 'MissingColumnError';
  }
}

export class MissingFileError extends Error {
  constructor(readonly file: string) {
    super(`${file}: source file not found`);
    this.name = 'MissingFileError';
  }
}

/** A source file that cannot be read as a whole (truncated, not the format its name says, ambiguous). */
export class SourceFileError extends Error {
  override name = 'SourceFileError';
}

export interface LayoutRow<T, K extends string = string> {
  readonly line: number;
  readonly row: T;
  /** Every mapped column's value as read (cleaned), keyed in layout order: what a record is, field for field. */
  readonly raw: Readonly<Record<K, string>>;
}

type Raw<K extends string> = Record<K, string>;
type Reader<K extends string> = AsyncGenerator<{ at: number; raw: Raw<K> } | { at: number; problem: string }>;

/** Which of a layout's accepted file names is present in `dir` (null when none). Two at once is ambiguous. */
export function resolveLayoutFile(dir: string, layout: FileLayout): string | null {
  const present = [layout.file, ...(layout.alternatives ?? [])].filter((f) => existsSync(join(dir, f)));
  if (present.length > 1) throw new SourceFileError(`${present.join(' and ')}: two forms of ${layout.sourceId} in one folder; keep one`);
  return present[0] ?? null;
}

/** A value from a JSON record as the text the schemas read: strings as served, numbers printed, null absent. */
function jsonText(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (v === null || v === undefined) return '';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return null;
}

/** A header name or JSON key as the layout compares it with its labels: trimmed, and folded to lower case if the layout asks. */
const headerName = (layout: FileLayout, name: string) => (layout.caseInsensitive ? name.trim().toLowerCase() : name.trim());

/** The labels a layout maps, in header order of preference, with trimmed header positions. */
function mapHeader<K extends string>(layout: FileLayout<K>, header: string[], file: string): Record<K, number> {
  const positions = new Map<string, number>();
  const twice = new Set<string>();
  header.forEach((h, i) => {
    const name = headerName(layout, h);
    if (positions.has(name)) twice.add(name);
    else positions.set(name, i);
  });
  const result = {} as Record<K, number>;
  for (const [key, spec] of Object.entries(layout.columns) as [K, FileLayout<K>['columns'][K]][]) {
    const label = spec.labels.map((l) => headerName(layout, l)).find((l) => positions.has(l));
    if (label !== undefined && twice.has(label)) throw new SourceFileError(`${file}: column "${label}" appears twice in the header`);
    if (label === undefined && spec.required) throw new MissingColumnError(file, spec.labels.join(' / '));
    result[key] = label === undefined ? -1 : positions.get(label)!;
  }
  return result;
}

async function* csvRows<K extends string>(path: string, file: string, layout: FileLayout<K>): Reader<K> {
  let columns: Record<K, number> | null = null;
  let header: string[] = [];
  const keys = Object.keys(layout.columns) as K[];
  for await (const item of readCsv(path, { encoding: layout.encoding })) {
    if ('skipped' in item) {
      yield { at: item.line, problem: item.skipped };
      continue;
    }
    const { line, fields } = item;
    if (columns === null) {
      columns = mapHeader(layout, fields, file);
      header = fields;
      continue;
    }
    if (fields.length !== header.length) {
      // A record running over several lines with the wrong width is most likely an unbalanced quote.
      const span = item.endLine !== undefined ? ` (the record runs to line ${item.endLine}: an unbalanced quote?)` : '';
      yield { at: line, problem: `expected ${header.length} fields, found ${fields.length}${span}` };
      continue;
    }
    if (fields.every((f, i) => f === header[i])) {
      yield { at: line, problem: 'the header row again (files joined together?)' };
      continue;
    }
    const raw = {} as Raw<K>;
    for (const key of keys) {
      const at = columns[key];
      raw[key] = at >= 0 ? (fields[at] ?? '') : '';
    }
    yield { at: line, raw };
  }
  if (columns === null) throw new MissingColumnError(file, 'header row');
}

async function* jsonRows<K extends string>(path: string, file: string, layout: FileLayout<K>): Reader<K> {
  const entries = Object.entries(layout.columns) as [K, FileLayout<K>['columns'][K]][];
  let checked = false;
  for await (const item of readJsonRecords(path)) {
    if ('skipped' in item) {
      yield { at: item.index, problem: item.skipped };
      continue;
    }
    const { index, value } = item;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      yield { at: index, problem: 'not a JSON object' };
      continue;
    }
    // Keys trimmed: some publisher keys end in a space.
    const record = new Map<string, unknown>();
    let clash: string | null = null;
    for (const [k, v] of Object.entries(value)) {
      const name = headerName(layout, k);
      if (record.has(name) && record.get(name) !== v) clash = name;
      record.set(name, v);
    }
    if (!checked) {
      // The first record stands for the file's keys, as a CSV header does.
      for (const [, spec] of entries) {
        if (spec.required && !spec.labels.some((l) => record.has(headerName(layout, l)))) throw new MissingColumnError(file, spec.labels.join(' / '));
      }
      checked = true;
    }
    if (clash !== null) {
      yield { at: index, problem: `${clash}: given twice with different values` };
      continue;
    }
    const raw = {} as Raw<K>;
    let problem: string | null = null;
    for (const [key, spec] of entries) {
      const label = spec.labels.map((l) => headerName(layout, l)).find((l) => record.has(l));
      if (label === undefined) {
        if (spec.required) problem ??= `${spec.labels[0]}: missing`;
        raw[key] = '';
        continue;
      }
      const text = jsonText(record.get(label));
      if (text === null) problem ??= `${label}: not a text or number value`;
      raw[key] = text ?? '';
    }
    yield problem === null ? { at: index, raw } : { at: index, problem };
  }
}

/**
 * Streams the rows of one publisher file: finds the file (any of the layout's accepted names), reads
 * it as CSV or JSON by its extension, maps columns or keys by name (trimmed; regardless of case if the
 * layout says `caseInsensitive`), cleans every value
 * (cleanText: HTML character references decoded, whitespace trimmed), validates each row with
 * `schema` and yields the parsed rows. A row that fails is recorded in `rejects` as
 * `file:line: column: reason` (`file:record N: …` for JSON) and skipped. A missing optional file
 * yields nothing.
 */
export async function* readLayout<K extends string, T>(
  dir: string,
  layout: FileLayout<K>,
  schema: z.ZodType<T, Partial<Record<K, string>>>,
  rejects: RejectLog,
  options: { optional?: boolean } = {},
): AsyncGenerator<LayoutRow<T, K>> {
  const file = resolveLayoutFile(dir, layout);
  if (file === null) {
    if (options.optional) return;
    throw new MissingFileError([layout.file, ...(layout.alternatives ?? [])].join(' or '));
  }
  yield* readLayoutFile(dir, file, layout, schema, rejects);
}

/**
 * The rows of one named file in a layout (one answer of a source served in several, such as a MOENV
 * page or a GenPlus year). JSON must be UTF-8 (RFC 8259): bytes in another encoding fail the file
 * rather than garble its text. Failures of the whole file name the source.
 */
export async function* readLayoutFile<K extends string, T>(
  dir: string,
  file: string,
  layout: FileLayout<K>,
  schema: z.ZodType<T, Partial<Record<K, string>>>,
  rejects: RejectLog,
): AsyncGenerator<LayoutRow<T, K>> {
  const path = join(dir, file);
  const isJson = file.toLowerCase().endsWith('.json');
  if (isJson && (await sniffEncoding(path)) !== 'utf8') {
    throw new SourceFileError(
      `${layout.sourceId} ${file}: JSON that is not UTF-8 (the bytes read as Big5/CP950); JSON is served in UTF-8, so this is not the publisher's answer`,
    );
  }
  const unit = isJson ? 'record' : 'line';
  const labelOf = (key: K | undefined) => (key !== undefined ? (layout.columns[key]?.labels[0] ?? String(key)) : 'row');
  try {
    for await (const item of isJson ? jsonRows(path, file, layout) : csvRows(path, file, layout)) {
      if ('problem' in item) {
        rejects.add(file, item.at, item.problem, unit);
        continue;
      }
      let garbled: K | undefined;
      for (const k of Object.keys(item.raw) as K[]) {
        const value = item.raw[k];
        if (value.includes('\uFFFD')) garbled ??= k;
        // Every value cleaned here, once, for every source: references decoded, spaces (U+3000 too) trimmed.
        item.raw[k] = cleanText(value);
      }
      if (garbled !== undefined) {
        rejects.add(file, item.at, `${labelOf(garbled)}: bytes that are neither UTF-8 nor Big5 (mixed encodings?)`, unit);
        continue;
      }
      const parsed = schema.safeParse(item.raw);
      if (parsed.success) {
        yield { line: item.at, row: parsed.data, raw: item.raw };
      } else {
        const issue = parsed.error.issues[0]!;
        rejects.add(file, item.at, `${labelOf(issue.path[0] as K | undefined)}: ${issue.message}`, unit);
      }
    }
  } catch (e) {
    if (e instanceof CsvFormatError || e instanceof JsonFormatError) throw new SourceFileError(`${layout.sourceId} ${e.message.replace(path, file)}`);
    if (e instanceof MissingColumnError) throw new MissingColumnError(file, e.column, layout.sourceId);
    if (e instanceof SourceFileError && !e.message.startsWith(layout.sourceId)) throw new SourceFileError(`${layout.sourceId} ${e.message}`);
    throw e;
  }
}

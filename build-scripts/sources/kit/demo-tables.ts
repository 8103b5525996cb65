/**
 * What the sources' demo writers share for a tabular file: a table declared by its layout, how its
 * publisher serves it and the rows it holds, written every column in layout order.
 *
 * Header styles: a file written in the `key` style names each column by its API key (the layout's
 * second label) where it has one; the `label` style by the Chinese label (the first). A column with a
 * single label is written with that label.
 */
import { join } from 'node:path';
import type { FileLayout } from '../../adapters/layouts.js';
import { CsvWriter, JsonRecordsWriter, type FileEncoding, type TableWriter } from './table-writers.js';

/** A row of a layout's file: every column, keyed by the layout's column keys, as text. */
export type RowOf<L extends FileLayout> = Record<keyof L['columns'] & string, string>;

export type HeaderStyle = 'label' | 'key';

/** The header a layout implies in a style. */
function headerFor(layout: FileLayout, style: HeaderStyle): string[] {
  return Object.values(layout.columns).map((c) => {
    const label = style === 'key' && c.labels.length > 1 ? c.labels[1] : c.labels[0];
    if (label === undefined) throw new Error(`layout ${layout.file} has a column without labels`);
    return label;
  });
}

/** A paged answer as a fetch keeps it: `size` rows a page, `file(n)` naming page n (from 1). */
export interface Pages {
  size: number;
  file: (page: number) => string;
}

/** How a file is served: JSON (an array, or wrapped in `{records}`; paged or whole) or CSV in an encoding. */
export type ServedForm = { kind: 'json'; wrapped?: boolean; pages?: Pages } | { kind: 'csv'; encoding: FileEncoding };

export const JSON_ARRAY: ServedForm = { kind: 'json' };

/** One tabular file of the demo, written from the demo's input `U`. */
export interface DemoTable<U, L extends FileLayout = FileLayout> {
  layout: L;
  style: HeaderStyle;
  form: ServedForm;
  rows: (u: U) => Iterable<RowOf<L>>;
  /** A header name written with a trailing space, as some real OpenAPI keys are. */
  spacedKey?: string;
}

/** A table, its rows checked against its layout's columns by the compiler. */
export const demoTable = <U, L extends FileLayout>(
  layout: L,
  style: HeaderStyle,
  form: ServedForm,
  rows: (u: U) => Iterable<RowOf<L>>,
  spacedKey?: string,
): DemoTable<U, L> => ({ layout, style, form, rows, spacedKey });

function writerFor(path: string, form: ServedForm): TableWriter {
  return form.kind === 'json' ? new JsonRecordsWriter(path, form.wrapped) : new CsvWriter(path, form.encoding);
}

/**
 * Writes one table into `dir`; a paged form rolls over to the next page file every `size` rows (a
 * last, short page always exists). Returns data-row counts by file name, in the order written.
 */
export async function writeDemoTable<U, L extends FileLayout>(dir: string, u: U, t: DemoTable<U, L>): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const keys = Object.keys(t.layout.columns) as (keyof L['columns'] & string)[];
  const header = headerFor(t.layout, t.style).map((h) => (h === t.spacedKey ? `${h} ` : h));
  const pages = t.form.kind === 'json' ? t.form.pages : undefined;
  let page = 0;
  let file = '';
  let writer: TableWriter | null = null;
  const open = async () => {
    page++;
    file = pages ? pages.file(page) : t.layout.file;
    writer = writerFor(join(dir, file), t.form);
    await writer.write(header);
  };
  const close = async () => {
    await writer!.close();
    counts[file] = writer!.rows;
  };
  await open();
  try {
    for (const row of t.rows(u)) {
      if (pages && writer!.rows === pages.size) {
        await close();
        await open();
      }
      await writer!.write(keys.map((k) => row[k]));
    }
    // A paged answer's last page is short: a full last page is followed by an empty one, as the fetch stops only on a short page.
    if (pages && writer!.rows === pages.size) {
      await close();
      await open();
    }
  } finally {
    await close();
  }
  return counts;
}

import { readFileSync } from 'node:fs';
import { parseCsv } from '../../helpers/csv-parse.js';
export { parseCsv };

/**
 * A demo file's text, decoded independently of the project's reader (WHATWG decoders, not
 * iconv-lite): a UTF-8 BOM stripped, Big5 when the bytes are not UTF-8.
 */
export function fileText(path: string): string {
  const bytes = readFileSync(path);
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return bytes.subarray(3).toString('utf8');
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('big5').decode(bytes);
  }
}

/** Rows of a demo file as header-keyed objects (keys trimmed): a JSON array, `{records}`, or CSV. */
export function rowsOf(path: string): Record<string, string>[] {
  const text = fileText(path);
  if (path.endsWith('.json')) {
    const parsed = JSON.parse(text) as Record<string, string>[] | { records: Record<string, string>[] };
    const list = Array.isArray(parsed) ? parsed : parsed.records;
    return list.map((o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k.trim(), v])));
  }
  const [header, ...body] = parseCsv(text);
  if (!header) throw new Error('empty file');
  return body.map((cells) => Object.fromEntries(header.map((h, i) => [h.trim(), cells[i] ?? ''])));
}

/** The header names of a demo file, as written (untrimmed): a JSON file's first record's keys. */
export function headerOf(path: string): string[] {
  const text = fileText(path);
  if (!path.endsWith('.json')) return parseCsv(text)[0] ?? [];
  const parsed = JSON.parse(text) as object[] | { records: object[] };
  const first = (Array.isArray(parsed) ? parsed : parsed.records)[0];
  return first ? Object.keys(first) : [];
}

/** Reads a file of a layout into records keyed by the layout's column keys (either label accepted). */
export function recordsAt(path: string, columns: Readonly<Record<string, { readonly labels: readonly string[] }>>): Record<string, string>[] {
  return rowsOf(path).map((row) => {
    const out: Record<string, string> = {};
    for (const [key, spec] of Object.entries(columns)) {
      const label = spec.labels.find((l) => l in row);
      if (label !== undefined) out[key] = row[label]!;
    }
    return out;
  });
}

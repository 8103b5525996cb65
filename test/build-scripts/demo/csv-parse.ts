import { parseCsv } from '../../helpers/csv-parse.js';
export { parseCsv };

/** Parses a file of a layout into records keyed by the layout's column keys (either label accepted). */
export function recordsOf(
  text: string,
  columns: Readonly<Record<string, { readonly labels: readonly string[] }>>,
): Record<string, string>[] {
  const [header, ...body] = parseCsv(text);
  if (!header) throw new Error('empty file');
  const index: [string, number][] = [];
  for (const [key, spec] of Object.entries(columns)) {
    const at = header.findIndex((h) => spec.labels.includes(h));
    if (at >= 0) index.push([key, at]);
  }
  return body.map((cells) => Object.fromEntries(index.map(([key, at]) => [key, cells[at] ?? ''])));
}

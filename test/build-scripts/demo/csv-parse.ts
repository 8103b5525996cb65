/** A small, strict RFC 4180 parser for the demo tests (independent of the project's adapters). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = 0;
  let quoted = false;
  let atFieldStart = true;
  while (i < text.length) {
    const ch = text[i] as string;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        const next = text[i];
        if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') throw new Error(`bad character after closing quote at ${i}`);
        continue;
      }
      field += ch;
      i++;
      continue;
    }
    if (ch === '"') {
      if (!atFieldStart) throw new Error(`quote inside an unquoted field at ${i}`);
      quoted = true;
      atFieldStart = false;
      i++;
    } else if (ch === ',') {
      row.push(field);
      field = '';
      atFieldStart = true;
      i++;
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      atFieldStart = true;
      i++;
    } else {
      field += ch;
      atFieldStart = false;
      i++;
    }
  }
  if (quoted) throw new Error('unterminated quoted field');
  if (!atFieldStart || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

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

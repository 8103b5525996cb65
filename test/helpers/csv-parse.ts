/**
 * A small, strict RFC 4180 parser for tests, independent of the project's own CSV reader and
 * writers, so a test cannot pass by sharing their bugs.
 */
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

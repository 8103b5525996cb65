/**
 * CSV text as every outlet writes it (RFC 4180): a field is quoted only when it must be (a comma, a
 * double quote or a line break inside), quotes doubled; lines end in `\n`. The demo's publisher files,
 * the download tables and the ranking export all quote through here.
 */
export function csvQuote(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** A UTF-8 byte-order mark: written before a CSV's header where a spreadsheet must detect UTF-8. */
export const UTF8_BOM = '\uFEFF';

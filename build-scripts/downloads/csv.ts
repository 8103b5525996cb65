/**
 * RFC 4180 CSV text, one row at a time. Fields are quoted only when they must be (comma, quote or a
 * line break inside), so plain values stay readable; quotes inside are doubled. Lines end in `\n`
 * (declared in datapackage.json's dialect), and nothing is ever written before the header: no BOM.
 */

import { csvQuote } from '../../src/contract/csv.js';

/** One SQLite value as CSV text: NULL is the empty field, numbers are JS `String()` (exact round-trip). */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') {
    // SQLite can hold ±Inf (NaN becomes NULL); no dataset value should be infinite, so say so loudly.
    if (!Number.isFinite(value)) throw new Error(`non-finite number ${value} cannot be written to CSV`);
    return String(value);
  }
  if (typeof value === 'bigint') return String(value);
  if (typeof value === 'string') return csvQuote(value);
  // BLOBs (Buffers) have no agreed CSV form; the snapshot schema has none, so one appearing is a bug.
  throw new Error(`cannot write a ${typeof value === 'object' ? value.constructor.name : typeof value} value to CSV`);
}

/** A whole record, line end included. */
export function csvRow(values: readonly unknown[]): string {
  return values.map(csvField).join(',') + '\n';
}

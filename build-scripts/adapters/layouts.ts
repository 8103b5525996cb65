/**
 * How a tabular publisher file is described: its columns and the header names accepted for each.
 * Each module of build-scripts/sources/ (a publisher's source, or the project's CBAM list) declares
 * its own layouts beside its reader. The demo generator writes headers from the same layouts, so it
 * cannot drift from what the adapters accept.
 *
 * Each column lists its accepted header names: the name of the publisher's served form first (the
 * Chinese label, or TPEx's English key), then the other where the publisher has a distinct one. Either is accepted (JSON keys and CSV headers alike,
 * trimmed); unknown columns are ignored. A file is read as JSON (an array, or `{records: [...]}`)
 * when its name ends in `.json`, else as CSV.
 */

import type { SourceEncoding } from './decode.js';

export interface ColumnSpec {
  /** Header names accepted for this column: Chinese label first, API key second (if any). */
  readonly labels: readonly string[];
  readonly required: boolean;
}

export interface FileLayout<K extends string = string> {
  /** File name inside a sources folder, in the form the publisher serves (what the fetch and the demo write). */
  readonly file: string;
  /** Other accepted names: the same dataset in another served form (CSV for JSON, say). One per folder. */
  readonly alternatives?: readonly string[];
  /** Declared encoding of a CSV form; detected from the bytes when absent (UTF-8 with or without BOM, else Big5). */
  readonly encoding?: SourceEncoding;
  readonly sourceId: string;
  readonly columns: Readonly<Record<K, ColumnSpec>>;
  /**
   * Match header names and JSON keys to the labels regardless of case: for a publisher whose copies
   * changed case over the years (GHG_P_01: `App_year`, `CO2`, `Tot2` in 2021, lower case from 2022).
   * Opt-in, so a source whose keys must be read exactly as served (TPEx's `UnifiedBusinessNo.`) stays
   * strict; two headers that differ only in case then count as one given twice.
   */
  readonly caseInsensitive?: true;
}

export const req = (...labels: string[]): ColumnSpec => ({ labels, required: true });
export const opt = (...labels: string[]): ColumnSpec => ({ labels, required: false });

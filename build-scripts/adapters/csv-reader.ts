import { Readable } from 'node:stream';
import { parse, type CsvError } from 'csv-parse';
import { decodedChunks, guardLineLength, MAX_LINE_CHARS, type SourceEncoding } from './decode.js';

/** One CSV record and the 1-based physical line it starts on (for reject messages). */
export interface CsvRecord {
  readonly line: number;
  readonly fields: string[];
  /** The line it ends on, when a quoted field carried it past its first line. */
  readonly endLine?: number;
}

/** A line the reader had to skip, and why (the row reader turns it into a reject). */
export interface CsvSkip {
  readonly line: number;
  readonly skipped: string;
}

/** The file cannot be read as CSV past some point; nothing after it would be trustworthy. */
export class CsvFormatError extends Error {
  override name = 'CsvFormatError';
}

export interface ReadCsvOptions {
  encoding?: SourceEncoding;
  /** Longest physical line kept (longer ones are skipped and reported). */
  maxLineChars?: number;
}

/**
 * Streams a CSV file record by record with csv-parse, so a 400k-row publisher file is never held
 * whole. RFC 4180 quoting (commas, doubled quotes and line breaks in quoted fields), CRLF or LF, a
 * UTF-8 BOM or Big5 bytes (see decode.ts); blank lines skipped. Quotes inside an unquoted field
 * (`5" pipe`) are kept as text: the intent is unambiguous. A line over `maxLineChars` is skipped
 * and yielded as a `CsvSkip`; a quote left open to the end of the file throws CsvFormatError.
 */
export async function* readCsv(path: string, options: ReadCsvOptions = {}): AsyncGenerator<CsvRecord | CsvSkip> {
  const maxLine = options.maxLineChars ?? MAX_LINE_CHARS;
  const longLines: number[] = [];
  const text = guardLineLength(decodedChunks(path, options.encoding), (line) => longLines.push(line), maxLine);
  const parser = parse({
    relax_quotes: true,
    relax_column_count: true, // ragged rows are the row reader's reject, not a parse failure
    skip_empty_lines: true,
    record_delimiter: ['\r\n', '\n'], // a file may mix them
    info: true,
    // A quoted field spanning many lines is bounded too (it cannot be skipped: csv-parse stops there).
    max_record_size: maxLine * 4,
  });
  const source = Readable.from(text);
  source.on('error', (e) => parser.destroy(e));
  source.pipe(parser);

  let prevEnd = 0;
  let prevEmpty = 0;
  try {
    for await (const { info, record } of parser as AsyncIterable<{ info: { lines: number; empty_lines: number }; record: string[] }>) {
      const start = prevEnd + 1 + (info.empty_lines - prevEmpty);
      prevEnd = info.lines;
      prevEmpty = info.empty_lines;
      // A skipped long line arrives as an empty line before this record: report it in order.
      while (longLines.length > 0 && longLines[0]! < start)
        yield { line: longLines.shift()!, skipped: `line longer than ${maxLine} characters: skipped` };
      yield info.lines > start ? { line: start, fields: record, endLine: info.lines } : { line: start, fields: record };
    }
  } catch (e) {
    const err = e as CsvError;
    if (err.code === 'CSV_QUOTE_NOT_CLOSED')
      throw new CsvFormatError(`${path}:${prevEnd + 1}: unterminated quoted field (a quote opened here is never closed)`);
    if (err.code === 'CSV_MAX_RECORD_SIZE')
      throw new CsvFormatError(`${path}:${prevEnd + 1}: a quoted field runs over ${maxLine * 4} characters (an unbalanced quote?)`);
    if (err.code) throw new CsvFormatError(`${path}:${prevEnd + 1}: ${err.message}`);
    throw e;
  } finally {
    source.destroy();
  }
  for (const line of longLines) yield { line, skipped: `line longer than ${maxLine} characters: skipped` };
}

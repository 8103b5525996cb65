import { createReadStream } from 'node:fs';

/** One parsed CSV record and the 1-based physical line it starts on (for reject messages). */
export interface CsvRecord {
  readonly line: number;
  readonly fields: string[];
}

/**
 * Streams an RFC 4180 CSV file record by record, so a 400k-row publisher file is never held whole.
 * Handles quoted fields (with commas, doubled quotes and line breaks), CRLF or LF line ends and a
 * UTF-8 byte-order mark. Blank lines are skipped.
 */
export async function* readCsv(path: string): AsyncGenerator<CsvRecord> {
  const stream = createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 });
  let field = '';
  let fields: string[] = [];
  let inQuotes = false;
  let quoteSeen = false; // the previous char closed a quote or is a doubled quote candidate
  let line = 1;
  let recordLine = 1;
  let first = true;
  let out: CsvRecord[] = [];

  const endRecord = () => {
    fields.push(field);
    field = '';
    if (!(fields.length === 1 && fields[0] === '')) out.push({ line: recordLine, fields });
    fields = [];
  };

  for await (const chunk of stream as AsyncIterable<string>) {
    let text = chunk;
    if (first) {
      first = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    for (let i = 0; i < text.length; i++) {
      const c = text[i]!;
      if (inQuotes) {
        if (c === '"') {
          inQuotes = false;
          quoteSeen = true;
        } else {
          if (c === '\n') line++;
          field += c;
        }
        continue;
      }
      if (c === '"') {
        // Opening quote, or the second half of a doubled quote inside a quoted field.
        if (quoteSeen) field += '"';
        inQuotes = true;
        quoteSeen = false;
        continue;
      }
      quoteSeen = false;
      if (c === ',') {
        fields.push(field);
        field = '';
      } else if (c === '\n') {
        endRecord();
        line++;
        recordLine = line;
      } else if (c !== '\r') {
        field += c;
      }
    }
    if (out.length > 0) {
      yield* out;
      out = [];
    }
  }
  if (inQuotes) throw new Error(`${path}:${recordLine}: unterminated quoted field`);
  if (field !== '' || fields.length > 0) endRecord();
  yield* out;
}

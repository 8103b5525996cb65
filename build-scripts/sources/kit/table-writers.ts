/**
 * Writers for the demo's publisher files, in the forms the publishers serve: CSV (UTF-8 with or
 * without a byte-order mark, or Big5), a JSON array of objects, or a JSON object whose `records`
 * member is that array. Text is joined into ~64 KB chunks, encoded and written to a file stream,
 * waiting for `drain` when the stream asks for it.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import iconv from 'iconv-lite';
import { csvQuote, UTF8_BOM } from '../../../src/contract/csv.js';

export type FileEncoding = 'utf8' | 'utf8-bom' | 'big5';

/** Buffered, encoded text output to one file. */
class EncodedFile {
  private readonly stream: WriteStream;
  private buffer: string[] = [];
  private bufferedChars = 0;
  private failure: Error | null = null;

  constructor(
    readonly path: string,
    private readonly encoding: FileEncoding,
    private readonly chunkChars = 1 << 16,
  ) {
    this.stream = createWriteStream(path);
    this.stream.on('error', (err) => {
      this.failure = err;
    });
    if (encoding === 'utf8-bom') this.buffer.push(UTF8_BOM);
  }

  async append(text: string): Promise<void> {
    this.buffer.push(text);
    this.bufferedChars += text.length;
    if (this.bufferedChars >= this.chunkChars) await this.flush();
  }

  private encode(text: string): Buffer {
    if (this.encoding !== 'big5') return Buffer.from(text, 'utf8');
    const bytes = iconv.encode(text, 'cp950');
    // A character Big5 cannot hold would silently become `?`: the demo must not lose text that way.
    if (iconv.decode(bytes, 'cp950') !== text) throw new Error(`${this.path}: text not representable in Big5`);
    return bytes;
  }

  private async flush(): Promise<void> {
    if (this.failure) throw this.failure;
    if (this.buffer.length === 0) return;
    const chunk = this.encode(this.buffer.join(''));
    this.buffer = [];
    this.bufferedChars = 0;
    if (!this.stream.write(chunk)) {
      if (this.failure) throw this.failure;
      if (this.stream.destroyed) throw new Error(`write stream for ${this.path} was destroyed`);
      await once(this.stream, 'drain');
    }
  }

  /** Flushes, ends the stream and waits until the file is closed. */
  async close(): Promise<void> {
    await this.flush();
    if (!this.stream.closed) {
      const closed = once(this.stream, 'close');
      this.stream.end();
      await closed;
    }
    if (this.failure) throw this.failure;
  }
}

/** The rows of one table: a header (column names) then records in that column order. */
export interface TableWriter {
  write(values: readonly string[]): Promise<void>;
  close(): Promise<void>;
  /** Data rows written so far (the header excluded). */
  readonly rows: number;
}

/** RFC 4180 CSV through src/contract/csv.ts, `\n` line ends; the first `write` is the header. */
export class CsvWriter implements TableWriter {
  private readonly file: EncodedFile;
  private lines = 0;
  constructor(path: string, encoding: FileEncoding = 'utf8') {
    this.file = new EncodedFile(path, encoding);
  }
  get rows(): number {
    return Math.max(0, this.lines - 1);
  }
  async write(values: readonly string[]): Promise<void> {
    this.lines++;
    await this.file.append(`${values.map(csvQuote).join(',')}\n`);
  }
  close(): Promise<void> {
    return this.file.close();
  }
}

/**
 * Compact JSON, every value a string, as the TWSE/TPEx OpenAPI and MOENV v2 answer: an array of
 * objects keyed by the header's names, or `{"fields": [...], "records": [...]}` when `wrapped`.
 * The first `write` is the header (the keys); keys are written exactly as given, spaces included.
 */
export class JsonRecordsWriter implements TableWriter {
  private readonly file: EncodedFile;
  private keys: string[] | null = null;
  rows = 0;
  constructor(
    path: string,
    private readonly wrapped = false,
  ) {
    this.file = new EncodedFile(path, 'utf8');
  }
  async write(values: readonly string[]): Promise<void> {
    if (this.keys === null) {
      this.keys = [...values];
      const fields = this.keys.map((id) => ({ id: id.trim(), type: 'text' }));
      await this.file.append(this.wrapped ? `{"fields":${JSON.stringify(fields)},"records":[` : '[');
      return;
    }
    const keys = this.keys;
    const record = `{${values.map((v, i) => `${JSON.stringify(keys[i])}:${JSON.stringify(v)}`).join(',')}}`;
    await this.file.append(this.rows === 0 ? record : `,${record}`);
    this.rows++;
  }
  async close(): Promise<void> {
    if (this.keys !== null) await this.file.append(this.wrapped ? ']}' : ']');
    await this.file.close();
  }
}

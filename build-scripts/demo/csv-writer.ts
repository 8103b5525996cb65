/**
 * Minimal CSV writer: RFC 4180 quoting, UTF-8 without BOM, `\n` line ends. Lines are joined into
 * ~64 KB chunks and written to a file stream, waiting for `drain` when the stream asks for it.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { csvQuote } from '../../src/contract/csv.js';

function csvLine(values: readonly string[]): string {
  return `${values.map(csvQuote).join(',')}\n`;
}

export class CsvWriter {
  private readonly stream: WriteStream;
  private buffer: string[] = [];
  private bufferedChars = 0;
  private failure: Error | null = null;
  /** Lines written so far (header included). */
  lines = 0;

  constructor(
    readonly path: string,
    private readonly chunkChars = 1 << 16,
  ) {
    this.stream = createWriteStream(path, { encoding: 'utf8' });
    this.stream.on('error', (err) => {
      this.failure = err;
    });
  }

  async write(values: readonly string[]): Promise<void> {
    const line = csvLine(values);
    this.buffer.push(line);
    this.bufferedChars += line.length;
    this.lines++;
    if (this.bufferedChars >= this.chunkChars) await this.flush();
  }

  private async flush(): Promise<void> {
    if (this.failure) throw this.failure;
    if (this.buffer.length === 0) return;
    const chunk = this.buffer.join('');
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

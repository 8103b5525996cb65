import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import iconv from 'iconv-lite';

/**
 * Turns a publisher file's bytes into text, chunk by chunk. The exchanges serve UTF-8 (MOPS with a
 * byte-order mark), older MOPS downloads and many agency CSVs are Big5 (CP950): the encoding is
 * declared by the caller or detected from the file's first bytes. A byte sequence the encoding cannot
 * decode becomes U+FFFD, which the row reader reports (a file that changes encoding midway).
 */

export type SourceEncoding = 'utf8' | 'cp950';

const SAMPLE_BYTES = 1 << 16;
const lenientUtf8 = new TextDecoder('utf-8');

/**
 * UTF-8 when the sample has a UTF-8 BOM, or when it reads as UTF-8 more than it fails to: Big5 bytes
 * almost never form valid UTF-8 sequences, so a Big5 file fails nearly everywhere, while a UTF-8
 * file with one stray Big5 row still reads as UTF-8 (and that row is rejected, not the file).
 */
export function detectEncoding(sample: Uint8Array): SourceEncoding {
  if (sample[0] === 0xef && sample[1] === 0xbb && sample[2] === 0xbf) return 'utf8';
  // A sample cut mid-character must not count against UTF-8: drop an incomplete tail sequence.
  let end = sample.length;
  for (let back = 1; back <= 3 && end - back >= 0; back++) {
    const b = sample[end - back]!;
    if ((b & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead byte
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    if (need > back) end -= back;
    break;
  }
  const text = lenientUtf8.decode(sample.subarray(0, end));
  let valid = 0;
  let invalid = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0xfffd) invalid++;
    else if (c >= 0x80) valid++;
  }
  return invalid === 0 || valid > invalid ? 'utf8' : 'cp950';
}

export async function sniffEncoding(path: string): Promise<SourceEncoding> {
  const handle = await open(path, 'r');
  try {
    const buf = Buffer.alloc(SAMPLE_BYTES);
    const { bytesRead } = await handle.read(buf, 0, SAMPLE_BYTES, 0);
    return detectEncoding(buf.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

/** The file as decoded text chunks (a UTF-8 BOM removed). Memory: one read buffer at a time. */
export async function* decodedChunks(path: string, encoding?: SourceEncoding): AsyncGenerator<string> {
  const enc = encoding ?? (await sniffEncoding(path));
  const decoder = iconv.getDecoder(enc === 'utf8' ? 'utf8' : 'cp950'); // strips a leading BOM
  for await (const chunk of createReadStream(path, { highWaterMark: SAMPLE_BYTES }) as AsyncIterable<Buffer>) {
    const text = decoder.write(chunk);
    if (text) yield text;
  }
  const rest = decoder.end();
  if (rest) yield rest;
}

/** A physical line longer than this is not data: the CSV reader skips it and reports it. */
export const MAX_LINE_CHARS = 1 << 20;

/**
 * Passes text through whole lines at a time, holding at most `maxLine` characters of an unfinished
 * line. A line longer than that is dropped (replaced by an empty line, so later line numbers stay
 * right) and its number reported through `onLongLine`: one 50 MB line never sits in memory.
 */
export async function* guardLineLength(
  chunks: AsyncIterable<string>,
  onLongLine: (line: number) => void,
  maxLine = MAX_LINE_CHARS,
): AsyncGenerator<string> {
  let held = '';
  let line = 1;
  let dropping = false;
  for await (const chunk of chunks) {
    const out: string[] = [];
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf('\n', start);
      if (dropping) {
        if (nl < 0) break;
        dropping = false;
        out.push('\n');
        line++;
        start = nl + 1;
        continue;
      }
      if (nl < 0) {
        held += chunk.slice(start);
        if (held.length > maxLine) {
          onLongLine(line);
          dropping = true;
          held = '';
        }
        break;
      }
      const length = held.length + nl - start;
      if (length > maxLine) {
        onLongLine(line);
        out.push('\n');
      } else {
        out.push(held, chunk.slice(start, nl + 1));
      }
      held = '';
      line++;
      start = nl + 1;
    }
    if (out.length > 0) yield out.join('');
  }
  if (held) yield held;
}

import { decodedChunks } from './decode.js';

/**
 * Streams the records of a JSON file as the publishers serve them: a top-level array of objects
 * (TWSE and TPEx OpenAPI, MOENV v2) or an object whose `records` member is that array (MOENV v2's
 * other answer). Each element is cut out of the text by a small scanner and parsed on its own, so a
 * 400k-record file never becomes one string or one object tree; an element over `maxRecordChars`
 * is skipped and reported instead of buffered.
 */

/** One element of the records array, 1-based `index`, parsed; or why it could not be. */
export type JsonItem = { index: number; value: unknown } | { index: number; skipped: string };

/** The file is not a complete JSON array of records (truncated, not JSON, no `records` array). */
export class JsonFormatError extends Error {
  override name = 'JsonFormatError';
}

export const MAX_RECORD_CHARS = 1 << 20;

const WS = new Set([' ', '\t', '\n', '\r']);

export async function* readJsonRecords(path: string, maxRecordChars = MAX_RECORD_CHARS): AsyncGenerator<JsonItem> {
  const scanner = new RecordsScanner(path, maxRecordChars);
  for await (const chunk of decodedChunks(path, 'utf8')) {
    scanner.scan(chunk);
    if (scanner.out.length > 0) yield* scanner.out.splice(0);
  }
  scanner.finish();
}

/**
 * The scanner's state carried from one chunk to the next: where it is in the JSON text (depth,
 * strings, the root's keys), and the element being cut out. Elements completed are put in `out`.
 */
class RecordsScanner {
  readonly out: JsonItem[] = [];
  private depth = 0; // open brackets and braces around the current position
  private inString = false;
  private escaped = false;
  private rootSeen = false;
  private rootIsObject = false;
  private recordsDepth = -1; // depth inside the records array, once found
  private recordsDone = false;
  // Keys of the root object (depth 1) are captured to find `records`.
  private expectKey = false;
  private keyParts: string[] | null = null;
  private lastKey = '';
  // The element being cut out.
  private capture: string[] | null = null;
  private captureLen = 0;
  private oversize = false;
  private elementStart = -1;
  private segStart = -1; // where the element being cut out starts in the current chunk
  private index = 0;
  private offset = 0; // characters before the current chunk (for error messages)

  constructor(
    private readonly path: string,
    private readonly maxRecordChars: number,
  ) {}

  scan(chunk: string): void {
    this.segStart = this.capture ? 0 : -1;
    for (let i = 0; i < chunk.length; i++) this.step(chunk, i);
    this.keepPartialElement(chunk);
    this.keepPartialKey(chunk);
    this.offset += chunk.length;
  }

  /** At the end of the file: it must have held one complete value with a records array. */
  finish(): void {
    const { path } = this;
    if (!this.rootSeen) throw new JsonFormatError(`${path}: empty file`);
    if (this.depth !== 0 || this.inString)
      throw new JsonFormatError(
        `${path}: truncated JSON (the file ends inside ${this.inString ? 'a string' : 'an unclosed array or object'} after ${this.index} complete records)`,
      );
    if (this.recordsDepth < 0) throw new JsonFormatError(`${path}: a JSON object without a "records" array`);
  }

  private step(chunk: string, i: number): void {
    const c = chunk[i]!;
    if (this.inString) return this.stringChar(chunk, i, c);
    if (WS.has(c)) return;
    if (!this.rootSeen) return this.rootChar(chunk, i, c);
    if (this.depth === 0) throw new JsonFormatError(`${this.path}: text after the end of the JSON value at character ${this.offset + i}`);
    // Start of an element of the records array.
    if (!this.recordsDone && this.depth === this.recordsDepth && !this.capture && c !== ',' && c !== ']') {
      this.capture = [];
      this.captureLen = 0;
      this.oversize = false;
      this.segStart = i;
    }
    if (c === '"') {
      this.inString = true;
      if (this.rootIsObject && this.depth === 1 && this.expectKey) {
        this.keyParts = [];
        this.elementStart = i + 1;
      }
      return;
    }
    if (this.rootIsObject && this.depth === 1) {
      if (c === ':') this.expectKey = false;
      else if (c === ',') this.expectKey = true;
    }
    if (c === '{' || c === '[') {
      if (this.rootIsObject && this.depth === 1 && c === '[' && this.lastKey === 'records' && this.recordsDepth < 0) this.recordsDepth = 2;
      this.depth++;
      return;
    }
    if (c === '}' || c === ']') return this.close(chunk, i);
    // A scalar element ends at the comma or bracket after it.
    if (this.capture && this.depth === this.recordsDepth && c === ',') this.endElement(chunk, i);
  }

  /** Inside a string: only its end matters, and the text of a root key. */
  private stringChar(chunk: string, i: number, c: string): void {
    if (this.escaped) this.escaped = false;
    else if (c === '\\') this.escaped = true;
    else if (c === '"') {
      this.inString = false;
      if (this.keyParts) {
        this.keyParts.push(chunk.slice(this.elementStart, i));
        this.lastKey = this.keyParts.join('');
        this.keyParts = null;
      }
    }
  }

  /** The first character: an array is the records, an object is searched for `records`. */
  private rootChar(chunk: string, i: number, c: string): void {
    this.rootSeen = true;
    if (c === '[') {
      this.recordsDepth = 1;
    } else if (c === '{') {
      this.rootIsObject = true;
      this.expectKey = true;
    } else {
      throw new JsonFormatError(`${this.path}: not a JSON array or object (starts with ${JSON.stringify(chunk.slice(i, i + 20))})`);
    }
    this.depth = 1;
  }

  private close(chunk: string, i: number): void {
    // The array closes right after a scalar element.
    if (this.capture && this.depth === this.recordsDepth) this.endElement(chunk, i);
    this.depth--;
    // Object or array element complete.
    if (this.capture && this.depth === this.recordsDepth) this.endElement(chunk, i + 1);
    if (this.depth === this.recordsDepth - 1 && this.recordsDepth > 0) this.recordsDone = true;
  }

  /** The element being cut out ends at `end` in this chunk. */
  private endElement(chunk: string, end: number): void {
    if (!this.oversize) this.capture!.push(chunk.slice(this.segStart, end));
    this.finishElement(this.capture!.join(''));
    this.capture = null;
    this.segStart = -1;
  }

  private finishElement(text: string): void {
    const index = ++this.index;
    if (this.oversize) {
      this.out.push({ index, skipped: `record longer than ${this.maxRecordChars} characters: skipped` });
      return;
    }
    try {
      this.out.push({ index, value: JSON.parse(text) });
    } catch (e) {
      this.out.push({ index, skipped: `not valid JSON: ${(e as Error).message}` });
    }
  }

  /** An element running on past the chunk keeps its part, unless it grows over the limit. */
  private keepPartialElement(chunk: string): void {
    if (!this.capture || this.oversize) return;
    const piece = chunk.slice(this.segStart);
    this.captureLen += piece.length;
    if (this.captureLen > this.maxRecordChars) {
      this.oversize = true;
      this.capture = [];
    } else {
      this.capture.push(piece);
    }
  }

  /** Keys split across chunks (a key longer than any real one is not `records`: stop keeping it). */
  private keepPartialKey(chunk: string): void {
    if (!this.keyParts) return;
    this.keyParts.push(chunk.slice(this.elementStart, this.elementStart + 64));
    if (this.keyParts.length > 2) this.keyParts = [''];
    this.elementStart = 0;
  }
}

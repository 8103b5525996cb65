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
  let depth = 0; // open brackets and braces around the current position
  let inString = false;
  let escaped = false;
  let rootSeen = false;
  let rootIsObject = false;
  let recordsDepth = -1; // depth inside the records array, once found
  let recordsDone = false;
  // Keys of the root object (depth 1) are captured to find `records`.
  let expectKey = false;
  let keyParts: string[] | null = null;
  let lastKey = '';
  // The element being cut out.
  let capture: string[] | null = null;
  let captureLen = 0;
  let oversize = false;
  let elementStart = -1;
  let index = 0;
  let offset = 0; // characters before the current chunk (for error messages)

  const out: JsonItem[] = [];
  const finishElement = (text: string) => {
    index++;
    if (oversize) {
      out.push({ index, skipped: `record longer than ${maxRecordChars} characters: skipped` });
      return;
    }
    try {
      out.push({ index, value: JSON.parse(text) });
    } catch (e) {
      out.push({ index, skipped: `not valid JSON: ${(e as Error).message}` });
    }
  };

  for await (const chunk of decodedChunks(path, 'utf8')) {
    let segStart = capture ? 0 : -1;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!;
      if (inString) {
        if (escaped) escaped = false;
        else if (c === '\\') escaped = true;
        else if (c === '"') {
          inString = false;
          if (keyParts) {
            keyParts.push(chunk.slice(elementStart, i));
            lastKey = keyParts.join('');
            keyParts = null;
          }
        }
        continue;
      }
      if (WS.has(c)) continue;
      if (!rootSeen) {
        rootSeen = true;
        if (c === '[') {
          recordsDepth = 1;
        } else if (c === '{') {
          rootIsObject = true;
          expectKey = true;
        } else {
          throw new JsonFormatError(`${path}: not a JSON array or object (starts with ${JSON.stringify(chunk.slice(i, i + 20))})`);
        }
        depth = 1;
        continue;
      }
      if (depth === 0) throw new JsonFormatError(`${path}: text after the end of the JSON value at character ${offset + i}`);
      // Start of an element of the records array.
      if (!recordsDone && depth === recordsDepth && !capture && c !== ',' && c !== ']') {
        capture = [];
        captureLen = 0;
        oversize = false;
        segStart = i;
      }
      if (c === '"') {
        inString = true;
        if (rootIsObject && depth === 1 && expectKey) {
          keyParts = [];
          elementStart = i + 1;
        }
        continue;
      }
      if (rootIsObject && depth === 1) {
        if (c === ':') expectKey = false;
        else if (c === ',') expectKey = true;
      }
      if (c === '{' || c === '[') {
        if (rootIsObject && depth === 1 && c === '[' && lastKey === 'records' && recordsDepth < 0) recordsDepth = 2;
        depth++;
        continue;
      }
      if (c === '}' || c === ']') {
        if (capture && depth === recordsDepth) {
          // The array closes right after a scalar element.
          if (!oversize) capture.push(chunk.slice(segStart, i));
          finishElement(capture.join(''));
          capture = null;
          segStart = -1;
        }
        depth--;
        if (capture && depth === recordsDepth) {
          // Object or array element complete.
          if (!oversize) capture.push(chunk.slice(segStart, i + 1));
          finishElement(capture.join(''));
          capture = null;
          segStart = -1;
        }
        if (depth === recordsDepth - 1 && recordsDepth > 0) recordsDone = true;
        continue;
      }
      // A scalar element ends at the comma or bracket after it.
      if (capture && depth === recordsDepth && c === ',') {
        if (!oversize) capture.push(chunk.slice(segStart, i));
        finishElement(capture.join(''));
        capture = null;
        segStart = -1;
      }
    }
    if (capture && !oversize) {
      const piece = chunk.slice(segStart);
      captureLen += piece.length;
      if (captureLen > maxRecordChars) {
        oversize = true;
        capture = [];
      } else {
        capture.push(piece);
      }
    }
    // Keys split across chunks (a key longer than any real one is not `records`: stop keeping it).
    if (keyParts) {
      keyParts.push(chunk.slice(elementStart, elementStart + 64));
      if (keyParts.length > 2) keyParts = [''];
      elementStart = 0;
    }
    offset += chunk.length;
    if (out.length > 0) yield* out.splice(0);
  }
  if (!rootSeen) throw new JsonFormatError(`${path}: empty file`);
  if (depth !== 0 || inString)
    throw new JsonFormatError(
      `${path}: truncated JSON (the file ends inside ${inString ? 'a string' : 'an unclosed array or object'} after ${index} complete records)`,
    );
  if (recordsDepth < 0) throw new JsonFormatError(`${path}: a JSON object without a "records" array`);
}

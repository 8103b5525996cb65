import { LIMITS } from './vocabulary.js';
import { API_BASE, sameResource } from './api-paths.js';
import { badRequest, headersTooLarge, uriTooLong, type ApiError } from './errors.js';

/**
 * The path below /api/v1 as segments, by one rule everywhere (contract 1.1, docs/api-decisions.md, "Paths"):
 * fixed path words are lower-case and case-sensitive, as on any static host; each segment is
 * percent-decoded exactly once, after splitting, so an encoded `/` can never shift the segments that
 * follow; empty segments are kept (an empty code is then a 400, not a shifted path); `.json` on the
 * last segment names the same resource. Returns null for a path outside /api/v1.
 */
export function apiSegments(rawPath: string): string[] | null {
  if (rawPath !== API_BASE && !rawPath.startsWith(`${API_BASE}/`)) return null;
  const rest = rawPath.slice(API_BASE.length + 1);
  if (rest === '') return [];
  return sameResource(rest.split('/').map(decodeSegment));
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw badRequest(`The path segment "${segment.slice(0, 40)}" is not valid percent-encoded UTF-8.`);
  }
}

/** Byte sizes of the request line's URL and of the header lines, checked before anything else runs. */
export function requestTooLarge(url: string, rawHeaders: readonly string[]): ApiError | null {
  if (Buffer.byteLength(url) > LIMITS.urlBytes) return uriTooLong();
  let bytes = 0;
  for (const h of rawHeaders) bytes += Buffer.byteLength(h) + 2;
  if (bytes > LIMITS.headerBytes) return headersTooLarge();
  return null;
}

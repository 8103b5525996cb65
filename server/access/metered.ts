import type { QuotaBucket } from '../../src/contract/vocabulary.js';

/**
 * Which quota buckets a request under /api/v1 counts toward (contract 0 and 6), from its method,
 * path segments (`.json` already stripped) and raw query. A static file — no query string, not a
 * POST — counts toward nothing, as a CDN would serve it; neither does /usage.
 */
export function bucketsFor(method: string, segments: readonly string[], rawQuery: string): QuotaBucket[] {
  if (segments[0] === 'usage' && segments.length === 1) return [];
  if (method !== 'POST' && rawQuery === '') return [];
  const buckets: QuotaBucket[] = ['calls/day', 'calls/min'];
  if (segments.length === 1 && method === 'POST') {
    if (segments[0] === 'batch') buckets.push('batch/day');
    if (segments[0] === 'packs') buckets.push('packs/day');
  }
  // Counted as an export even when another parameter then makes it a 400: 4xx calls count.
  if (segments.length === 1 && segments[0] === 'ranking' && new URLSearchParams(rawQuery).getAll('format').some((v) => v.trim() === 'csv')) {
    buckets.push('csv/day');
  }
  return buckets;
}

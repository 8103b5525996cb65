import type { QuotaBucket } from '../../src/contract/vocabulary.js';

/** A query of `page` alone: on /ranking and /changes, the page the tree renders (contract 4, 10). */
const PAGE_ONLY = /^page=[0-9]+$/;
const LIST_PAGES = new Set(['ranking', 'changes']);

/**
 * Which quota buckets a request under /api/v1 counts toward (contract 0 and 6), from its method,
 * path segments (`.json` already stripped) and raw query. A static file — no query string, not a
 * POST — counts toward nothing, as a CDN would serve it; neither does /usage. Nor does `?page=N`
 * alone on /ranking and /changes: the contract renders those pages into the tree, and the nginx
 * front serves them as files, so a shim answering them must not count them either (docs/api-decisions.md, "API
 * decisions beyond the contract"), past the last page included.
 */
export function bucketsFor(method: string, segments: readonly string[], rawQuery: string): QuotaBucket[] {
  if (segments[0] === 'usage' && segments.length === 1) return [];
  if (method !== 'POST' && rawQuery === '') return [];
  if (method !== 'POST' && segments.length === 1 && LIST_PAGES.has(segments[0]!) && PAGE_ONLY.test(rawQuery)) return [];
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

import type { FetchResult } from '../fetch/fetch-sources.js';

/** What a fetch gave, per source: answers kept, records (beside the previous fetch's), bytes; then what was carried, missing, or above its expected maximum. */
export function formatFetchSummary(r: FetchResult, ms: number): string {
  const lines = [`Fetched into ${r.outDir} in ${(ms / 1000).toFixed(1)} s:`];
  const bySource = new Map<string, typeof r.files>();
  for (const f of r.files) bySource.set(f.source_id, [...(bySource.get(f.source_id) ?? []), f]);
  for (const [id, files] of bySource) {
    const c = r.counts[id];
    const hand = files.filter((f) => f.placed_by_hand).length;
    const bytes = files.reduce((s, f) => s + f.bytes, 0);
    const previous = c?.previous_records != null ? ` (previous fetch ${c.previous_records})` : '';
    lines.push(
      `  ${id.padEnd(24)} ${String(files.length).padStart(4)} file${files.length === 1 ? ' ' : 's'} ` +
        `${String(c?.records ?? files.reduce((s, f) => s + f.records, 0)).padStart(9)} records${previous}  ` +
        `${(bytes / 1e6).toFixed(1)} MB${hand ? `  ${hand} placed by hand` : ''}`,
    );
  }
  if (r.carried.length > 0) lines.push(`Kept from the previous folder: ${r.carried.join(', ')}`);
  for (const [id, c] of Object.entries(r.carriedForward))
    lines.push(`Carried forward ${id}: ${c.reason} (attempted ${c.attempted_at}); the previous good answers stand in`);
  for (const m of r.missing) lines.push(`Missing ${m.sourceId}: ${m.note}`);
  for (const w of r.warnings) lines.push(`Warning: ${w}`);
  return lines.join('\n');
}

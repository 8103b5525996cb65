import { FLAG_CATALOGUE } from '../../src/methodology/rules.js';
import type { BuildResult } from '../build.js';

/** The one-screen summary printed at the end of a build. */
export function formatSummary(r: BuildResult, totalMs: number): string {
  const s = r.summary;
  const lines = [
    `Published snapshot ${r.id} (data as of ${s.asof}) → ${r.dir}`,
    `Kind: ${s.kind === 'demo' ? 'demo (fictional companies: demo banner and disclaimer)' : 'production (real publisher data)'}`,
    '',
    'Per source: records read (accepted) / stored, companies linked, records served twice:',
    ...Object.keys({ ...s.rowsRead, ...s.recordCounts })
      .sort()
      .flatMap((id) => {
        const c = s.tally.bySource.get(id);
        const line =
          `  ${id.padEnd(24)} ${String(s.rowsRead[id] ?? 0).padStart(9)} / ${String(s.recordCounts[id] ?? 0).padStart(9)}` +
          `   companies ${String(c?.companies.size ?? 0).padStart(5)}   duplicates ${c?.duplicates ?? 0}` +
          `${c?.conflicting ? ` (${c.conflicting} differing; the first kept)` : ''}`;
        const skipped = [...(c?.skipped ?? new Map<string, number>())].map(([why, n]) => `      skipped ${n}: ${why}`);
        const unmatched = (c?.unmatched ?? []).map((n) => `      left out, unmatched: ${n}`);
        const unlinked =
          c && c.records > c.linked ? [`      linked to no company: ${c.records - c.linked} (no business ID, or one of no listed company)`] : [];
        const shared = c?.sharedId ? [`      sharing an identity with another record but differing: ${c.sharedId} (distinct facts, all kept)`] : [];
        const padded = c?.padded ? [`      business IDs padded to 8 digits (a lost leading zero): ${c.padded}`] : [];
        const unknown = [...(c?.unknown ?? new Map<string, number>())].map(([what, n]) => `      warning: ${n} × ${what}`);
        return [line, ...skipped, ...unmatched, ...unlinked, ...shared, ...padded, ...unknown];
      }),
    ...s.carriedForward.map(
      (c) =>
        `Carried forward ${c.source_id}: ${c.reason} (asked ${c.attempted_at}); this snapshot uses its previous answers, retrieved ${c.retrieved_at}`,
    ),
    ...(s.warnings.length > 0 ? ['Warnings (assertion maxima):', ...s.warnings.map((w) => `  ${w}`)] : []),
    `Rejected rows: ${s.rejects.count}${s.rejects.count ? `\n${s.rejects.format(10).replace(/^/gm, '  ')}` : ''}`,
    `Companies: ${s.companies}   verdicts: ${Object.entries(s.verdicts)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
    'Flags by id:',
    ...FLAG_CATALOGUE.map((f) => `  ${f.id} ${f.severity.padEnd(8)} ${String(s.flagsById[f.id] ?? 0).padStart(7)}  ${f.label}`),
    `Static tree: ${r.tree.files} files, ${(r.tree.bytes / 1e6).toFixed(1)} MB; pages: ${r.pages.files} files, ${(r.pages.bytes / 1e6).toFixed(1)} MB`,
    `Time: ${Object.entries(r.timings)
      .map(([k, v]) => `${k} ${(v / 1000).toFixed(1)}s`)
      .join(', ')}; total ${(totalMs / 1000).toFixed(1)}s`,
  ];
  return lines.join('\n');
}

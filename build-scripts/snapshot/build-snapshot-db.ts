import Database from 'better-sqlite3';
import { computeCompanies } from './compute.js';
import { computeEtfs } from './etf-stats.js';
import { checkInvariants } from './invariants.js';
import { loadSources } from './load-sources.js';
import type { Progress } from './progress.js';
import { RejectLog } from '../adapters/read-layout.js';
import { writeSnapshotDb } from './write-db.js';
import { readManifest, retrievalTimes } from './sources-manifest.js';
import type { SnapshotKind } from '../../src/contract/vocabulary.js';
import { describeSourceFiles } from './source-files.js';
import type { SourceTally } from '../sources/kit/tally.js';
import { snapshotKindOf } from './snapshot-kind.js';

export interface SnapshotDbOptions {
  sourcesDir: string;
  dbPath: string;
  snapshotId: string;
  publishedAt: string;
  /**
   * The kind the caller expects. The sources decide (snapshot-kind.ts): demo sources make a demo
   * snapshot, real ones a production snapshot, and an expectation they contradict fails the build.
   * Undefined: whatever the sources are.
   */
  kind?: SnapshotKind;
  serviceHost: string;
  /** D; defaults to the manifest's as-of date, else the publish date. */
  asof?: string;
  /** Rejected rows tolerated before the build fails (default 0). */
  maxRejects?: number;
  /** ASSERT_MIN_SCALE: scales the sources' absolute minima (a small test universe); default 1. */
  assertScale?: number;
  progress: Progress;
}

export interface SnapshotDbSummary {
  /** What the sources made (snapshot-kind.ts). */
  kind: SnapshotKind;
  asof: string;
  companies: number;
  rowsRead: Record<string, number>;
  /** What each source gave: records, links, duplicates, skipped rows by reason, unmatched names. */
  tally: SourceTally;
  /** Assertion maxima exceeded. */
  warnings: string[];
  recordCounts: Record<string, number>;
  rejects: RejectLog;
  flagsById: Record<string, number>;
  verdicts: Record<string, number>;
  /** Sources whose previous answers stood in for an empty, blocked or failed latest one (contract 9). */
  carriedForward: { source_id: string; retrieved_at: string; attempted_at: string; reason: string }[];
}

export class BuildError extends Error {
  override name = 'BuildError';
}

/** Sources folder → validated, scored SQLite file at dbPath. Throws BuildError when it must not be published. */
export async function buildSnapshotDb(o: SnapshotDbOptions): Promise<SnapshotDbSummary> {
  const manifest = readManifest(o.sourcesDir);
  const asof = o.asof ?? manifest.asof ?? o.publishedAt.slice(0, 10);
  const times = retrievalTimes(o.sourcesDir, manifest);
  // Hashed before reading: a file that is not the bytes the fetch recorded fails the build at once.
  const sourceFiles = await describeSourceFiles(o.sourcesDir, manifest, (id) => times.get(id)!);
  const rejects = new RejectLog();
  const kindOf = (tickers: Iterable<string>) => snapshotKindOf({ sourcesDir: o.sourcesDir, tickers, manifestKind: manifest.kind, requested: o.kind });
  const data = await loadSources(o.sourcesDir, rejects, o.progress, { kindOf, scale: o.assertScale ?? 1 });
  const maxRejects = o.maxRejects ?? 0;
  if (rejects.count > maxRejects) {
    throw new BuildError(`${rejects.count} rejected rows (allowed: ${maxRejects}; raise with --max-rejects N):\n${rejects.format()}`);
  }
  if (data.companies.size === 0) throw new BuildError('no companies in the sources');

  const companies = computeCompanies(data, asof);
  o.progress.step(`scored ${companies.length} companies`);
  const byTicker = new Map(companies.map((c) => [c.profile.ticker, c]));
  const etfs = computeEtfs(data.etfs, (t) => {
    const c = byTicker.get(t);
    return c && { score: c.score.credibility_score, hasAssurance: c.assurance !== null };
  });
  writeSnapshotDb(o.dbPath, {
    meta: {
      dataset_snapshot_id: o.snapshotId,
      data_asof: asof,
      kind: data.kind,
      published_at: o.publishedAt,
      registry_year: String(data.latestRegistryYear ?? ''),
      service_host: o.serviceHost,
    },
    companies,
    etfs,
    data,
    retrievedAt: (id) => times.get(id)!,
    carriedForward: (id) => manifest.carried_forward?.[id] ?? null,
    sourceFiles,
  });
  o.progress.step('snapshot database written');

  const db = new Database(o.dbPath, { readonly: true });
  try {
    const problems = checkInvariants(db);
    if (problems.length > 0) throw new BuildError(`snapshot invariants violated:\n${problems.slice(0, 50).join('\n')}`);
    const counts = (sql: string) => Object.fromEntries(db.prepare(sql).raw().all() as [string, number][]);
    return {
      kind: data.kind,
      asof,
      companies: companies.length,
      rowsRead: Object.fromEntries([...data.rowsRead.entries()].sort()),
      tally: data.tally,
      warnings: data.warnings,
      recordCounts: counts('SELECT source_id, record_count FROM sources ORDER BY source_id'),
      rejects,
      flagsById: counts('SELECT flag_id, COUNT(*) FROM flags GROUP BY flag_id ORDER BY flag_id'),
      verdicts: counts('SELECT verdict, COUNT(*) FROM companies GROUP BY verdict ORDER BY verdict'),
      carriedForward: (
        db.prepare('SELECT source_id, retrieved_at, carried_forward FROM sources WHERE carried_forward IS NOT NULL ORDER BY source_id').all() as {
          source_id: string;
          retrieved_at: string;
          carried_forward: string;
        }[]
      ).map((r) => ({
        source_id: r.source_id,
        retrieved_at: r.retrieved_at,
        ...(JSON.parse(r.carried_forward) as { attempted_at: string; reason: string }),
      })),
    };
  } finally {
    db.close();
  }
}

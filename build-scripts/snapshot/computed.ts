import type { CbamSector } from '../../src/methodology/cbam.js';
import type { Flag } from '../../src/methodology/flags.js';
import type { Score } from '../../src/methodology/score.js';
import type { SnapshotMeta } from '../../src/snapshot/schema.js';
import type { CompanyRow, ConductRow, GhgDisclosureRow, PenaltyRow } from '../sources/kit/facts.js';
import type { EtfRecord } from './etf-stats.js';
import type { AssuredReport, Sourced, SourceData } from './load-sources.js';
import type { SourceFileRow } from './source-files.js';

/**
 * The facts a snapshot is written from: what the readers yielded, joined on the company and given
 * what the build derives (links, the registry's total, the score and rank). Their own file, so the
 * scorer (compute.ts) and the tables' mappings (table-facts.ts) both read them without importing
 * each other.
 */

export interface ComputedPenalty extends Sourced<PenaltyRow> {
  sourceUrl: string;
}

/** One company's facts before scoring: what the methodology reads comes from these. */
export interface CompanyFactsIn {
  profile: CompanyRow;
  cbamSectors: CbamSector[];
  penalties: ComputedPenalty[];
  /** Newest first, then by record id. */
  conduct: ConductRow[];
  disclosure: (GhgDisclosureRow & { deepLink: string; registryTotal: { total: number; sourceId: string } | null; registryLink: string }) | null;
  carbonFee: { obligated: boolean; basis: string; registryYear: number | null; sourceId: string; deepLink: string; basisTco2e: number | null };
  /** The most recent assured report (contract 3.2: the CPA assurance when a report has both, its verifiers beside it). */
  assurance:
    | (AssuredReport['assurance'] & {
        year: number;
        sourceId: string;
        /** The report itself: the filing's link. */
        deepLink: string;
      })
    | null;
}

/** One company with every derived fact, ready to be written to the snapshot. */
export interface ComputedCompany extends CompanyFactsIn {
  score: Score;
  flags: Flag[];
  rank: number;
  percentile: number;
}

/** Everything a snapshot database is written from (write-db.ts). */
export interface DbContent {
  meta: Omit<SnapshotMeta, 'methodology_version'>;
  companies: ComputedCompany[];
  etfs: EtfRecord[];
  data: SourceData;
  retrievedAt: (sourceId: string) => string;
  /** The manifest's word that a source's previous answers stood in for an empty, blocked or failed one. */
  carriedForward: (sourceId: string) => { attempted_at: string; reason: string } | null;
  sourceFiles: SourceFileRow[];
}

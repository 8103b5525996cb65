import type { AssuranceRecord, CarbonFeeRecord, CompanyRecord, ConductRecord, DisclosureRecord, PenaltyRecord } from '../snapshot/rows.js';
import type { MethodologyInput } from './facts.js';

/**
 * What the methodology reads of a company, as its snapshot rows hold it: the builder scores the
 * rows it is about to write, and an explanation of a change rescores the rows it read back from
 * the two snapshots. One reading of the rows, so the two cannot score the same company apart.
 */
export interface ScoredRows {
  company: Pick<CompanyRecord, 'source_id' | 'cbam_exposed'>;
  disclosure:
    | (Pick<DisclosureRecord, 'year' | 'scope1' | 'scope2' | 'scope3' | 'scope1_verified' | 'scope2_verified' | 'source_id'> & {
        /** The registry's total for the disclosure's year (GF-V01 compares against it); null when unregistered. */
        registry: Pick<NonNullable<DisclosureRecord['registry']>, 'total' | 'source_id'> | null;
      })
    | null;
  assurance: Pick<AssuranceRecord, 'level' | 'year' | 'source_id'> | null;
  carbonFee: Pick<CarbonFeeRecord, 'obligated' | 'source_id'>;
  penalties: readonly Pick<PenaltyRecord, 'date' | 'fine' | 'serious' | 'source_id'>[];
  conduct: readonly Pick<ConductRecord, 'kind' | 'date' | 'source_id'>[];
}

/** The methodology's input from a company's rows, as of the snapshot's `asof` (D). */
export function inputOf(f: ScoredRows, asof: string): MethodologyInput {
  const d = f.disclosure;
  return {
    asof,
    companySourceId: f.company.source_id,
    cbamExposed: f.company.cbam_exposed,
    disclosure: d
      ? {
          year: d.year,
          scope1: d.scope1,
          scope2: d.scope2,
          scope3: d.scope3,
          scope1Verified: d.scope1_verified,
          scope2Verified: d.scope2_verified,
          sourceId: d.source_id,
        }
      : null,
    assurance: f.assurance ? { level: f.assurance.level, year: f.assurance.year, sourceId: f.assurance.source_id } : null,
    carbonFee: { obligated: f.carbonFee.obligated, sourceId: f.carbonFee.source_id },
    penalties: f.penalties.map(penaltyInput),
    conduct: f.conduct.map(conductInput),
    registryTotal: d?.registry ? { total: d.registry.total, sourceId: d.registry.source_id } : null,
  };
}

/** One penalty row as the methodology reads it (an explanation adds them one at a time). */
export const penaltyInput = (p: ScoredRows['penalties'][number]): MethodologyInput['penalties'][number] => ({
  date: p.date,
  fine: p.fine,
  serious: p.serious,
  sourceId: p.source_id,
});

/** One disclosure-conduct row as the methodology reads it. */
export const conductInput = (c: ScoredRows['conduct'][number]): MethodologyInput['conduct'][number] => ({
  kind: c.kind,
  date: c.date,
  sourceId: c.source_id,
});

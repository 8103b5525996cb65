import type { UpdateFrequency } from '../../src/contract/vocabulary.js';
import type { ManifestFile, SourcesManifest } from '../snapshot/sources-manifest.js';
import type { FailureKind } from '../sources/kit/fetch-failure.js';

/**
 * A monthly refresh survives one publisher's bad day (contract section 9): a source that answers
 * empty (the exchanges' GHG datasets answer `[]` between disclosure seasons), is blocked (TWSE's
 * security page), answers a not-found page where data was expected (TWSE's `t187ap46_L_12`) or stays
 * unavailable through its retries keeps its previous good answers, byte for byte, while they are
 * younger than its limit; the registry, the build summary and the pages say so. A changed form
 * (renamed key, other HTML, another encoding, a 4xx) is never carried: it fails.
 */

/** How old a source's previous answers may be, by its update frequency (irregular sources as annual ones). */
export const CARRY_LIMIT_DAYS: Readonly<Record<UpdateFrequency, number>> = {
  daily: 7,
  weekly: 7,
  monthly: 45,
  quarterly: 120,
  annual: 400,
  irregular: 400,
};

/** What the manifest, the registry and the pages say of a source carried forward. */
export interface CarriedForward {
  /** When this fetch tried the publisher and did not get a usable answer. */
  attempted_at: string;
  /** Why: empty, blocked, a not-found page or unavailable, with the publisher's answer in short. */
  reason: string;
}

/** The reason a failure may be carried over, or null when it must fail the fetch. */
export function carryableReason(kind: FailureKind, message: string): string | null {
  if (kind === 'blocked') return `blocked by the publisher (${message})`;
  if (kind === 'not-found') return `a not-found page where data was expected (${message})`;
  if (kind === 'unavailable') return `unavailable after every retry (${message})`;
  return null;
}

export const EMPTY_REASON = 'the publisher answered empty (0 records), as it does between disclosure seasons';

/** The previous fetch's answers of a source and when they were retrieved; null when it was never fetched. */
export function previousAnswers(previous: SourcesManifest, sourceId: string): { files: ManifestFile[]; retrievedAt: string } | null {
  const files = (previous.files ?? []).filter((f) => f.source_id === sourceId && !f.placed_by_hand);
  if (files.length === 0) return null;
  const retrievedAt =
    previous.retrieved_at?.[sourceId] ??
    files
      .map((f) => f.retrieved_at)
      .sort()
      .at(-1)!;
  return { files, retrievedAt };
}

/**
 * Whether the previous answers may stand in: a sentence saying why not (naming their age and the
 * limit), or null when they may.
 */
export function refuseCarry(frequency: UpdateFrequency, previous: { retrievedAt: string } | null, now: Date): string | null {
  const limit = CARRY_LIMIT_DAYS[frequency];
  if (previous === null) return `no previous answers to carry forward (never fetched into this folder)`;
  const days = (now.getTime() - Date.parse(previous.retrievedAt)) / 86_400_000;
  if (days > limit)
    return `the previous answers (retrieved ${previous.retrievedAt}) are ${Math.floor(days)} days old, older than the ${limit}-day limit of a ${frequency} source`;
  return null;
}

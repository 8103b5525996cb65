/**
 * Methodology 1.1: every number of contract section 7 in one place. A change to any of them is a
 * new METHODOLOGY_VERSION. The /methodology resource is rendered from these constants, so the
 * published description and the computation cannot disagree.
 */
import type { Severity, Verdict } from '../contract/vocabulary.js';

export const METHODOLOGY_VERSION = '1.2';

/**
 * The reporting deadline (new in 1.1): sustainability reports, and the GHG figures in them, are due
 * by 31 August for the year before. This is the first day after it: from this day of year(D) on,
 * the expected reporting year E(D) is year(D) − 1; before it, year(D) − 2
 * (`expectedReportingYear` in reporting-year.ts).
 */
export const REPORT_DEADLINE = { month: 9, day: 1 } as const;

export const SCORE_NAME = 'ESG Disclosure Credibility Score';

export const DISCLOSURE = { max: 35, scope12: 20, scope3: 5, timelyRecent: 10, timelyTwoYears: 5 } as const;
export const ASSURANCE = { max: 25, reasonable: 25, limited: 15, none: 0 } as const;
export const COMPLIANCE = {
  max: 30,
  windowMonths: 36,
  perPenalty: 4,
  serious: 6,
  /** Fine tiers on the sum of fines in the window, highest first (NT$). */
  fineTiers: [
    { atLeast: 100_000_000, points: 12 },
    { atLeast: 10_000_000, points: 8 },
    { atLeast: 1_000_000, points: 4 },
  ],
} as const;
export const CONSISTENCY = { max: 10, full: 10, partial: 5, none: 0 } as const;

export const CARBON_FEE_THRESHOLD_TCO2E = 25_000;
/** GF-V01: disclosed scope 1 + 2 may differ from the registry total by at most this fraction. */
export const REGISTRY_TOLERANCE = 0.1;
export const RECENT_PENALTY_MONTHS = 12;
/** 1.2: a disclosure breach (GF-S01) or an FSC sanction (GF-S02) counts as recent for this many months. */
export const RECENT_CONDUCT_MONTHS = 24;
export const REPEAT_PENALTY_COUNT = 3;

/** Score bands of each verdict (contract 3.1), best first. */
export const VERDICT_BANDS = [
  { verdict: 'credible', min: 80, max: 100 },
  { verdict: 'decent', min: 60, max: 79 },
  { verdict: 'questionable', min: 40, max: 59 },
  { verdict: 'poor', min: 0, max: 39 },
] as const satisfies readonly { verdict: Verdict; min: number; max: number }[];

export function verdictFor(score: number): Verdict {
  return VERDICT_BANDS.find((v) => score >= v.min)!.verdict;
}

export const FLAG_CATALOGUE = [
  {
    id: 'GF-F01',
    severity: 'critical',
    label: 'Owes the carbon fee but has no recent emissions disclosure',
    raised_when: 'carbon-fee obligated, and no disclosure with reporting year ≥ E(D)',
    source_of: 'the carbon-fee fact',
  },
  {
    id: 'GF-P02',
    severity: 'critical',
    label: 'Repeated or serious environmental penalties',
    raised_when: '≥ 3 penalties in the last 36 months, or a serious one in the last 36 months',
    source_of: 'the newest penalty of the last 36 months',
  },
  {
    id: 'GF-A01',
    severity: 'warning',
    label: 'Emissions disclosed without external assurance',
    raised_when: 'a disclosure with at least one figure exists, and the company has no assurance',
    source_of: 'the disclosure',
  },
  {
    id: 'GF-P01',
    severity: 'warning',
    label: 'Environmental penalty in the last 12 months',
    raised_when: 'a penalty in the last 12 months',
    source_of: 'that penalty',
  },
  {
    id: 'GF-D01',
    severity: 'warning',
    label: 'Emissions disclosure is out of date',
    raised_when: 'a disclosure exists and its reporting year < E(D)',
    source_of: 'the disclosure',
  },
  {
    id: 'GF-C01',
    severity: 'warning',
    label: 'CBAM-exposed without a scope 1 figure',
    raised_when: 'CBAM-exposed without a scope 1 figure',
    source_of: 'the company source',
  },
  {
    id: 'GF-S01',
    severity: 'warning',
    label: 'Penalised by the exchange for a disclosure breach in the last 24 months',
    raised_when: 'a disclosure breach (kind breach) dated in the last 24 months (new in 1.2)',
    source_of: 'the newest such row',
  },
  {
    id: 'GF-V01',
    severity: 'warning',
    label: 'Disclosed emissions differ from the government GHG registry',
    raised_when: 'disclosed scope 1 + 2 differs by more than 10 % from the government GHG registry total for the same year',
    source_of: 'the registry fact',
  },
  {
    id: 'GF-D02',
    severity: 'info',
    label: 'Scope 3 emissions not disclosed',
    raised_when: 'a disclosure exists and its scope 3 is null',
    source_of: 'the disclosure',
  },
  {
    id: 'GF-S02',
    severity: 'info',
    label: 'An FSC sanction in the company’s case in the last 24 months',
    raised_when: 'an FSC sanction in the company’s case (kind sanction) in the last 24 months (new in 1.2)',
    source_of: 'the newest such row',
  },
] as const satisfies readonly { id: string; severity: Severity; label: string; raised_when: string; source_of: string }[];
export type FlagId = (typeof FLAG_CATALOGUE)[number]['id'];

import type { AssuranceKind, AssuredLevel } from '../../src/contract/vocabulary.js';

/**
 * The shapes the source modules hand to the snapshot builder for the two sources served beyond a
 * GET file (sustainability reports from ESG GenPlus, ETF holdings from SITCA). One place, so the
 * adapters and the builder agree on them.
 */

/** A verifier listed beside the CPA assurance of the same report (contract 3.2 `verifications`). */
export interface Verification {
  provider: string;
  standard: string | null;
}

/**
 * One sustainability-report filing of one company for one report year, as mapped from GenPlus (new
 * or old years) or a hand-placed MOPS CSV. `assurance` is null for a report filed with neither a CPA
 * nor a verifier.
 */
export interface ReportFiling {
  ticker: string;
  /** Gregorian report year. */
  year: number;
  assurance: {
    kind: AssuranceKind;
    provider: string;
    level: AssuredLevel;
    /** The standard as the filing states it (e.g. `確信準則3000號`, `AA1000`). */
    standard: string | null;
    /** Third-party verifiers beside a CPA (empty when kind is third_party or there is none). */
    verifications: Verification[];
  } | null;
  /** Where a person finds this report: the file where a download id exists, else the report page for the company and year. */
  link: string;
  sourceId: string;
}

/** One ETF's holdings for one quarter, as published (SITCA IN2630, or a hand-placed MOPS CSV). */
export interface EtfFund {
  code: string;
  name: string;
  /** The quarter, e.g. `2025Q3`. */
  period: string;
  /** Last day of that quarter, YYYY-MM-DD. */
  asof: string;
  /** The publisher's cut-off as a fraction of net assets (0.01 for SITCA; 0 when every holding is listed). */
  minWeight: number;
  sourceId: string;
  /** In the order published. `weight` is a fraction of net assets. */
  holdings: { code: string; name: string; weight: number }[];
}

import type { AssuranceKind, AssuredLevel, Boundary, ConductKind, MarketType } from '../../../src/contract/vocabulary.js';
import type { CBAM_BY_PRODUCT } from '../../../src/methodology/cbam.js';
import type { DisclosureFacts } from '../../../src/methodology/facts.js';

/**
 * The shapes the source modules hand to the snapshot builder, one per kind a module's reader yields
 * (source.ts, `SourceRead`). One place, so the modules, the module interface and the builder agree on
 * them without importing one another.
 */

/** A company profile from either exchange (SRC-TWSE-COMPANY or SRC-TPEX-COMPANY): the two forms map to one row. */
export interface CompanyRow {
  ticker: string;
  legalName: string;
  shortName: string;
  industryCode: string;
  industry: string;
  uniformNo: string;
  paidInCapital: number | null;
  marketType: MarketType;
  /** When the company was listed on the exchange whose list this is (ISO); null where the list does not say. */
  listedOn: string | null;
  sourceId: string;
}

/** A company's own GHG disclosure for its latest reporting year. */
export interface GhgDisclosureRow extends DisclosureFacts {
  ticker: string;
  reportDate: string;
  scope3Verified: boolean;
  /** Scope 1's 資料邊界 classified (contract 3.2); null where the exchange wrote `N/A`. */
  boundary: Boundary | null;
  /** That 資料邊界 as served (cleaned); null with `boundary`. */
  boundaryText: string | null;
}

/**
 * One record of a company's disclosure conduct (contract 3.2, `disclosure_conduct`): the exchange's
 * penalty for a disclosure breach, or an FSC sanction in its case. Joined on the ticker (the short
 * name may differ from the company list); a code that is not listed is read and counted.
 */
export interface ConductRow {
  ticker: string;
  kind: ConductKind;
  /** 發函日期, ISO. */
  date: string;
  /** 違規事由, cleaned: references decoded, inner line breaks as one space, ends trimmed. */
  summary: string;
  /** The articles named (both article fields of t187ap23 joined by `; `, or 違反法規), null when none. */
  rule: string | null;
  /** NT$ (the dataset's amount in units of NT$10,000 × 10,000); null where the dataset has no amount field. */
  fine: number | null;
  /** 裁處情形 as cleaned, null where the dataset has none. */
  decision: string | null;
  /** Stable within the source: the dataset, the code, the date and a digest of the summary. */
  recordId: string;
  /** The dataset's URL (no record-level link is known). */
  sourceUrl: string;
  sourceId: string;
}

/** One site's registered emissions for one year. */
export interface RegistrySiteRow {
  year: number;
  uniformNo: string;
  industryCode: string;
  /** Direct (scope 1) emissions: the total less the energy-indirect. */
  direct: number;
  indirect: number;
  /** The site's total as served (`tot`): direct + energy-indirect, the carbon-fee basis. */
  total: number;
}

/** One penalty decision, linked to a company by 統一編號 (none for a vehicle or a person). */
export interface PenaltyRow {
  uniformNo: string | null;
  recordId: string;
  /** MOENV, `XXX-EPB`, or the agency's name as served when the table does not know it. */
  agency: string;
  agencyName: string;
  date: string;
  fine: number;
  serious: boolean;
  summary: string;
}

/** A company whose products (not its industry) put it in a CBAM sector. */
export interface CbamProductRow {
  ticker: string;
  sector: (typeof CBAM_BY_PRODUCT)[number];
  product: string;
}

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

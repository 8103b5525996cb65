/**
 * The demo universe in memory: what the generator (build-scripts/demo/) decides and each source's
 * demo writer (build-scripts/sources/<folder>/demo-files.ts) writes in its publisher's layout.
 * Emission figures are integer ten-thousandths of a tonne (see format.ts); dates are whole days
 * (see dates.ts).
 */
import type { DateStyle, Day } from './dates.js';
import type { AssuredLevel, Boundary, MarketType } from '../../src/contract/vocabulary.js';

export type Market = MarketType;
export type Level = AssuredLevel;

export type Assurance =
  | { readonly kind: 'none' }
  | { readonly kind: 'cpa'; readonly firm: string; readonly level: Level }
  | { readonly kind: 'third'; readonly body: string; readonly level: Level };

export interface EsgReport {
  /** Gregorian year the report covers. */
  year: number;
  assurance: Assurance;
  mandatory: boolean;
  uploadDay: Day;
}

export interface Disclosure {
  /** Gregorian reporting year. */
  year: number;
  scope1: number | null;
  scope2: number | null;
  scope3: number | null;
  boundary: Boundary;
  s1Verified: boolean;
  s2Verified: boolean;
  s3Verified: boolean;
  /** Intensity in tq per unit, or null. */
  intensity: number | null;
}

export interface SiteYear {
  /** Gregorian year. */
  year: number;
  /** Direct (scope 1) emissions, tq. */
  direct: number;
  /** Energy-indirect emissions, tq. */
  indirect: number;
}

export interface Site {
  code: string;
  county: number;
  town: string;
  years: SiteYear[];
}

export interface Penalty {
  day: Day;
  transgressDay: Day;
  /** Fine in NT$ (integer). */
  money: number;
  serious: boolean;
  /** Index into COUNTIES, or -1 for the central agency (環境部). */
  agency: number;
  violation: number;
  penaltyStyle: DateStyle;
  transgressStyle: DateStyle;
  /** Print the fine with thousands separators. */
  moneyCommas: boolean;
  /** Running number in the penalty file, fixed once a later month adds penalties (evolve.ts); else by position. */
  serial?: number;
}

/**
 * A fictional record of disclosure conduct (t187ap23 breach, t187ap22 sanction), written in the
 * exchanges' genuine form (sources/disclosure-conduct/demo-files.ts): hard-wrapped text, articles
 * ending in a line break, the fine in units of NT$10,000.
 */
export interface DemoConduct {
  kind: 'breach' | 'sanction';
  day: Day;
  summary: string;
  /** A breach: the material-information article; a sanction: the law. */
  article: string;
  /** A breach's fine, NT$ (a multiple of 1,000); null for a sanction. */
  fine: number | null;
  /** A sanction's decision text. */
  decision: string | null;
}

/** A business with a 統一編號: a universe company or an outside business. */
export interface Business {
  uniformNo: string;
  legalName: string;
  /** Home county (index into COUNTIES). */
  county: number;
  sites: Site[];
  penalties: Penalty[];
}

export interface Company extends Business {
  index: number;
  ticker: string;
  shortName: string;
  market: Market;
  industry: string;
  /** Paid-in capital, NT$. */
  capital: number;
  disclosure: Disclosure | null;
  reports: EsgReport[];
  /** Its disclosure conduct (methodology 1.2), oldest first. */
  conduct: DemoConduct[];
  cbam: { sector: 'aluminium' | 'fertilisers'; product: string } | null;
  /** Id of the deliberate archetype this company is, if any. */
  archetype: string | null;
}

export interface EtfHolding {
  code: string;
  name: string;
  /** Weight in hundredths of a percent (sums to 10000 per ETF). */
  weight: number;
}

export interface Etf {
  code: string;
  name: string;
  year: number;
  quarter: number;
  holdings: EtfHolding[];
}

export interface Universe {
  seed: number;
  asof: Day;
  /** year(asof). */
  year: number;
  companies: Company[];
  others: Business[];
  etfs: Etf[];
}

import type { AssuredLevel, ConductKind } from '../contract/vocabulary.js';
/** The facts about one company that methodology 1.1 reads. Built by the snapshot builder. */
export interface DisclosureFacts {
  year: number;
  scope1: number | null;
  scope2: number | null;
  scope3: number | null;
  scope1Verified: boolean;
  scope2Verified: boolean;
  sourceId: string;
}

export interface PenaltyFacts {
  date: string;
  fine: number;
  serious: boolean;
  sourceId: string;
}

/** 1.2: a row of the company's disclosure conduct (contract 3.2). */
export interface ConductFacts {
  kind: ConductKind;
  date: string;
  sourceId: string;
}

export interface MethodologyInput {
  /** D, the snapshot's data_asof. */
  asof: string;
  companySourceId: string;
  cbamExposed: boolean;
  disclosure: DisclosureFacts | null;
  assurance: { level: AssuredLevel; year: number; sourceId: string } | null;
  carbonFee: { obligated: boolean; sourceId: string };
  /** Every penalty of the company, any order. */
  penalties: PenaltyFacts[];
  /** Every row of its disclosure conduct, any order (1.2). */
  conduct: ConductFacts[];
  /** Registry total (direct + indirect, all sites) for the disclosure's year, if registered. */
  registryTotal: { total: number; sourceId: string } | null;
}

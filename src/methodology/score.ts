import type { MethodologyInput } from './facts.js';
import { subtractMonths, withinLastMonths } from './months.js';
import { expectedReportingYear } from './reporting-year.js';
import type { AssuredLevel, Verdict } from '../contract/vocabulary.js';
import { ASSURANCE, COMPLIANCE, CONSISTENCY, DISCLOSURE, verdictFor } from './rules.js';

export interface ScoreComponent {
  component: 'disclosure' | 'assurance' | 'compliance' | 'consistency';
  points: number;
  max_points: number;
  detail: string;
}

export interface Score {
  credibility_score: number;
  verdict: Verdict;
  score_breakdown: ScoreComponent[];
}

const present = (n: number | null): n is number => n !== null;

/**
 * Why a component scored what it did, as data: the API's English `detail` is written from it
 * (`reasonDetail`), and the pages write it in each reader's language from the same fields, never by
 * translating the English text.
 */
export type ScoreReason =
  | { component: 'disclosure'; kind: 'none'; points: number }
  | { component: 'disclosure'; kind: 'scored'; points: number; scope12: number; scope3: number; year: number; expected: number; timely: number }
  | { component: 'assurance'; kind: 'none'; points: number }
  | { component: 'assurance'; kind: 'stale'; points: number; level: AssuredLevel; year: number; disclosureYear: number }
  | { component: 'assurance'; kind: 'current'; points: number; level: AssuredLevel; year: number }
  | { component: 'compliance'; kind: 'clean'; points: number; since: string }
  | {
      component: 'compliance';
      kind: 'penalised';
      points: number;
      since: string;
      count: number;
      countPoints: number;
      fines: number;
      tier: number;
      serious: number;
    }
  | {
      component: 'consistency';
      kind: 'cbam_no_scope1' | 'not_obligated' | 'obligated_no_disclosure' | 'obligated_verified' | 'obligated_unverified';
      points: number;
    };

const MAX_POINTS: Record<ScoreComponent['component'], number> = {
  disclosure: DISCLOSURE.max,
  assurance: ASSURANCE.max,
  compliance: COMPLIANCE.max,
  consistency: CONSISTENCY.max,
};

function disclosure(input: MethodologyInput): ScoreReason {
  const d = input.disclosure;
  if (!d) return { component: 'disclosure', kind: 'none', points: 0 };
  const e = expectedReportingYear(input.asof);
  const scope12 = present(d.scope1) && present(d.scope2) ? DISCLOSURE.scope12 : 0;
  const scope3 = present(d.scope3) ? DISCLOSURE.scope3 : 0;
  const timely = d.year >= e ? DISCLOSURE.timelyRecent : d.year === e - 1 ? DISCLOSURE.timelyTwoYears : 0;
  return { component: 'disclosure', kind: 'scored', points: scope12 + scope3 + timely, scope12, scope3, year: d.year, expected: e, timely };
}

function assurance(input: MethodologyInput): ScoreReason {
  const a = input.assurance;
  if (!a) return { component: 'assurance', kind: 'none', points: ASSURANCE.none };
  const full = ASSURANCE[a.level];
  if (input.disclosure !== null && a.year < input.disclosure.year) {
    return {
      component: 'assurance',
      kind: 'stale',
      points: Math.floor(full / 2),
      level: a.level,
      year: a.year,
      disclosureYear: input.disclosure.year,
    };
  }
  return { component: 'assurance', kind: 'current', points: full, level: a.level, year: a.year };
}

function compliance(input: MethodologyInput): ScoreReason {
  const inWindow = input.penalties.filter((p) => withinLastMonths(p.date, input.asof, COMPLIANCE.windowMonths));
  const since = subtractMonths(input.asof, COMPLIANCE.windowMonths);
  if (inWindow.length === 0) return { component: 'compliance', kind: 'clean', points: COMPLIANCE.max, since };
  const fines = inWindow.reduce((sum, p) => sum + p.fine, 0);
  const tier = COMPLIANCE.fineTiers.find((t) => fines >= t.atLeast)?.points ?? 0;
  const serious = inWindow.some((p) => p.serious) ? COMPLIANCE.serious : 0;
  const countPoints = COMPLIANCE.perPenalty * inWindow.length;
  const points = Math.max(0, COMPLIANCE.max - countPoints - tier - serious);
  return { component: 'compliance', kind: 'penalised', points, since, count: inWindow.length, countPoints, fines, tier, serious };
}

function consistency(input: MethodologyInput): ScoreReason {
  const d = input.disclosure;
  const c = (kind: Extract<ScoreReason, { component: 'consistency' }>['kind'], points: number): ScoreReason => ({
    component: 'consistency',
    kind,
    points,
  });
  if (input.cbamExposed && (!d || d.scope1 === null)) return c('cbam_no_scope1', CONSISTENCY.none);
  if (!input.carbonFee.obligated) return c('not_obligated', CONSISTENCY.full);
  if (!d) return c('obligated_no_disclosure', CONSISTENCY.none);
  if (present(d.scope1) && present(d.scope2) && d.scope1Verified && d.scope2Verified) return c('obligated_verified', CONSISTENCY.full);
  return c('obligated_unverified', CONSISTENCY.partial);
}

const CONSISTENCY_DETAIL: Record<Extract<ScoreReason, { component: 'consistency' }>['kind'], string> = {
  cbam_no_scope1: 'CBAM-exposed with no scope 1 figure',
  not_obligated: 'not carbon-fee obligated',
  obligated_no_disclosure: 'carbon-fee obligated with no disclosure',
  obligated_verified: 'carbon-fee obligated; scope 1 and 2 disclosed and verified',
  obligated_unverified: 'carbon-fee obligated; scope 1 and 2 not both disclosed and verified',
};

/** The API's `detail` of a component (English, stable): what the score breakdown has always said. */
export function reasonDetail(r: ScoreReason): string {
  switch (r.component) {
    case 'disclosure':
      if (r.kind === 'none') return 'no carbon disclosure';
      return [
        `scope 1 and 2 ${r.scope12 ? 'both disclosed' : 'not both disclosed'} (${r.scope12})`,
        `scope 3 ${r.scope3 ? 'disclosed' : 'not disclosed'} (${r.scope3})`,
        `reporting year ${r.year}, ${r.expected} expected (${r.timely})`,
      ].join('; ');
    case 'assurance':
      if (r.kind === 'none') return 'no assurance';
      if (r.kind === 'stale') return `${r.level} assurance of ${r.year}, older than the ${r.disclosureYear} disclosure: halved`;
      return `${r.level} assurance (${r.year})`;
    case 'compliance':
      if (r.kind === 'clean') return `no penalties after ${r.since}`;
      return (
        `${r.count} penalt${r.count === 1 ? 'y' : 'ies'} after ${r.since} (−${r.countPoints}), fines NT$` +
        `${r.fines.toLocaleString('en-US')} (−${r.tier})${r.serious ? `, serious (−${r.serious})` : ''}`
      );
    case 'consistency':
      return CONSISTENCY_DETAIL[r.kind];
  }
}

/** The four components' reasons, in the order of the breakdown. */
export function scoreReasons(input: MethodologyInput): ScoreReason[] {
  return [disclosure(input), assurance(input), compliance(input), consistency(input)];
}

/** Methodology 1.1 score: four components whose points sum to the score. */
export function scoreCompany(input: MethodologyInput): Score {
  // Keys in the published order: component, points, max_points, detail.
  const score_breakdown = scoreReasons(input).map((r): ScoreComponent => ({
    component: r.component,
    points: r.points,
    max_points: MAX_POINTS[r.component],
    detail: reasonDetail(r),
  }));
  const credibility_score = score_breakdown.reduce((s, c) => s + c.points, 0);
  return { credibility_score, verdict: verdictFor(credibility_score), score_breakdown };
}

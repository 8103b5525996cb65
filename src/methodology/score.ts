import type { MethodologyInput } from './facts.js';
import { subtractMonths, withinLastMonths } from './months.js';
import { expectedReportingYear } from './reporting-year.js';
import type { Verdict } from '../contract/vocabulary.js';
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

/** Builds a component with its keys in the published order. */
function part(component: ScoreComponent['component'], points: number, max_points: number, detail: string): ScoreComponent {
  return { component, points, max_points, detail };
}

function disclosure(input: MethodologyInput): ScoreComponent {
  const d = input.disclosure;
  if (!d) return part('disclosure', 0, DISCLOSURE.max, 'no carbon disclosure');
  const e = expectedReportingYear(input.asof);
  const scope12 = present(d.scope1) && present(d.scope2) ? DISCLOSURE.scope12 : 0;
  const scope3 = present(d.scope3) ? DISCLOSURE.scope3 : 0;
  const timely = d.year >= e ? DISCLOSURE.timelyRecent : d.year === e - 1 ? DISCLOSURE.timelyTwoYears : 0;
  const parts = [
    `scope 1 and 2 ${scope12 ? 'both disclosed' : 'not both disclosed'} (${scope12})`,
    `scope 3 ${scope3 ? 'disclosed' : 'not disclosed'} (${scope3})`,
    `reporting year ${d.year}, ${e} expected (${timely})`,
  ];
  return part('disclosure', scope12 + scope3 + timely, DISCLOSURE.max, parts.join('; '));
}

function assurance(input: MethodologyInput): ScoreComponent {
  const a = input.assurance;
  if (!a) return part('assurance', ASSURANCE.none, ASSURANCE.max, 'no assurance');
  const full = ASSURANCE[a.level];
  const stale = input.disclosure !== null && a.year < input.disclosure.year;
  if (stale) {
    return part('assurance', Math.floor(full / 2), ASSURANCE.max, `${a.level} assurance of ${a.year}, older than the ${input.disclosure!.year} disclosure: halved`);
  }
  return part('assurance', full, ASSURANCE.max, `${a.level} assurance (${a.year})`);
}

function compliance(input: MethodologyInput): ScoreComponent {
  const inWindow = input.penalties.filter((p) => withinLastMonths(p.date, input.asof, COMPLIANCE.windowMonths));
  const fines = inWindow.reduce((sum, p) => sum + p.fine, 0);
  const tier = COMPLIANCE.fineTiers.find((t) => fines >= t.atLeast)?.points ?? 0;
  const serious = inWindow.some((p) => p.serious) ? COMPLIANCE.serious : 0;
  const points = Math.max(0, COMPLIANCE.max - COMPLIANCE.perPenalty * inWindow.length - tier - serious);
  const since = subtractMonths(input.asof, COMPLIANCE.windowMonths);
  const detail =
    inWindow.length === 0
      ? `no penalties after ${since}`
      : `${inWindow.length} penalt${inWindow.length === 1 ? 'y' : 'ies'} after ${since} (−${COMPLIANCE.perPenalty * inWindow.length}), fines NT$${fines.toLocaleString('en-US')} (−${tier})${serious ? `, serious (−${serious})` : ''}`;
  return part('compliance', points, COMPLIANCE.max, detail);
}

function consistency(input: MethodologyInput): ScoreComponent {
  const d = input.disclosure;
  const c = (points: number, detail: string) => part('consistency', points, CONSISTENCY.max, detail);
  if (input.cbamExposed && (!d || d.scope1 === null)) return c(CONSISTENCY.none, 'CBAM-exposed with no scope 1 figure');
  if (!input.carbonFee.obligated) return c(CONSISTENCY.full, 'not carbon-fee obligated');
  if (!d) return c(CONSISTENCY.none, 'carbon-fee obligated with no disclosure');
  if (present(d.scope1) && present(d.scope2) && d.scope1Verified && d.scope2Verified) {
    return c(CONSISTENCY.full, 'carbon-fee obligated; scope 1 and 2 disclosed and verified');
  }
  return c(CONSISTENCY.partial, 'carbon-fee obligated; scope 1 and 2 not both disclosed and verified');
}

/** Methodology 1.1 score: four components whose points sum to the score. */
export function scoreCompany(input: MethodologyInput): Score {
  const score_breakdown = [disclosure(input), assurance(input), compliance(input), consistency(input)];
  const credibility_score = score_breakdown.reduce((s, c) => s + c.points, 0);
  return { credibility_score, verdict: verdictFor(credibility_score), score_breakdown };
}

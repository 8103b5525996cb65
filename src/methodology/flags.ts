import { SEVERITIES, type ConductKind, type Severity } from '../contract/vocabulary.js';
import type { ConductFacts, MethodologyInput, PenaltyFacts } from './facts.js';
import { withinLastMonths } from './months.js';
import { expectedReportingYear } from './reporting-year.js';
import {
  COMPLIANCE,
  FLAG_CATALOGUE,
  RECENT_CONDUCT_MONTHS,
  RECENT_PENALTY_MONTHS,
  REGISTRY_TOLERANCE,
  REPEAT_PENALTY_COUNT,
  type FlagId,
} from './rules.js';

export interface Flag {
  id: FlagId;
  label: string;
  severity: Severity;
  source_id: string;
}

function flag(id: FlagId, sourceId: string): Flag {
  const f = FLAG_CATALOGUE.find((x) => x.id === id)!;
  return { id, label: f.label, severity: f.severity, source_id: sourceId };
}

function newest(penalties: PenaltyFacts[]): PenaltyFacts | undefined {
  return penalties.reduce<PenaltyFacts | undefined>((a, p) => (!a || p.date > a.date ? p : a), undefined);
}

/** Every flag of methodology 1.2 that the facts raise, most severe first, then by id. */
export function flagsFor(input: MethodologyInput): Flag[] {
  const { disclosure: d, asof } = input;
  const e = expectedReportingYear(asof);
  const flags: Flag[] = [];

  if (input.carbonFee.obligated && !(d && d.year >= e)) flags.push(flag('GF-F01', input.carbonFee.sourceId));

  const window = input.penalties.filter((p) => withinLastMonths(p.date, asof, COMPLIANCE.windowMonths));
  if (window.length >= REPEAT_PENALTY_COUNT || window.some((p) => p.serious)) {
    flags.push(flag('GF-P02', newest(window)!.sourceId));
  }
  const recent = newest(input.penalties.filter((p) => withinLastMonths(p.date, asof, RECENT_PENALTY_MONTHS)));
  if (recent) flags.push(flag('GF-P01', recent.sourceId));

  if (d) {
    const anyFigure = d.scope1 !== null || d.scope2 !== null || d.scope3 !== null;
    if (anyFigure && !input.assurance) flags.push(flag('GF-A01', d.sourceId));
    if (d.year < e) flags.push(flag('GF-D01', d.sourceId));
    if (d.scope3 === null) flags.push(flag('GF-D02', d.sourceId));
    const r = input.registryTotal;
    if (r && d.scope1 !== null && d.scope2 !== null && r.total > 0) {
      if (Math.abs(d.scope1 + d.scope2 - r.total) / r.total > REGISTRY_TOLERANCE) flags.push(flag('GF-V01', r.sourceId));
    }
  }
  if (input.cbamExposed && (!d || d.scope1 === null)) flags.push(flag('GF-C01', input.companySourceId));

  // 1.2: how the company has behaved as a discloser, each kind by its newest row of the last 24 months.
  const recentConduct = (kind: ConductKind) =>
    input.conduct
      .filter((c) => c.kind === kind && withinLastMonths(c.date, asof, RECENT_CONDUCT_MONTHS))
      .reduce<ConductFacts | undefined>((a, c) => (!a || c.date > a.date ? c : a), undefined);
  const breach = recentConduct('breach');
  if (breach) flags.push(flag('GF-S01', breach.sourceId));
  const sanction = recentConduct('sanction');
  if (sanction) flags.push(flag('GF-S02', sanction.sourceId));

  return sortFlags(flags);
}

export function sortFlags<T extends { id: string; severity: Severity }>(flags: T[]): T[] {
  return [...flags].sort((a, b) => SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

export const TOP_FLAGS = 3;

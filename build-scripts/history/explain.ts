import type { Cause, ChangeItem, ChangeSide } from '../../src/contract/changes.js';
import type { CauseKind, ScoreComponent } from '../../src/contract/vocabulary.js';
import { SCORE_COMPONENTS } from '../../src/contract/vocabulary.js';
import type { MethodologyInput } from '../../src/methodology/facts.js';
import { withinLastMonths } from '../../src/methodology/months.js';
import { COMPLIANCE, RECENT_CONDUCT_MONTHS, RECENT_PENALTY_MONTHS } from '../../src/methodology/rules.js';
import { scoreCompany } from '../../src/methodology/score.js';
import type { ConductRecord } from '../../src/snapshot/rows.js';
import type { CompanyFacts, PenaltyRecord } from '../../src/snapshot/store.js';

/** What a snapshot contributes to an explanation besides a company's facts. */
export interface Side {
  asof: string;
  methodologyVersion: string;
}

type Points = Record<ScoreComponent, number>;

function pointsOf(breakdown: readonly { component: ScoreComponent; points: number }[]): Points {
  const out = { disclosure: 0, assurance: 0, compliance: 0, consistency: 0 } as Points;
  for (const c of breakdown) out[c.component] = c.points;
  return out;
}

/** The methodology's input, rebuilt from a snapshot's stored facts (what the scorer read when it was built). */
export function inputOf(f: CompanyFacts, asof: string): MethodologyInput {
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
    penalties: f.penalties.map((p) => ({ date: p.date, fine: p.fine, serious: p.serious, sourceId: p.source_id })),
    conduct: f.conduct.map((c) => ({ kind: c.kind, date: c.date, sourceId: c.source_id })),
    registryTotal: d?.registry ? { total: d.registry.total, sourceId: d.registry.source_id } : null,
  };
}

/** A decision's identity is its agency and number (each county numbers its own), with its date. */
const penaltyKey = (p: PenaltyRecord) => `${p.agency_name}\u0000${p.record_id}\u0000${p.date}`;
/** A conduct row's identity is its record id within its source (contract 10, `conduct_new`). */
const conductKey = (c: ConductRecord) => `${c.source_id}\u0000${c.record_id}`;
/** The flag each kind of conduct raises (methodology 1.2). */
const CONDUCT_FLAG = { breach: 'GF-S01', sanction: 'GF-S02' } as const;
/**
 * Whether a methodology version reads the disclosure conduct (1.2 and later). A snapshot built under
 * an earlier one may hold no conduct, or rows its methodology never read, so crossing into 1.2 counts
 * every conduct row as the methodology's, never as a new fact.
 */
export function readsConduct(version: string): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major > 1 || (major === 1 && minor >= 2);
}
const sameDisclosure = (a: CompanyFacts['disclosure'], b: CompanyFacts['disclosure']) =>
  a === b ||
  (a !== null &&
    b !== null &&
    a.year === b.year &&
    a.scope1 === b.scope1 &&
    a.scope2 === b.scope2 &&
    a.scope3 === b.scope3 &&
    a.scope1_verified === b.scope1_verified &&
    a.scope2_verified === b.scope2_verified &&
    a.boundary === b.boundary);
const sameAssurance = (a: CompanyFacts['assurance'], b: CompanyFacts['assurance']) =>
  a === b || (a !== null && b !== null && a.level === b.level && a.year === b.year);

function sideOf(f: CompanyFacts): ChangeSide {
  return { credibility_score: f.company.credibility_score, verdict: f.company.verdict, rank: f.company.rank, flags: f.flags.map((x) => x.flag_id) };
}

const describePenalty = (p: PenaltyRecord) => `penalty ${p.record_id} of ${p.date} (NT$${p.fine}${p.serious ? ', serious' : ''})`;
const describeConduct = (c: ConductRecord) =>
  `${c.kind === 'breach' ? 'disclosure breach' : 'FSC sanction'} ${c.record_id} of ${c.date}${c.fine !== null ? ` (NT$${c.fine})` : ''}`;

/**
 * How an earlier snapshot's penalty stops counting by the later as-of date, if it does: it left the
 * source while in the 36-month window, or it left the 36- or the 12-month window.
 */
function penaltyLeaves(p: PenaltyRecord, stays: boolean, from: Side, to: Side): 'source' | number | null {
  const in36 = withinLastMonths(p.date, from.asof, COMPLIANCE.windowMonths);
  if (!stays && in36) return 'source';
  if (in36 && !withinLastMonths(p.date, to.asof, COMPLIANCE.windowMonths)) return COMPLIANCE.windowMonths;
  if (withinLastMonths(p.date, from.asof, RECENT_PENALTY_MONTHS) && !withinLastMonths(p.date, to.asof, RECENT_PENALTY_MONTHS))
    return RECENT_PENALTY_MONTHS;
  return null;
}

/**
 * What decides whether a company moved, as one string: its score, verdict, CBAM exposure and flags,
 * and the facts the score reads (disclosure, assurance, carbon fee, the set of penalties, the set of
 * disclosure-conduct rows with their dates). Two
 * snapshots' keys are equal exactly when `unmoved` compares equal fields; the history database
 * keeps each company's key, so the next build reads earlier facts only for the companies whose key
 * moved (or whose penalties may have left a window).
 */
export function factsKey(f: CompanyFacts): string {
  const c = f.company;
  const d = f.disclosure;
  const a = f.assurance;
  return JSON.stringify([
    c.credibility_score,
    c.verdict,
    c.cbam_exposed,
    f.flags.map((x) => x.flag_id),
    d && [d.year, d.scope1, d.scope2, d.scope3, d.scope1_verified, d.scope2_verified, d.boundary],
    a && [a.level, a.year],
    f.carbonFee.obligated,
    f.penalties.map(penaltyKey).sort(),
    f.conduct.map((x) => `${conductKey(x)}\u0000${x.date}`).sort(),
  ]);
}

/** No penalty of these leaves a window between the two as-of dates (all of them stay in the source). */
const noPenaltyLeaves = (penalties: readonly PenaltyRecord[], from: Side, to: Side) =>
  penalties.every((p) => penaltyLeaves(p, true, from, to) === null);

/**
 * True when explainChange would find nothing to list: the same score, verdict, flags and
 * methodology, the same facts, and no penalty leaving a window. Decided without scoring, which is
 * what an explanation costs; explainChange's own test at its end gives the same answer for these.
 */
export function unmoved(before: CompanyFacts, after: CompanyFacts, from: Side, to: Side): boolean {
  return unmovedSince(factsKey(before), after, factsKey(after), from, to);
}

/**
 * `unmoved` from the earlier snapshot's facts key alone (as the history database keeps it): equal
 * keys mean the same penalties, so whether one leaves a window can be read off the later facts.
 */
export function unmovedSince(beforeKey: string, after: CompanyFacts, afterKey: string, from: Side, to: Side): boolean {
  return from.methodologyVersion === to.methodologyVersion && beforeKey === afterKey && noPenaltyLeaves(after.penalties, from, to);
}

/**
 * Why a conduct flag (GF-S01, GF-S02) cleared, as a clause for its `flag_cleared` cause: the rows of
 * its kind that counted at the earlier date and no longer do, each having left the 24-month window
 * or the source. The contract has no kind of its own for this: the flag's clearing is the cause.
 */
function conductLeft(flagId: string, before: CompanyFacts, after: CompanyFacts, from: Side, to: Side): string {
  const kind = (Object.keys(CONDUCT_FLAG) as (keyof typeof CONDUCT_FLAG)[]).find((k) => CONDUCT_FLAG[k] === flagId);
  if (!kind || !readsConduct(from.methodologyVersion)) return '';
  const stays = new Set(after.conduct.map(conductKey));
  const left = before.conduct
    .filter((c) => c.kind === kind && withinLastMonths(c.date, from.asof, RECENT_CONDUCT_MONTHS))
    .map((c) =>
      !stays.has(conductKey(c))
        ? `${describeConduct(c)} is no longer in the source`
        : !withinLastMonths(c.date, to.asof, RECENT_CONDUCT_MONTHS)
          ? `${describeConduct(c)} left the ${RECENT_CONDUCT_MONTHS}-month window`
          : null,
    )
    .filter((x): x is string => x !== null);
  return left.length ? ` (${left.join('; ')})` : '';
}

/**
 * Explains one company's move by applying the differences between its two snapshots one at a time
 * to the methodology's input, in a fixed order, and scoring after each step: each step's point
 * change per component is a cause. The steps telescope from the earlier score to the later one, so
 * the causes' points always sum to the score delta, and each cause that comes from a fact carries
 * that fact's `source_id`. Returns null when nothing that matters moved (a rank-only mover).
 */
export function explainChange(ticker: string, before: CompanyFacts | null, after: CompanyFacts | null, from: Side, to: Side): ChangeItem | null {
  // Most companies do not move from one month to the next: settle those without scoring.
  if (before && after && unmoved(before, after, from, to)) return null;
  return explainInFull(ticker, before, after, from, to);
}

/** explainChange without its shortcut for unmoved companies (exported so a test can hold the two equal). */
export function explainInFull(ticker: string, before: CompanyFacts | null, after: CompanyFacts | null, from: Side, to: Side): ChangeItem | null {
  if (!before && !after) return null;
  if (!before || !after) {
    const f = (after ?? before)!;
    // `0 - x`, not `-1 * x`: a removed company's zero stays 0, never -0 (which JSON would not show).
    const signed = (x: number) => (after ? x : 0 - x);
    const kind: CauseKind = after ? 'company_added' : 'company_removed';
    const causes = f.company.score_breakdown.map((c) => ({
      kind,
      component: c.component,
      points: signed(c.points),
      source_id: f.company.source_id,
      detail: after
        ? `${f.company.company_name} entered the universe (${c.component}: ${c.points} points)`
        : `${f.company.company_name} left the universe (${c.component}: ${c.points} points no longer counted)`,
    }));
    return {
      ticker,
      company_name: f.company.company_name,
      change: after ? 'added' : 'removed',
      before: before ? sideOf(before) : null,
      after: after ? sideOf(after) : null,
      score_delta: signed(f.company.credibility_score),
      causes,
    };
  }

  const causes: Cause[] = [];
  let state = inputOf(before, from.asof);
  let points = pointsOf(before.company.score_breakdown);
  let factsMoved = false;
  /** Moves to `next`, turning each component's point change into a cause; no change at all still records a fact cause. */
  const step = (next: MethodologyInput, kind: CauseKind, sourceId: string | null, detail: string, pointless = true) => {
    const now = pointsOf(scoreCompany(next).score_breakdown);
    let moved = false;
    for (const c of SCORE_COMPONENTS) {
      if (now[c] === points[c]) continue;
      causes.push({
        kind,
        component: c,
        points: now[c] - points[c],
        source_id: sourceId,
        detail: `${detail} (${c} ${now[c] > points[c] ? '+' : ''}${now[c] - points[c]})`,
      });
      moved = true;
    }
    if (!moved && pointless) causes.push({ kind, component: null, points: null, source_id: sourceId, detail });
    state = next;
    points = now;
  };

  // 1. The methodology itself: a new version rescores the earlier facts on the earlier date, against
  //    the earlier snapshot's own points (what its version gave), so the later steps run under the new one.
  //    Crossing into 1.2, the disclosure conduct is read for the first time: its rows (new in the
  //    snapshot because their sources are) are the methodology's, not new facts, and GF-S01/GF-S02 with them.
  const conductAsMethodology = !readsConduct(from.methodologyVersion) && readsConduct(to.methodologyVersion);
  if (from.methodologyVersion !== to.methodologyVersion) {
    const version = `methodology ${from.methodologyVersion} → ${to.methodologyVersion}`;
    if (conductAsMethodology)
      step(
        { ...state, conduct: inputOf(after, to.asof).conduct },
        'methodology_changed',
        null,
        `${version}: disclosure conduct now read (GF-S01, GF-S02)`,
      );
    else step(state, 'methodology_changed', null, version);
  }

  // 2. Penalties leaving the windows as the as-of date moves, or leaving the source, one at a time.
  const afterKeys = new Set(after.penalties.map(penaltyKey));
  const beforeKeys = new Set(before.penalties.map(penaltyKey));
  const asFacts = (ps: PenaltyRecord[]) => ps.map((p) => ({ date: p.date, fine: p.fine, serious: p.serious, sourceId: p.source_id }));
  let remaining = before.penalties;
  for (const p of before.penalties) {
    const stays = afterKeys.has(penaltyKey(p));
    const leaves = penaltyLeaves(p, stays, from, to);
    if (leaves === null) continue;
    const why = leaves === 'source' ? `${describePenalty(p)} is no longer in the source` : `${describePenalty(p)} left the ${leaves}-month window`;
    factsMoved = true;
    if (stays && withinLastMonths(p.date, to.asof, COMPLIANCE.windowMonths)) {
      // Out of the 12-month window only: it still counts for compliance, so it moves flags, not points.
      causes.push({ kind: 'penalty_aged_out', component: null, points: null, source_id: p.source_id, detail: why });
      continue;
    }
    // Counted out at the earlier date already, so the step's points are this penalty's alone.
    remaining = remaining.filter((x) => x !== p);
    step({ ...state, penalties: asFacts(remaining) }, 'penalty_aged_out', p.source_id, why);
  }

  // 3. The as-of date itself: timeliness of the same disclosure once E(D) moves (past the reporting deadline).
  if (from.asof !== to.asof)
    step({ ...state, asof: to.asof }, 'timeliness', after.disclosure?.source_id ?? null, `as-of date ${from.asof} → ${to.asof}`, false);

  // 4. New penalties, oldest first, one at a time.
  const added = after.penalties
    .filter((p) => !beforeKeys.has(penaltyKey(p)))
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.record_id < b.record_id ? -1 : 1));
  for (const p of added) {
    factsMoved = true;
    step({ ...state, penalties: [...state.penalties, ...asFacts([p])] }, 'penalty_new', p.source_id, `new ${describePenalty(p)}`);
  }

  // 4b. New disclosure-conduct rows (by source and record id), oldest first, one at a time (none when crossing into 1.2).
  if (!conductAsMethodology) {
    const beforeConduct = new Set(before.conduct.map(conductKey));
    const newConduct = after.conduct
      .filter((c) => !beforeConduct.has(conductKey(c)))
      .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.record_id < b.record_id ? -1 : 1));
    for (const c of newConduct) {
      factsMoved = true;
      step(
        { ...state, conduct: [...state.conduct, { kind: c.kind, date: c.date, sourceId: c.source_id }] },
        'conduct_new',
        c.source_id,
        `new ${describeConduct(c)}`,
      );
    }
  }

  const target = inputOf(after, to.asof);
  // 5. The carbon disclosure (its registry comparison moves with it).
  if (!sameDisclosure(before.disclosure, after.disclosure)) {
    factsMoved = true;
    const d = after.disclosure;
    const kind: CauseKind = before.disclosure === null ? 'disclosure_new' : 'disclosure_changed';
    const detail = d === null ? 'carbon disclosure withdrawn' : `${kind === 'disclosure_new' ? 'new' : 'corrected'} carbon disclosure for ${d.year}`;
    step(
      { ...state, disclosure: target.disclosure, registryTotal: target.registryTotal },
      kind,
      d?.source_id ?? before.disclosure!.source_id,
      detail,
    );
  }
  // 6. Assurance.
  if (!sameAssurance(before.assurance, after.assurance)) {
    factsMoved = true;
    const a = after.assurance;
    const detail = a
      ? `assurance now ${a.level} (${a.year})${before.assurance ? `, was ${before.assurance.level} (${before.assurance.year})` : ''}`
      : 'assurance withdrawn';
    step({ ...state, assurance: target.assurance }, 'assurance_changed', (a ?? before.assurance)!.source_id, detail);
  }
  // 7. Carbon-fee obligation.
  if (before.carbonFee.obligated !== after.carbonFee.obligated) {
    factsMoved = true;
    step(
      { ...state, carbonFee: target.carbonFee },
      'carbon_fee_changed',
      after.carbonFee.source_id,
      after.carbonFee.obligated ? `now carbon-fee obligated: ${after.carbonFee.basis}` : 'no longer carbon-fee obligated',
    );
  }
  // 8. CBAM exposure comes from the methodology's sector mapping: whatever points are left are the methodology's.
  const finalPoints = pointsOf(after.company.score_breakdown);
  const mapping =
    before.company.cbam_exposed !== after.company.cbam_exposed
      ? `CBAM exposure ${after.company.cbam_exposed ? 'added' : 'removed'} by the methodology's sector mapping`
      : 'methodology inputs changed';
  let residual = false;
  for (const c of SCORE_COMPONENTS) {
    if (finalPoints[c] === points[c]) continue;
    causes.push({
      kind: 'methodology_changed',
      component: c,
      points: finalPoints[c] - points[c],
      source_id: null,
      detail: `${mapping} (${c} ${finalPoints[c] > points[c] ? '+' : ''}${finalPoints[c] - points[c]})`,
    });
    residual = true;
  }
  if (before.company.cbam_exposed !== after.company.cbam_exposed) {
    factsMoved = true;
    if (!residual) causes.push({ kind: 'methodology_changed', component: null, points: null, source_id: null, detail: mapping });
  }

  // Flags raised and cleared (they move no points).
  const beforeFlags = new Map(before.flags.map((f) => [f.flag_id, f]));
  const afterFlags = new Map(after.flags.map((f) => [f.flag_id, f]));
  for (const f of after.flags)
    if (!beforeFlags.has(f.flag_id))
      causes.push({ kind: 'flag_raised', component: null, points: null, source_id: f.source_id, detail: `${f.flag_id} raised: ${f.label}` });
  for (const f of before.flags)
    if (!afterFlags.has(f.flag_id))
      causes.push({
        kind: 'flag_cleared',
        component: null,
        points: null,
        source_id: f.source_id,
        detail: `${f.flag_id} cleared: ${f.label}${conductLeft(f.flag_id, before, after, from, to)}`,
      });

  const delta = after.company.credibility_score - before.company.credibility_score;
  const flagsMoved = beforeFlags.size !== afterFlags.size || causes.some((c) => c.kind === 'flag_raised' || c.kind === 'flag_cleared');
  if (delta === 0 && before.company.verdict === after.company.verdict && !flagsMoved && !factsMoved) return null;
  return {
    ticker,
    company_name: after.company.company_name,
    change: 'changed',
    before: sideOf(before),
    after: sideOf(after),
    score_delta: delta,
    // A cause that moved no points and says nothing beyond the facts' own causes is dropped (the as-of date moving alone).
    causes: causes.filter((c) => c.kind !== 'timeliness' || c.points !== null),
  };
}

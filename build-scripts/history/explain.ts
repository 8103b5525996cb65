import type { Cause, ChangeItem, ChangeSide } from '../../src/contract/changes.js';
import type { CauseKind, ScoreComponent } from '../../src/contract/vocabulary.js';
import { SCORE_COMPONENTS } from '../../src/contract/vocabulary.js';
import type { MethodologyInput } from '../../src/methodology/facts.js';
import { conductInput, inputOf, penaltyInput } from '../../src/methodology/input-of.js';
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
  if (!before || !after) return enteredOrLeft(ticker, before, after);
  const walk = new Walk(before, after, from, to);
  for (const step of STEPS) step.run(walk);
  return walk.item(ticker);
}

/** A company that entered or left the universe: each component of its score is a cause. */
function enteredOrLeft(ticker: string, before: CompanyFacts | null, after: CompanyFacts | null): ChangeItem {
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

/**
 * One explanation under way: the methodology's input as moved so far from the earlier snapshot's
 * towards the later one's, its points, and the causes found. Each step (STEPS) moves it by one kind
 * of difference; `move` scores after each and turns the points that moved into causes.
 */
class Walk {
  readonly causes: Cause[] = [];
  /** Whether a fact the score reads moved (a company whose only move is its rank has none). */
  factsMoved = false;
  state: MethodologyInput;
  points: Points;
  /** The later snapshot's input, whose parts the fact steps take over one at a time. */
  readonly target: MethodologyInput;
  /**
   * Crossing into 1.2 the disclosure conduct is read for the first time: its rows (new in the
   * snapshot because their sources are) are the methodology's, not new facts, and GF-S01/GF-S02 with them.
   */
  readonly conductAsMethodology: boolean;

  constructor(
    readonly before: CompanyFacts,
    readonly after: CompanyFacts,
    readonly from: Side,
    readonly to: Side,
  ) {
    this.state = inputOf(before, from.asof);
    this.points = pointsOf(before.company.score_breakdown);
    this.target = inputOf(after, to.asof);
    this.conductAsMethodology = !readsConduct(from.methodologyVersion) && readsConduct(to.methodologyVersion);
  }

  /** Moves to `next`, turning each component's point change into a cause; no change at all still records a fact cause. */
  move(next: MethodologyInput, kind: CauseKind, sourceId: string | null, detail: string, pointless = true): void {
    const now = pointsOf(scoreCompany(next).score_breakdown);
    let moved = false;
    for (const c of SCORE_COMPONENTS) {
      if (now[c] === this.points[c]) continue;
      this.causes.push({
        kind,
        component: c,
        points: now[c] - this.points[c],
        source_id: sourceId,
        detail: `${detail} (${c} ${now[c] > this.points[c] ? '+' : ''}${now[c] - this.points[c]})`,
      });
      moved = true;
    }
    if (!moved && pointless) this.causes.push({ kind, component: null, points: null, source_id: sourceId, detail });
    this.state = next;
    this.points = now;
  }

  /** A cause that moves no points. */
  note(kind: CauseKind, sourceId: string | null, detail: string): void {
    this.causes.push({ kind, component: null, points: null, source_id: sourceId, detail });
  }

  /** The change item, or null when nothing that matters moved (a rank-only mover). */
  item(ticker: string): ChangeItem | null {
    const { before, after, causes } = this;
    const delta = after.company.credibility_score - before.company.credibility_score;
    const flagsMoved = before.flags.length !== after.flags.length || causes.some((c) => c.kind === 'flag_raised' || c.kind === 'flag_cleared');
    if (delta === 0 && before.company.verdict === after.company.verdict && !flagsMoved && !this.factsMoved) return null;
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
}

const byDateThenRecord = (a: { date: string; record_id: string }, b: { date: string; record_id: string }) =>
  a.date < b.date ? -1 : a.date > b.date ? 1 : a.record_id < b.record_id ? -1 : 1;

/**
 * 1. The methodology itself: a new version rescores the earlier facts on the earlier date, against
 * the earlier snapshot's own points (what its version gave), so the later steps run under the new one.
 */
function methodologyStep(w: Walk): void {
  if (w.from.methodologyVersion === w.to.methodologyVersion) return;
  const version = `methodology ${w.from.methodologyVersion} → ${w.to.methodologyVersion}`;
  if (w.conductAsMethodology)
    w.move({ ...w.state, conduct: w.target.conduct }, 'methodology_changed', null, `${version}: disclosure conduct now read (GF-S01, GF-S02)`);
  else w.move(w.state, 'methodology_changed', null, version);
}

/** 2. Penalties leaving the windows as the as-of date moves, or leaving the source, one at a time. */
function penaltiesLeavingStep(w: Walk): void {
  const afterKeys = new Set(w.after.penalties.map(penaltyKey));
  let remaining = w.before.penalties;
  for (const p of w.before.penalties) {
    const stays = afterKeys.has(penaltyKey(p));
    const leaves = penaltyLeaves(p, stays, w.from, w.to);
    if (leaves === null) continue;
    const why = leaves === 'source' ? `${describePenalty(p)} is no longer in the source` : `${describePenalty(p)} left the ${leaves}-month window`;
    w.factsMoved = true;
    if (stays && withinLastMonths(p.date, w.to.asof, COMPLIANCE.windowMonths)) {
      // Out of the 12-month window only: it still counts for compliance, so it moves flags, not points.
      w.note('penalty_aged_out', p.source_id, why);
      continue;
    }
    // Counted out at the earlier date already, so the step's points are this penalty's alone.
    remaining = remaining.filter((x) => x !== p);
    w.move({ ...w.state, penalties: remaining.map(penaltyInput) }, 'penalty_aged_out', p.source_id, why);
  }
}

/** 3. The as-of date itself: timeliness of the same disclosure once E(D) moves (past the reporting deadline). */
function asofStep(w: Walk): void {
  if (w.from.asof === w.to.asof) return;
  w.move({ ...w.state, asof: w.to.asof }, 'timeliness', w.after.disclosure?.source_id ?? null, `as-of date ${w.from.asof} → ${w.to.asof}`, false);
}

/** 4. New penalties, oldest first, one at a time. */
function newPenaltiesStep(w: Walk): void {
  const beforeKeys = new Set(w.before.penalties.map(penaltyKey));
  for (const p of w.after.penalties.filter((x) => !beforeKeys.has(penaltyKey(x))).sort(byDateThenRecord)) {
    w.factsMoved = true;
    w.move({ ...w.state, penalties: [...w.state.penalties, penaltyInput(p)] }, 'penalty_new', p.source_id, `new ${describePenalty(p)}`);
  }
}

/** 4b. New disclosure-conduct rows (by source and record id), oldest first, one at a time (none when crossing into 1.2). */
function newConductStep(w: Walk): void {
  if (w.conductAsMethodology) return;
  const beforeConduct = new Set(w.before.conduct.map(conductKey));
  for (const c of w.after.conduct.filter((x) => !beforeConduct.has(conductKey(x))).sort(byDateThenRecord)) {
    w.factsMoved = true;
    w.move({ ...w.state, conduct: [...w.state.conduct, conductInput(c)] }, 'conduct_new', c.source_id, `new ${describeConduct(c)}`);
  }
}

/** 5. The carbon disclosure (its registry comparison moves with it). */
function disclosureStep(w: Walk): void {
  const { before, after } = w;
  if (sameDisclosure(before.disclosure, after.disclosure)) return;
  w.factsMoved = true;
  const d = after.disclosure;
  const kind: CauseKind = before.disclosure === null ? 'disclosure_new' : 'disclosure_changed';
  const detail = d === null ? 'carbon disclosure withdrawn' : `${kind === 'disclosure_new' ? 'new' : 'corrected'} carbon disclosure for ${d.year}`;
  w.move(
    { ...w.state, disclosure: w.target.disclosure, registryTotal: w.target.registryTotal },
    kind,
    d?.source_id ?? before.disclosure!.source_id,
    detail,
  );
}

/** 6. Assurance. */
function assuranceStep(w: Walk): void {
  const { before, after } = w;
  if (sameAssurance(before.assurance, after.assurance)) return;
  w.factsMoved = true;
  const a = after.assurance;
  const detail = a
    ? `assurance now ${a.level} (${a.year})${before.assurance ? `, was ${before.assurance.level} (${before.assurance.year})` : ''}`
    : 'assurance withdrawn';
  w.move({ ...w.state, assurance: w.target.assurance }, 'assurance_changed', (a ?? before.assurance)!.source_id, detail);
}

/** 7. Carbon-fee obligation. */
function carbonFeeStep(w: Walk): void {
  const fee = w.after.carbonFee;
  if (w.before.carbonFee.obligated === fee.obligated) return;
  w.factsMoved = true;
  w.move(
    { ...w.state, carbonFee: w.target.carbonFee },
    'carbon_fee_changed',
    fee.source_id,
    fee.obligated ? `now carbon-fee obligated: ${fee.basis}` : 'no longer carbon-fee obligated',
  );
}

/** 8. CBAM exposure comes from the methodology's sector mapping: whatever points are left are the methodology's. */
function residualStep(w: Walk): void {
  const { before, after } = w;
  const finalPoints = pointsOf(after.company.score_breakdown);
  const exposureMoved = before.company.cbam_exposed !== after.company.cbam_exposed;
  const mapping = exposureMoved
    ? `CBAM exposure ${after.company.cbam_exposed ? 'added' : 'removed'} by the methodology's sector mapping`
    : 'methodology inputs changed';
  let residual = false;
  for (const c of SCORE_COMPONENTS) {
    if (finalPoints[c] === w.points[c]) continue;
    w.causes.push({
      kind: 'methodology_changed',
      component: c,
      points: finalPoints[c] - w.points[c],
      source_id: null,
      detail: `${mapping} (${c} ${finalPoints[c] > w.points[c] ? '+' : ''}${finalPoints[c] - w.points[c]})`,
    });
    residual = true;
  }
  if (exposureMoved) {
    w.factsMoved = true;
    if (!residual) w.note('methodology_changed', null, mapping);
  }
}

/** 9. Flags raised and cleared (they move no points). */
function flagsStep(w: Walk): void {
  const { before, after } = w;
  const beforeFlags = new Set(before.flags.map((f) => f.flag_id));
  const afterFlags = new Set(after.flags.map((f) => f.flag_id));
  for (const f of after.flags) if (!beforeFlags.has(f.flag_id)) w.note('flag_raised', f.source_id, `${f.flag_id} raised: ${f.label}`);
  for (const f of before.flags)
    if (!afterFlags.has(f.flag_id))
      w.note('flag_cleared', f.source_id, `${f.flag_id} cleared: ${f.label}${conductLeft(f.flag_id, before, after, w.from, w.to)}`);
}

/**
 * The steps of an explanation, in the order they apply the differences: the fixed order is what
 * makes the causes telescope from the earlier score to the later one (their points sum to the delta).
 */
const STEPS: readonly { name: string; run: (w: Walk) => void }[] = [
  { name: 'methodology version', run: methodologyStep },
  { name: 'penalties leaving a window or the source', run: penaltiesLeavingStep },
  { name: 'as-of date', run: asofStep },
  { name: 'new penalties', run: newPenaltiesStep },
  { name: 'new disclosure conduct', run: newConductStep },
  { name: 'carbon disclosure', run: disclosureStep },
  { name: 'assurance', run: assuranceStep },
  { name: 'carbon-fee obligation', run: carbonFeeStep },
  { name: 'CBAM exposure and what the methodology leaves', run: residualStep },
  { name: 'flags raised and cleared', run: flagsStep },
];

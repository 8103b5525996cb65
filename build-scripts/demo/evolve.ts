/**
 * The demo's next month: a universe derived from an earlier one by seeded, documented events, so
 * that a second demo snapshot differs from the first in every way the changes feed explains
 * (contract 10). It works on the in-memory model, before anything is written, so it holds whatever
 * format the files take. Same universe and seed in, same universe out.
 *
 * The events, each on the first company (archetypes aside, in code order) that it fits, every
 * company used once:
 *  - the as-of date moves one month. Past the reporting deadline (from 31 August to 30 September),
 *    E(D), the expected reporting year, moves on: disclosures for the old E(D) become a year late
 *    (5 timeliness points lost, GF-D01), older ones later still (timeliness). Into a new calendar
 *    year (from December), the GHG registry publishes the new year, each site repeating its last
 *    year's figures;
 *  - new penalties: three companies each get one dated in the new month (a small fine, a serious
 *    NT$2M one, a NT$12M one);
 *  - penalties age out: nothing to do, the date moving is enough; the events name one company
 *    whose penalty leaves the 36-month window and one whose penalty leaves the 12-month window
 *    (when the universe has such penalties; the 1,800-company demo does);
 *  - a new disclosure: a company that disclosed nothing publishes scopes 1–3 for the expected
 *    reporting year;
 *  - a corrected disclosure: a company on time lacking scope 3 adds it and corrects scope 1 by +5 %;
 *  - an assurance upgrade: a company's latest limited assurance becomes reasonable;
 *  - a new carbon-fee obligation: a manufacturer's largest site reaches 30,000 t CO2e in the
 *    registry's latest year (a new year, or a revised one);
 *  - a CBAM mapping change: the project's curated product list adds a company's aluminium
 *    extrusions (the mapping is part of the methodology, so this is a methodology change);
 *  - a delisting: a company no ETF holds leaves the universe (its business stays in the
 *    government files);
 *  - a new listing: a business joins with a new ticker.
 */
import { addMonths, formatIsoDay, type Day, yearOf } from '../demo-model/dates.js';
import { tq } from '../demo-model/format.js';
import { tickerFor, uniformNoFor } from './ids.js';
import type { Company, Penalty, Universe } from '../demo-model/model.js';
import { legalName } from '../demo-model/names.js';
import { Rng } from '../demo-model/random.js';
import { CBAM_BY_INDUSTRY } from '../../src/methodology/cbam.js';
import { expectedReportingYear } from '../../src/methodology/reporting-year.js';
import { addConduct } from './archetype-kit.js';

export type DemoEventKind =
  | 'asof'
  | 'registry_year'
  | 'penalty_new'
  | 'conduct_new'
  | 'penalty_ages_out_36'
  | 'penalty_ages_out_12'
  | 'disclosure_new'
  | 'disclosure_corrected'
  | 'assurance_upgrade'
  | 'carbon_fee_new'
  | 'cbam_mapping'
  | 'delisting'
  | 'listing';

export interface DemoEvent {
  kind: DemoEventKind;
  /** The company concerned (null for the date itself). */
  ticker: string | null;
  detail: string;
}

const LIABLE_TQ = tq(25_000);
const isManufacturing = (code: string) => Number(code.slice(0, 2)) >= 8 && Number(code.slice(0, 2)) <= 34;
/** "Last N months" of contract 7: dates in (D − N months, D]. */
const within = (day: Day, D: Day, months: number) => day > addMonths(D, -months) && day <= D;

/**
 * Numbers every penalty as the penalty file does (companies then outside businesses, each by date
 * then fine), so decision numbers stay the same from one month to the next while penalties are added.
 */
function numberPenalties(u: Universe): number {
  const all = [...u.companies, ...u.others].flatMap((b) => b.penalties);
  // An evolved month's penalties are numbered already; only a generated one's are numbered here.
  // A loop, not Math.max(...): at 100,000 companies the spread would overflow the call stack.
  if (all.some((p) => p.serial !== undefined)) return all.reduce((m, p) => Math.max(m, p.serial ?? 0), 0);
  let serial = 0;
  for (const list of [u.companies, u.others]) {
    for (const b of list) for (const p of [...b.penalties].sort((x, y) => x.day - y.day || x.money - y.money)) p.serial = ++serial;
  }
  return serial;
}

/** What every step of a month's evolution reads and adds to. */
interface Month {
  base: Universe;
  /** The evolved universe, changed in place by each step. */
  u: Universe;
  D1: Day;
  D2: Day;
  /** E(D) at the new as-of date. */
  E2: number;
  /** Whether the new as-of date is in a new calendar year, so the registry publishes a year. */
  newRegistryYear: boolean;
  rng: Rng;
  /** The last penalty decision number given. */
  serial: number;
  events: DemoEvent[];
  /** The first company (archetypes aside) not used by an earlier event that fits; it is then used. */
  pick: (fits: (c: Company) => boolean) => Company | null;
}

export function evolveUniverse(base: Universe): { universe: Universe; events: DemoEvent[] } {
  const month = startMonth(base);
  // The steps run in this order: each picks the first unused company that fits, so the order decides who is picked.
  agePenalties(month);
  addPenalties(month);
  addFirstDisclosure(month);
  correctDisclosure(month);
  upgradeAssurance(month);
  addCarbonFeeObligation(month);
  addCbamMapping(month);
  delist(month);
  listNewCompany(month);
  // Picked last, so that no earlier event's company changes.
  addDisclosureBreach(month);
  return { universe: month.u, events: month.events };
}

/** Clones the universe and moves its date one month, with the registry year when it turns. */
function startMonth(base: Universe): Month {
  const u: Universe = structuredClone(base);
  const serial = numberPenalties(u);
  const D1 = u.asof;
  const D2 = addMonths(D1, 1);
  u.asof = D2;
  u.year = yearOf(D2);
  const events: DemoEvent[] = [];
  const rng = Rng.of(u.seed, 'evolve', 0);
  const used = new Set<string>();
  const pick = (fits: (c: Company) => boolean): Company | null => {
    const c = u.companies.find((x) => x.archetype === null && !used.has(x.ticker) && fits(x)) ?? null;
    if (c) used.add(c.ticker);
    return c;
  };

  // E(D), the expected reporting year (methodology 1.1), moves on 1 September.
  const E1 = expectedReportingYear(formatIsoDay(D1));
  const E2 = expectedReportingYear(formatIsoDay(D2));
  events.push({
    kind: 'asof',
    ticker: null,
    detail:
      E2 !== E1
        ? `as-of date ${formatIsoDay(D1)} → ${formatIsoDay(D2)}, past the reporting deadline: E(D) ${E1} → ${E2}, disclosures for ${E1} now a year late`
        : `as-of date ${formatIsoDay(D1)} → ${formatIsoDay(D2)} (E(D) stays ${E2})`,
  });
  const newRegistryYear = u.year !== yearOf(D1);
  if (newRegistryYear) publishRegistryYear(u, events);
  return { base, u, D1, D2, E2, newRegistryYear, rng, serial, events, pick };
}

/** The registry's newest year is year(D) − 1: each site repeats its last year's figures for it. */
function publishRegistryYear(u: Universe, events: DemoEvent[]): void {
  for (const b of [...u.companies, ...u.others]) {
    for (const s of b.sites) {
      const last = s.years.at(-1);
      if (last && last.year === u.year - 2) s.years.push({ ...last, year: u.year - 1 });
    }
  }
  events.push({ kind: 'registry_year', ticker: null, detail: `registry year ${u.year - 1} published` });
}

/** Nothing changes but the date: the events name a company whose penalty leaves each window. */
function agePenalties({ D1, D2, pick, events }: Month): void {
  const aged36 = pick((c) => c.penalties.some((p) => within(p.day, D1, 36) && !within(p.day, D2, 36)));
  if (aged36) events.push({ kind: 'penalty_ages_out_36', ticker: aged36.ticker, detail: 'a penalty leaves the 36-month window' });
  const aged12 = pick((c) => c.penalties.some((p) => within(p.day, D1, 12) && !within(p.day, D2, 12) && within(p.day, D2, 36)));
  if (aged12) events.push({ kind: 'penalty_ages_out_12', ticker: aged12.ticker, detail: 'a penalty leaves the 12-month window' });
}

/** Three companies with no penalty in the 36-month window each get one dated in the new month. */
function addPenalties(month: Month): void {
  const { D1, D2, rng, pick, events } = month;
  const fines: [number, boolean][] = [
    [80_000, false],
    [2_000_000, true],
    [12_000_000, false],
  ];
  for (const [money, serious] of fines) {
    const c = pick((x) => x.penalties.every((p) => !within(p.day, D1, 36)));
    if (!c) continue;
    const day = D2 - rng.int(0, 20);
    const p: Penalty = {
      day,
      transgressDay: day - rng.int(10, 60),
      money,
      serious,
      agency: c.county,
      violation: rng.int(0, 3),
      penaltyStyle: 'iso',
      transgressStyle: 'iso',
      moneyCommas: false,
      serial: ++month.serial,
    };
    c.penalties.push(p);
    events.push({ kind: 'penalty_new', ticker: c.ticker, detail: `new penalty of ${formatIsoDay(day)}: NT$${money}${serious ? ', serious' : ''}` });
  }
}

function addFirstDisclosure({ E2, pick, events }: Month): void {
  const fresh = pick((c) => c.disclosure === null && c.cbam === null);
  if (!fresh) return;
  fresh.disclosure = {
    year: E2,
    scope1: tq(12_000),
    scope2: tq(8_000),
    scope3: tq(30_000),
    boundary: 'consolidated',
    s1Verified: true,
    s2Verified: true,
    s3Verified: false,
    intensity: null,
  };
  events.push({ kind: 'disclosure_new', ticker: fresh.ticker, detail: `first carbon disclosure, for ${E2}` });
}

function correctDisclosure({ E2, pick, events }: Month): void {
  const corrected = pick((c) => c.disclosure !== null && c.disclosure.scope3 === null && c.disclosure.scope1 !== null && c.disclosure.year >= E2);
  if (!corrected) return;
  const d = corrected.disclosure!;
  corrected.disclosure = { ...d, scope1: Math.round(d.scope1! * 1.05), scope3: tq(5_000) };
  events.push({
    kind: 'disclosure_corrected',
    ticker: corrected.ticker,
    detail: `disclosure for ${d.year} corrected: scope 1 +5 %, scope 3 added`,
  });
}

function upgradeAssurance({ pick, events }: Month): void {
  const upgraded = pick((c) => {
    const latest = [...c.reports].reverse().find((r) => r.assurance.kind !== 'none');
    return latest !== undefined && latest.assurance.kind !== 'none' && latest.assurance.level === 'limited';
  });
  if (!upgraded) return;
  const r = [...upgraded.reports].reverse().find((x) => x.assurance.kind !== 'none')!;
  if (r.assurance.kind !== 'none') r.assurance = { ...r.assurance, level: 'reasonable' };
  events.push({
    kind: 'assurance_upgrade',
    ticker: upgraded.ticker,
    detail: `assurance of the ${r.year} report upgraded from limited to reasonable`,
  });
}

/** A manufacturer below the threshold (and not a power company) has its site reach 30,000 t in the registry's latest year. */
function addCarbonFeeObligation({ u, newRegistryYear, pick, events }: Month): void {
  const newest = (c: Company) => c.sites.flatMap((s) => s.years.filter((y) => y.year === u.year - 1));
  const liable = pick(
    (c) =>
      c.sites.some((s) => isManufacturing(s.code) && s.years.some((y) => y.year === u.year - 1)) &&
      !c.sites.some((s) => s.code.startsWith('35')) &&
      newest(c).every((y) => y.direct + y.indirect < LIABLE_TQ),
  );
  if (!liable) return;
  const site = liable.sites.find((s) => isManufacturing(s.code) && s.years.some((y) => y.year === u.year - 1))!;
  const y = site.years.find((x) => x.year === u.year - 1)!;
  y.direct = tq(30_000) - y.indirect > 0 ? tq(30_000) - y.indirect : tq(30_000);
  events.push({
    kind: 'carbon_fee_new',
    ticker: liable.ticker,
    detail: `site ${site.code} reaches 30,000 t CO2e in ${u.year - 1}${newRegistryYear ? '' : ' (the registry revises that year)'}: carbon-fee obligated`,
  });
}

function addCbamMapping({ pick, events }: Month): void {
  const mapped = pick((c) => c.cbam === null && c.disclosure === null && c.sites.length === 0 && !(c.industry in CBAM_BY_INDUSTRY));
  if (!mapped) return;
  mapped.cbam = { sector: 'aluminium', product: '鋁擠型材' };
  events.push({
    kind: 'cbam_mapping',
    ticker: mapped.ticker,
    detail: 'the curated CBAM product list (part of the methodology) adds its aluminium extrusions',
  });
}

/** A company no ETF holds leaves the universe; its business stays in the government files. */
function delist({ u, pick, events }: Month): void {
  const held = new Set(u.etfs.flatMap((e) => e.holdings.map((h) => h.code)));
  const delisted = pick((c) => !held.has(c.ticker));
  if (!delisted) return;
  u.companies = u.companies.filter((c) => c !== delisted);
  const { uniformNo, legalName: name, county, sites, penalties } = delisted;
  u.others.push({ uniformNo, legalName: name, county, sites, penalties });
  events.push({ kind: 'delisting', ticker: delisted.ticker, detail: 'delisted; the business stays in the government files' });
}

function listNewCompany({ base, u, events }: Month): void {
  // The next index after every company listed so far (a delisted one's ticker is never reused).
  const index = [...u.companies, ...base.companies].reduce((m, c) => Math.max(m, c.index + 1), base.companies.length);
  const shortName = `晨曦示範${index}`;
  const listed: Company = {
    index,
    ticker: tickerFor(index, index),
    uniformNo: uniformNoFor(u.seed, 9_999_999 - index),
    shortName,
    legalName: legalName(shortName),
    market: 'otc',
    industry: base.companies[0]!.industry,
    capital: 500_000_000,
    county: 0,
    sites: [],
    penalties: [],
    disclosure: null,
    reports: [],
    conduct: [],
    cbam: null,
    archetype: null,
  };
  u.companies.push(listed);
  events.push({ kind: 'listing', ticker: listed.ticker, detail: 'newly listed; no disclosure or report yet' });
}

/** 1.2: the exchange penalises a company for a disclosure breach this month (a conduct_new cause, GF-S01). */
function addDisclosureBreach({ D2, pick, events }: Month): void {
  const breached = pick((c) => c.conduct.length === 0);
  if (!breached) return;
  addConduct(breached, D2 - 3, 'breach', 30_000);
  events.push({ kind: 'conduct_new', ticker: breached.ticker, detail: `new disclosure breach of ${formatIsoDay(D2 - 3)}: NT$30000` });
}

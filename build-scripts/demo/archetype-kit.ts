/**
 * Small builders the archetypes use to state their facts plainly (tonnes and NT$ in, model out).
 */
import { addMonths, type DateStyle, type Day, fromYmd } from '../demo-model/dates.js';
import { tq } from '../demo-model/format.js';
import type { Assurance, Company, Level } from '../demo-model/model.js';
import { COUNTIES, CPA_FIRMS, THIRD_PARTY_BODIES } from '../demo-model/names.js';
import type { Rng } from '../demo-model/random.js';
import type { Boundary } from '../../src/contract/vocabulary.js';

export interface Ctx {
  /** D, the as-of day. */
  readonly D: Day;
  /** year(D). The GHG registry's years are Y − 2 and Y − 1. */
  readonly Y: number;
  /** E(D), the expected reporting year (methodology 1.1): Y − 1 from 1 September, else Y − 2. */
  readonly E: number;
  readonly rng: Rng;
}

/** Registry site with its years: `{ [year]: [direct, indirect] }` in tonnes. */
export function addSite(c: Company, code: string, years: Record<number, readonly [number, number]>): void {
  const list = Object.keys(years)
    .map(Number)
    .sort((a, b) => a - b)
    .map((year) => {
      const v = years[year] as readonly [number, number];
      return { year, direct: tq(v[0]), indirect: tq(v[1]) };
    });
  const county = COUNTIES[c.county];
  c.sites.push({ code, county: c.county, town: county?.towns[c.sites.length % county.towns.length] ?? '', years: list });
}

/** Sum of the company's registry sites for a year, tq: [direct, indirect]. */
export function registrySums(c: Company, year: number): [number, number] {
  let direct = 0;
  let indirect = 0;
  for (const s of c.sites)
    for (const y of s.years)
      if (y.year === year) {
        direct += y.direct;
        indirect += y.indirect;
      }
  return [direct, indirect];
}

export interface DiscOpts {
  s3?: boolean;
  v1?: boolean;
  v2?: boolean;
  boundary?: Boundary;
}

/** A disclosure with explicit figures in tonnes (null = empty). */
export function setDisclosure(c: Company, year: number, s1: number | null, s2: number | null, s3: number | null, o: DiscOpts = {}): void {
  c.disclosure = {
    year,
    scope1: s1 === null ? null : tq(s1),
    scope2: s2 === null ? null : tq(s2),
    scope3: s3 === null ? null : tq(s3),
    boundary: o.boundary ?? 'consolidated',
    s1Verified: s1 !== null && (o.v1 ?? true),
    s2Verified: s2 !== null && (o.v2 ?? true),
    s3Verified: false,
    intensity: tq(1.2345),
  };
}

/** A full disclosure with plausible figures (about `total` t scope 1 + 2). */
export function fullDisclosure(c: Company, x: Ctx, year: number, total: number, o: DiscOpts = {}): void {
  const s1 = Math.round(total * 0.3 * 1000) / 1000;
  const s2 = Math.round((total - s1) * 1000) / 1000;
  setDisclosure(c, year, s1, s2, o.s3 === false ? null : Math.round(total * x.rng.range(1.5, 4)), o);
}

/** A disclosure equal to `factor` × the registry total of that year (split as the registry). */
export function matchedDisclosure(c: Company, year: number, factor: number, o: DiscOpts = {}): void {
  const [d, i] = registrySums(c, year);
  const s1 = Math.round(d * factor);
  const s2 = Math.round(i * factor);
  c.disclosure = {
    year,
    scope1: s1,
    scope2: s2,
    scope3: o.s3 === false ? null : Math.round((s1 + s2) * 2.5),
    boundary: o.boundary ?? 'consolidated',
    s1Verified: o.v1 ?? true,
    s2Verified: o.v2 ?? true,
    s3Verified: false,
    intensity: tq(0.5678),
  };
}

export type AssuranceSpec = 'none' | 'cpa-limited' | 'cpa-reasonable' | 'tp-limited' | 'tp-reasonable';

export function assurance(spec: AssuranceSpec, rng: Rng): Assurance {
  if (spec === 'none') return { kind: 'none' };
  const [kind, level] = spec.split('-') as ['cpa' | 'tp', Level];
  return kind === 'cpa' ? { kind: 'cpa', firm: rng.pick(CPA_FIRMS), level } : { kind: 'third', body: rng.pick(THIRD_PARTY_BODIES), level };
}

/** Upload day of the report covering `year`: mid-August of the next year, never after D. */
export const uploadDay = (year: number, D: Day, rng: Rng): Day => Math.min(D, fromYmd(year + 1, rng.int(6, 8), rng.int(1, 28)));

export function addReport(c: Company, x: Ctx, year: number, spec: AssuranceSpec): void {
  c.reports.push({ year, assurance: assurance(spec, x.rng), mandatory: c.market === 'listed', uploadDay: uploadDay(year, x.D, x.rng) });
}

export interface PenOpts {
  serious?: boolean;
  style?: DateStyle;
  commas?: boolean;
}

/** A penalty decided on `day` (fine in NT$). */
export function addPenalty(c: Company, x: Ctx, day: Day, money: number, o: PenOpts = {}): void {
  const style = o.style ?? x.rng.pick<DateStyle>(['iso', 'rocSlash', 'rocCompact']);
  c.penalties.push({
    day,
    transgressDay: day - x.rng.int(20, 120),
    money,
    serious: o.serious ?? false,
    agency: c.county,
    violation: x.rng.int(0, 6),
    penaltyStyle: style,
    transgressStyle: style,
    moneyCommas: o.commas ?? false,
  });
}

/** D shifted by months (clamped) and then days. */
export const monthsBefore = (x: Ctx, months: number, plusDays = 0): Day => addMonths(x.D, -months) + plusDays;

/**
 * A record of disclosure conduct (methodology 1.2): a breach penalised by the exchange (a fine in NT$),
 * or an FSC sanction (its decision as text, a person's name masked as the FSC writes it).
 */
export function addConduct(c: Company, day: Day, kind: 'breach' | 'sanction', fine: number | null = null): void {
  c.conduct.push(
    kind === 'breach'
      ? {
          kind,
          day,
          summary: `該公司延遲發布董事會通過財務報告之重大訊息，已違反「對有價證券上市公司重大訊息之查證暨公開處理程序」之規定，故處以違約金新臺幣 ${(fine ?? 0) / 10_000} 萬元。`,
          article: '4條1項31款',
          fine,
          decision: null,
        }
      : { kind, day, summary: '內部人事前申報持股異常案件', article: '證券交易法第22條之2', fine: null, decision: '處陳○○罰鍰8萬元' },
  );
  c.conduct.sort((a, b) => a.day - b.day);
}

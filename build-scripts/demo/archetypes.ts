/**
 * Deliberate companies that make every branch of methodology 1.1 (api-v1 §7.1) and every flag
 * (§7.2) occur, whatever the size of the universe. They are the first companies (indexes 0…), so
 * their tickers are fixed for a given `companies` count (D1101… up to 8,000 companies).
 *
 * Reporting years are stated against E(D), the expected reporting year (`x.E`), so a company is as
 * timely (or as late) whatever the date. The GHG registry's years stay year(D) − 2 and year(D) − 1
 * (`x.Y`): E(D) is the registry's latest year from 1 September, its older year before.
 *
 * `expect` is what methodology 1.1 should give with D = asof on or after 1 September (E(D) =
 * year(D) − 1, as the default demo's 31 October); `expectBeforeDeadline`, where it differs, with D
 * before it (E(D) = year(D) − 2, as the evolving demo's first month, 31 August): `expectedResult`
 * picks one. They assume: the latest registry year is year(D) − 1; a company's assurance is that of
 * its latest ESG report (assurance is never dropped in a later year, so "latest report" and "latest
 * assured report" agree); CBAM by industry 01/10/23 or a cbam_products row.
 */
import {
  addConduct as conduct,
  addPenalty as pen,
  addReport as report,
  addSite as site,
  type Ctx,
  fullDisclosure as full,
  matchedDisclosure as matched,
  monthsBefore as before,
  setDisclosure as disclose,
} from './archetype-kit.js';
import type { Company, Market } from '../demo-model/model.js';
import { expectedReportingYear } from '../../src/methodology/reporting-year.js';

export interface ExpectedResult {
  readonly score: number;
  readonly flags: readonly string[];
}

export interface Archetype {
  readonly id: string;
  readonly industry: string;
  readonly market: Market;
  readonly cbam?: { sector: 'aluminium' | 'fertilisers'; product: string };
  /** Expected methodology 1.1 result with D on or after 1 September (E(D) = year(D) − 1). */
  readonly expect: ExpectedResult;
  /** Expected result with D before 1 September (E(D) = year(D) − 2), where it differs from `expect`. */
  readonly expectBeforeDeadline?: ExpectedResult;
  build(c: Company, x: Ctx): void;
}

/** The result an archetype should have in a universe as of `asof` (`YYYY-MM-DD`). */
export function expectedResult(a: Archetype, asof: string): ExpectedResult {
  const beforeDeadline = expectedReportingYear(asof) === Number(asof.slice(0, 4)) - 2;
  return (beforeDeadline && a.expectBeforeDeadline) || a.expect;
}

const a = (
  id: string,
  industry: string,
  market: Market,
  score: number,
  flags: string[],
  build: (c: Company, x: Ctx) => void,
  cbam?: Archetype['cbam'],
): Archetype => ({ id, industry, market, expect: { score, flags }, build, ...(cbam ? { cbam } : {}) });

export const ARCHETYPES: readonly Archetype[] = [
  // Conduct older than 24 months raises nothing (1.2); the first archetypes carry some, so that every
  // conduct file of even a small demo holds a record (an empty answer fails a build).
  a('perfect', '28', 'listed', 100, [], (c, x) => {
    full(c, x, x.E, 8000);
    report(c, x, x.E, 'cpa-reasonable');
    conduct(c, before(x, 36), 'breach', 20_000);
    conduct(c, before(x, 40), 'sanction');
  }),
  a('obligated-all-verified', '24', 'listed', 100, [], (c, x) => {
    site(c, '2611', { [x.Y - 2]: [51000, 119000], [x.Y - 1]: [54000, 126000] });
    matched(c, x.E, 1.02);
    report(c, x, x.E, 'tp-reasonable');
  }),
  a('obligated-one-unverified', '03', 'otc', 80, ['GF-D02'], (c, x) => {
    conduct(c, before(x, 37), 'breach', 10_000);
    conduct(c, before(x, 41), 'sanction');
    site(c, '1830', { [x.Y - 2]: [52000, 36000], [x.Y - 1]: [54000, 36000] });
    matched(c, x.E, 0.99, { v2: false, s3: false });
    report(c, x, x.E, 'cpa-limited');
  }),
  a('obligated-no-disclosure', '03', 'listed', 30, ['GF-F01'], (c, x) => {
    site(c, '1830', { [x.Y - 2]: [38000, 20000], [x.Y - 1]: [40000, 20000] });
  }),
  a('obligated-old-disclosure', '21', 'listed', 80, ['GF-D01', 'GF-F01'], (c, x) => {
    site(c, '1810', { [x.Y - 2]: [30000, 20000], [x.Y - 1]: [30500, 20000] });
    full(c, x, x.E - 2, 49000);
    report(c, x, x.E - 2, 'cpa-limited');
  }),
  a('obligated-disclosure-y2', '26', 'otc', 65, ['GF-A01', 'GF-D01', 'GF-D02', 'GF-F01'], (c, x) => {
    site(c, '2641', { [x.Y - 2]: [8000, 32000], [x.Y - 1]: [8400, 33600] });
    // 98 % of the registry's year(D) − 2, which is E − 1 from 1 September (before it, the registry has no E − 1).
    disclose(c, x.E - 1, 8000 * 0.98, 32000 * 0.98, null);
    report(c, x, x.E - 1, 'none');
  }),
  a('cbam-cement-no-scope1', '01', 'listed', 55, ['GF-C01', 'GF-D02'], (c, x) => {
    disclose(c, x.E, null, 5234.5, null);
    report(c, x, x.E, 'cpa-limited');
  }),
  a(
    'cbam-aluminium-no-disclosure',
    '20',
    'otc',
    30,
    ['GF-C01'],
    (c, x) => {
      report(c, x, x.E, 'none');
    },
    { sector: 'aluminium', product: '鋁擠型材' },
  ),
  a(
    'cbam-fertiliser-with-scope1',
    '21',
    'listed',
    90,
    [],
    (c, x) => {
      full(c, x, x.E, 21000);
      report(c, x, x.E, 'tp-limited');
    },
    { sector: 'fertilisers', product: '尿素' },
  ),
  a('cbam-steel-obligated-verified', '10', 'listed', 95, ['GF-D02'], (c, x) => {
    site(c, '2411', { [x.Y - 2]: [700000, 180000], [x.Y - 1]: [720000, 180000] });
    site(c, '2412', { [x.Y - 2]: [12000, 17000], [x.Y - 1]: [12500, 17500] });
    matched(c, x.E, 1.01, { s3: false });
    report(c, x, x.E, 'cpa-reasonable');
  }),
  a('cbam-steel-obligated-no-disclosure', '10', 'otc', 30, ['GF-C01', 'GF-F01'], (c, x) => {
    site(c, '2412', { [x.Y - 2]: [24000, 20000], [x.Y - 1]: [25000, 20000] });
  }),
  a('gas-supplier-small-35xx-site', '23', 'otc', 90, [], (c, x) => {
    site(c, '3520', { [x.Y - 2]: [6000, 1500], [x.Y - 1]: [6400, 1600] });
    matched(c, x.E, 1);
    report(c, x, x.E, 'cpa-limited');
  }),
  a('site-exactly-25000', '09', 'listed', 85, [], (c, x) => {
    site(c, '1702', { [x.Y - 2]: [14000, 10000], [x.Y - 1]: [15000, 10000] });
    matched(c, x.E, 1, { v2: false });
    report(c, x, x.E, 'tp-limited');
  }),
  a('sites-sum-over-each-under', '04', 'otc', 85, ['GF-D02'], (c, x) => {
    site(c, '1120', { [x.Y - 2]: [5000, 9800], [x.Y - 1]: [5000, 10000] });
    site(c, '1840', { [x.Y - 2]: [7000, 6900], [x.Y - 1]: [7000, 7000] });
    matched(c, x.E, 1.02, { s3: false });
    report(c, x, x.E, 'cpa-limited');
  }),
  a('liable-only-in-older-year', '08', 'listed', 75, ['GF-A01'], (c, x) => {
    site(c, '2311', { [x.Y - 2]: [30000, 10000], [x.Y - 1]: [14000, 6000] });
    matched(c, x.E, 1);
    report(c, x, x.E, 'none');
  }),
  a('just-under-threshold', '11', 'otc', 100, [], (c, x) => {
    site(c, '2101', { [x.Y - 2]: [14000, 10000], [x.Y - 1]: [14999.9999, 10000] });
    matched(c, x.E, 1);
    report(c, x, x.E, 'tp-reasonable');
  }),
  a('registry-mismatch-high', '24', 'listed', 90, ['GF-V01'], (c, x) => {
    site(c, '2611', { [x.Y - 2]: [58000, 232000], [x.Y - 1]: [60000, 240000] });
    matched(c, x.E, 1.25);
    report(c, x, x.E, 'cpa-limited');
  }),
  a('registry-mismatch-low', '28', 'otc', 85, ['GF-D02', 'GF-V01'], (c, x) => {
    site(c, '2630', { [x.Y - 2]: [2300, 9200], [x.Y - 1]: [2400, 9600] });
    matched(c, x.E, 0.8, { s3: false });
    report(c, x, x.E, 'cpa-limited');
  }),
  a('registry-close-9pct', '26', 'listed', 90, [], (c, x) => {
    site(c, '2641', { [x.Y - 2]: [3900, 15600], [x.Y - 1]: [4000, 16000] });
    matched(c, x.E, 1.09);
    report(c, x, x.E, 'tp-limited');
  }),
  // GF-V01 against the registry's older year (not its latest): that year is E − 1 from 1 September
  // (late: GF-D01, 5 timeliness points), and E itself before it (on time, no GF-D01).
  {
    ...a('registry-mismatch-older-year', '05', 'otc', 80, ['GF-D01', 'GF-D02', 'GF-V01'], (c, x) => {
      site(c, '2810', { [x.Y - 2]: [2500, 7500], [x.Y - 1]: [2600, 7800] });
      matched(c, x.Y - 2, 1.3, { s3: false });
      report(c, x, x.Y - 2, 'cpa-limited');
    }),
    expectBeforeDeadline: { score: 85, flags: ['GF-D02', 'GF-V01'] },
  },
  a('report-without-assurance', '31', 'listed', 75, ['GF-A01'], (c, x) => {
    full(c, x, x.E, 3000);
    report(c, x, x.E, 'none');
  }),
  a('no-report-at-all', '22', 'otc', 75, ['GF-A01'], (c, x) => {
    full(c, x, x.E, 2500);
  }),
  a('assured-year-older-reasonable', '25', 'listed', 87, [], (c, x) => {
    full(c, x, x.E, 4000);
    report(c, x, x.E - 1, 'cpa-reasonable');
  }),
  a('assured-year-older-limited', '27', 'otc', 77, ['GF-D02'], (c, x) => {
    full(c, x, x.E, 3500, { s3: false });
    report(c, x, x.E - 2, 'tp-limited');
  }),
  a('scope2-null', '30', 'listed', 65, ['GF-D02'], (c, x) => {
    disclose(c, x.E, 120.25, null, null);
    report(c, x, x.E, 'cpa-limited');
  }),
  a('scope1-null-not-cbam', '29', 'otc', 55, ['GF-A01'], (c, x) => {
    disclose(c, x.E, null, 640.5, 3100);
    report(c, x, x.E, 'none');
  }),
  a('three-penalties-36m', '02', 'listed', 78, ['GF-P02'], (c, x) => {
    full(c, x, x.E, 12000);
    report(c, x, x.E, 'cpa-limited');
    pen(c, x, before(x, 30), 100_000);
    pen(c, x, before(x, 20), 60_000);
    pen(c, x, before(x, 14), 200_000);
  }),
  a('serious-penalty-36m', '04', 'listed', 80, ['GF-P02'], (c, x) => {
    full(c, x, x.E, 30000);
    report(c, x, x.E, 'cpa-limited');
    pen(c, x, before(x, 20), 300_000, { serious: true });
  }),
  // 1.2: a breach penalised by the exchange 3 months ago (GF-S01) and an FSC sanction 5 months ago (GF-S02); no points change.
  a('penalty-last-12m', '14', 'otc', 86, ['GF-P01', 'GF-S01', 'GF-S02'], (c, x) => {
    full(c, x, x.E, 1500);
    report(c, x, x.E, 'tp-limited');
    pen(c, x, before(x, 2), 50_000);
    conduct(c, before(x, 3), 'breach', 30_000);
    conduct(c, before(x, 5), 'sanction');
  }),
  a('penalty-exactly-36m-before', '15', 'listed', 90, [], (c, x) => {
    full(c, x, x.E, 90000);
    report(c, x, x.E, 'cpa-limited');
    pen(c, x, before(x, 36), 80_000, { style: 'rocSlash' });
    pen(c, x, before(x, 60), 40_000, { style: 'iso' });
  }),
  a('penalty-36m-before-plus-1-day', '16', 'otc', 86, [], (c, x) => {
    full(c, x, x.E, 4000);
    report(c, x, x.E, 'cpa-limited');
    pen(c, x, before(x, 36, 1), 80_000, { style: 'rocCompact' });
  }),
  a('penalty-exactly-12m-before', '18', 'listed', 86, [], (c, x) => {
    full(c, x, x.E, 5000);
    report(c, x, x.E, 'cpa-limited');
    pen(c, x, before(x, 12), 70_000, { style: 'iso' });
  }),
  a('penalty-12m-before-plus-1-day', '20', 'otc', 86, ['GF-P01'], (c, x) => {
    full(c, x, x.E, 2000);
    report(c, x, x.E, 'tp-limited');
    pen(c, x, before(x, 12, 1), 70_000, { style: 'rocSlash' });
  }),
  a('penalty-on-asof', '32', 'listed', 86, ['GF-P01'], (c, x) => {
    full(c, x, x.E, 300);
    report(c, x, x.E, 'cpa-limited');
    pen(c, x, x.D, 30_000, { style: 'rocCompact' });
  }),
  a('fines-exactly-1m', '06', 'otc', 78, [], (c, x) => {
    full(c, x, x.E, 9000);
    report(c, x, x.E, 'cpa-limited');
    pen(c, x, before(x, 25), 600_000, { commas: true });
    pen(c, x, before(x, 16), 400_000);
  }),
  a('fines-just-under-1m', '12', 'listed', 86, [], (c, x) => {
    full(c, x, x.E, 15000);
    report(c, x, x.E, 'cpa-limited');
    pen(c, x, before(x, 18), 999_000);
  }),
  a('fines-exactly-10m', '21', 'otc', 74, [], (c, x) => {
    full(c, x, x.E, 20000);
    report(c, x, x.E, 'cpa-limited');
    pen(c, x, before(x, 30), 6_000_000, { commas: true });
    pen(c, x, before(x, 15), 4_000_000);
  }),
  a('fines-exactly-100m-serious', '23', 'listed', 68, ['GF-P02'], (c, x) => {
    full(c, x, x.E, 300000);
    report(c, x, x.E, 'cpa-limited');
    pen(c, x, before(x, 24), 100_000_000, { serious: true, commas: true });
  }),
  a('worst', '03', 'otc', 0, ['GF-F01', 'GF-P01', 'GF-P02'], (c, x) => {
    site(c, '1830', { [x.Y - 2]: [50000, 20000], [x.Y - 1]: [50000, 20000] });
    pen(c, x, before(x, 1), 20_000_000, { serious: true });
    pen(c, x, before(x, 5), 30_000_000, { commas: true });
    pen(c, x, before(x, 10), 40_000_000);
    pen(c, x, before(x, 20), 10_000_000);
    pen(c, x, before(x, 26), 15_000_000);
    pen(c, x, before(x, 33), 5_000_000);
  }),
  a('tie-a', '35', 'listed', 85, ['GF-D02'], (c, x) => {
    full(c, x, x.E, 1800, { s3: false });
    report(c, x, x.E, 'cpa-limited');
  }),
  a('tie-b', '36', 'otc', 85, ['GF-D02'], (c, x) => {
    full(c, x, x.E, 900, { s3: false });
    report(c, x, x.E, 'tp-limited');
  }),
  a('disclosure-y2-not-obligated', '37', 'listed', 85, ['GF-D01'], (c, x) => {
    full(c, x, x.E - 1, 2600);
    report(c, x, x.E - 1, 'cpa-limited');
  }),
  a('nothing-at-all', '38', 'otc', 40, [], () => {}),
  a('old-penalties-only', '17', 'listed', 100, [], (c, x) => {
    full(c, x, x.E, 2000);
    report(c, x, x.E, 'tp-reasonable');
    pen(c, x, before(x, 48), 1_000_000, { commas: true });
    pen(c, x, before(x, 60), 500_000, { serious: true });
    pen(c, x, before(x, 84), 200_000);
    pen(c, x, before(x, 108), 100_000);
    // A breach exactly 24 months old no longer raises GF-S01, nor a sanction of 30 months GF-S02 (1.2).
    conduct(c, before(x, 24), 'breach', 50_000);
    conduct(c, before(x, 30), 'sanction');
  }),
  a('disclosure-y3-no-report', '33', 'otc', 60, ['GF-A01', 'GF-D01', 'GF-D02'], (c, x) => {
    full(c, x, x.E - 2, 800, { s3: false });
  }),
  a('assured-newer-than-disclosure', '38', 'listed', 95, ['GF-D01'], (c, x) => {
    full(c, x, x.E - 1, 1200);
    report(c, x, x.E - 1, 'cpa-reasonable');
    report(c, x, x.E, 'cpa-reasonable');
  }),
];

/**
 * Random environmental penalties (long-tailed fines over the ten years before asof) and the
 * businesses outside the universe that appear in the penalty file and the GHG registry.
 */
import { type Day, randomDateStyle } from '../demo-model/dates.js';
import { tq } from '../demo-model/format.js';
import { uniformNoFor } from './ids.js';
import { INDUSTRIES } from '../demo-model/industries.js';
import type { Business, Penalty } from '../demo-model/model.js';
import { COUNTIES, COUNTY_WEIGHTS, type NameBook, otherBusinessName, VIOLATIONS } from '../demo-model/names.js';
import { Rng } from '../demo-model/random.js';

/** A fine in NT$: mostly tens of thousands to a few million, a few ≥ 10M, rarely ≥ 100M. */
function randomFine(rng: Rng): number {
  const r = rng.next();
  let v: number;
  if (r < 0.0008) v = rng.lognormal(150_000_000, 0.4);
  else if (r < 0.025) v = rng.lognormal(2_500_000, 0.9);
  else v = rng.lognormal(60_000, 1.0);
  v = Math.max(1_000, v);
  const step = v < 100_000 ? 1_000 : 10_000;
  return Math.round(v / step) * step;
}

function randomPenalty(rng: Rng, D: Day, agency: number): Penalty {
  const day = D - rng.int(0, 3651);
  const money = randomFine(rng);
  return {
    day,
    transgressDay: day - rng.int(10, 150),
    money,
    serious: rng.chance(money >= 1_000_000 ? 0.25 : 0.02),
    agency: rng.chance(0.1) ? -1 : agency,
    violation: rng.int(0, VIOLATIONS.length - 1),
    penaltyStyle: randomDateStyle(rng.next()),
    transgressStyle: randomDateStyle(rng.next()),
    moneyCommas: rng.chance(money >= 1_000_000 ? 0.3 : 0.03),
  };
}

/** Adds 0…n penalties to a business with probability `p` of having any. */
export function addRandomPenalties(b: Business, rng: Rng, D: Day, p: number): void {
  if (!rng.chance(p)) return;
  const n = 1 + rng.geometric(0.4, 40);
  for (let k = 0; k < n; k++) {
    const site = b.sites.length > 0 ? rng.pick(b.sites) : null;
    b.penalties.push(randomPenalty(rng, D, site ? site.county : b.county));
  }
}

/** Businesses outside the universe: a few penalised, a few with registry sites (some liable). */
export function otherBusinesses(seed: number, companies: number, D: Day, Y: number, names: NameBook): Business[] {
  const count = Math.max(6, Math.round(companies / 150));
  const codes = INDUSTRIES.flatMap((i) => i.sic.map(([code]) => code)).filter((code) => !code.startsWith('35'));
  const out: Business[] = [];
  for (let j = 0; j < count; j++) {
    const rng = Rng.of(seed, 'other', j);
    const county = rng.weighted(COUNTY_WEIGHTS);
    const b: Business = {
      uniformNo: uniformNoFor(seed, companies + j),
      legalName: otherBusinessName(rng, names),
      county,
      sites: [],
      penalties: [],
    };
    if (j % 3 === 0) {
      const big = j % 12 === 0;
      const value = big ? rng.range(26_000, 120_000) : rng.range(2_000, 20_000);
      const split = rng.range(0.3, 0.8);
      const years = [Y - 2, Y - 1].map((year, k) => {
        const v = k === 0 ? value * rng.range(0.95, 1.05) : value;
        return { year, direct: tq(v * split, 2), indirect: tq(v * (1 - split), 2) };
      });
      const c = COUNTIES[county];
      b.sites.push({ code: rng.pick(codes), county, town: c ? rng.pick(c.towns) : '', years });
    }
    addRandomPenalties(b, rng, D, j % 3 === 0 ? 0.5 : 0.9);
    out.push(b);
  }
  return out;
}

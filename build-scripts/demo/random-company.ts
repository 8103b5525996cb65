/**
 * Random facts of an ordinary (non-archetype) company: registry sites, its own GHG disclosure,
 * sustainability reports with assurance, and CBAM products. Shaped by its industry (industries.ts).
 */
import { addReport, type AssuranceSpec, type Ctx, registrySums } from './archetype-kit.js';
import { TQ, tq } from '../demo-model/format.js';
import { industry, type Industry } from '../demo-model/industries.js';
import type { Company } from '../demo-model/model.js';
import { COUNTIES } from '../demo-model/names.js';
import type { Boundary } from '../../src/contract/vocabulary.js';

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** Largest site value, t, of a site that must stay below the carbon-fee threshold. */
const SMALL_SITE_MAX = 24_500;

export function randomCompanyFacts(c: Company, x: Ctx): void {
  const ind = industry(c.industry);
  const { rng } = x;
  const size = clamp(Math.sqrt(c.capital / 2e9), 0.2, 5);
  const manufacturing = ind.sic.length > 0;
  const obligated = manufacturing && rng.chance(ind.pObligated);
  const registered = obligated || (manufacturing && rng.chance(ind.pRegistry));
  let total: number;
  if (obligated) total = clamp(rng.lognormal(Math.max(ind.median, 60_000), 0.9), 30_000, 25_000_000);
  else if (registered) total = clamp(rng.lognormal(Math.min(ind.median, 8_000), 0.8), 300, 60_000);
  else total = clamp(rng.lognormal(ind.median * size, 1.0), 5, 30_000_000);
  const s1Share = clamp(ind.s1Share + rng.range(-0.1, 0.1), 0.02, 0.98);
  if (registered) addRandomSites(c, x, ind, total, s1Share, obligated);
  randomDisclosure(c, x, total, s1Share, obligated, registered);
  randomReports(c, x);
  if (c.industry === '21' && rng.chance(0.06)) {
    c.cbam = { sector: 'fertilisers', product: rng.pick(['尿素', '硫酸銨', '複合肥料']) };
  } else if (['05', '12', '20', '38'].includes(c.industry) && rng.chance(0.02)) {
    c.cbam = { sector: 'aluminium', product: rng.pick(['鋁擠型材', '鋁板', '鋁錠']) };
  }
}

/** Site codes of the industry that are not electricity or gas supply. */
function manufacturingCodes(ind: Industry): string[] {
  const codes = ind.sic.map(([code]) => code).filter((code) => !code.startsWith('35'));
  return codes.length > 0 ? codes : ['3399'];
}

function addRandomSites(c: Company, x: Ctx, ind: Industry, total: number, s1Share: number, obligated: boolean): void {
  const { rng, Y } = x;
  const mfg = manufacturingCodes(ind);
  let shares: number[];
  if (obligated) {
    const n = rng.chance(0.5) ? 1 : rng.int(2, 4);
    const main = n === 1 ? 1 : rng.range(0.5, 0.9);
    const rest = Array.from({ length: n - 1 }, () => rng.range(0.5, 1.5));
    const restSum = rest.reduce((s, v) => s + v, 0);
    shares = [main, ...rest.map((v) => ((1 - main) * v) / restSum)];
    if (total * main < 26_000) total = (26_000 / main) * rng.range(1, 1.5);
  } else {
    const n = Math.min(3, Math.ceil(total / 20_000));
    const raw = Array.from({ length: n }, () => rng.range(0.8, 1.2));
    const sum = raw.reduce((s, v) => s + v, 0);
    shares = raw.map((v) => v / sum);
  }
  const decimals = rng.int(0, 4);
  shares.forEach((share, k) => {
    const supplier = obligated && k === 0 && ind.code === '23';
    const code = supplier ? rng.pick(['3510', '3520']) : rng.pick(mfg);
    let value = total * share;
    if (!obligated) value = Math.min(value, SMALL_SITE_MAX);
    const split = clamp(s1Share + rng.range(-0.05, 0.05), 0.01, 0.99);
    const prior = obligated ? value * (1 + 0.06 * rng.normal()) : Math.min(SMALL_SITE_MAX, value * (1 + 0.06 * rng.normal()));
    const countyIdx = k === 0 ? c.county : rng.int(0, COUNTIES.length - 1);
    const county = COUNTIES[countyIdx];
    const years = [];
    if (k === 0 || rng.chance(0.96)) years.push(siteYear(Y - 2, prior, split, decimals));
    years.push(siteYear(Y - 1, value, split, decimals));
    c.sites.push({ code, county: countyIdx, town: county ? rng.pick(county.towns) : '', years });
  });
}

function siteYear(year: number, value: number, split: number, decimals: number) {
  const direct = tq(value * split, decimals);
  const indirect = Math.max(0, tq(value, decimals) - direct);
  return { year, direct, indirect };
}

function randomDisclosure(c: Company, x: Ctx, total: number, s1Share: number, obligated: boolean, registered: boolean): void {
  const { rng, Y } = x;
  const pHas = obligated ? 0.97 : c.market === 'listed' ? 0.9 : 0.84;
  if (!rng.chance(pHas)) return;
  const r = rng.next();
  const year = r < 0.85 ? Y - 1 : r < 0.95 ? Y - 2 : Y - 3;
  const decimals = rng.int(0, 4);
  let s1: number | null;
  let s2: number | null;
  let boundary: Boundary = rng.chance(0.55) ? 'consolidated' : 'parent';
  const [rd, ri] = registered ? registrySums(c, year) : [0, 0];
  if (registered && rd + ri > 0) {
    const mismatch = rng.chance(0.12);
    const f = mismatch ? (rng.chance(0.6) ? rng.range(1.15, 1.6) : rng.range(0.55, 0.85)) : rng.range(0.97, 1.05);
    if (f > 1.1) boundary = 'consolidated';
    s1 = tq((rd / TQ) * f, decimals);
    s2 = tq((ri / TQ) * f, decimals);
  } else {
    const drift = year === Y - 1 ? 1 : rng.lognormal(1, 0.08);
    s1 = tq(total * drift * s1Share, decimals);
    s2 = tq(total * drift * (1 - s1Share), decimals);
    if (!registered) {
      const gap = rng.next();
      if (gap < 0.03) s1 = null;
      else if (gap < 0.045) s2 = null;
    }
  }
  const s12 = (s1 ?? 0) + (s2 ?? 0);
  const s3 = rng.chance(0.4) ? tq((s12 / TQ) * rng.lognormal(2.5, 0.9), decimals) : null;
  const v1 = obligated ? rng.chance(0.85) : rng.chance(0.4);
  const v2 = obligated ? rng.chance(0.8) : v1 ? rng.chance(0.9) : rng.chance(0.1);
  const revenueMillions = (c.capital / 1e6) * rng.lognormal(3, 0.5);
  c.disclosure = {
    year,
    scope1: s1,
    scope2: s2,
    scope3: s3,
    boundary,
    s1Verified: s1 !== null && v1,
    s2Verified: s2 !== null && v2,
    s3Verified: s3 !== null && rng.chance(0.15),
    intensity: rng.chance(0.9) ? tq(s12 / TQ / revenueMillions, 4) : null,
  };
}

function randomReports(c: Company, x: Ctx): void {
  const { rng, Y } = x;
  const d = c.disclosure;
  const pHas = d ? (c.market === 'listed' ? 0.96 : 0.88) : 0.5;
  if (!rng.chance(pHas)) return;
  const latest = d ? (rng.chance(0.95) ? d.year : d.year - 1) : rng.chance(0.8) ? Y - 1 : Y - 2;
  const history = rng.chance(0.45) ? rng.int(1, 3) : 0;
  const big = c.capital >= 1e10;
  const pNone = big ? 0.1 : c.market === 'listed' ? 0.25 : 0.4;
  let spec: AssuranceSpec = 'none';
  if (!rng.chance(pNone)) {
    const level = rng.chance(big ? 0.3 : 0.1) ? 'reasonable' : 'limited';
    spec = `${rng.chance(0.55) ? 'cpa' : 'tp'}-${level}`;
  }
  // Assurance, once obtained, is kept in later years: going back in time it may only drop to none.
  const specs: AssuranceSpec[] = [];
  for (let k = 0; k <= history; k++) {
    if (k > 0 && spec !== 'none' && rng.chance(0.35)) spec = 'none';
    specs.push(spec);
  }
  for (let k = history; k >= 0; k--) addReport(c, x, latest - k, specs[k] as AssuranceSpec);
}

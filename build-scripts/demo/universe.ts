/**
 * Decides the whole fictional universe in memory: companies (archetypes first, then random ones),
 * businesses outside the universe, and ETFs. Every random draw comes from a stream derived from
 * (seed, purpose, index), so the result is a pure function of the options.
 */
import type { Ctx } from './archetype-kit.js';
import { ARCHETYPES } from './archetypes.js';
import { type Day, formatIsoDay, yearOf } from '../demo-model/dates.js';
import { buildEtfs } from './etfs.js';
import { MAX_COMPANIES, tickerFor, uniformNoFor } from './ids.js';
import { industry, INDUSTRIES, INDUSTRY_WEIGHTS } from '../demo-model/industries.js';
import type { Company, Universe } from '../demo-model/model.js';
import { COUNTY_WEIGHTS, legalName, NameBook } from '../demo-model/names.js';
import { addRandomPenalties, otherBusinesses } from './penalties.js';
import { randomCompanyFacts } from './random-company.js';
import { Rng } from '../demo-model/random.js';
import { expectedReportingYear } from '../../src/methodology/reporting-year.js';

export interface UniverseOptions {
  seed: number;
  companies: number;
  asof: Day;
}

function baseCompany(seed: number, index: number, count: number, names: NameBook): Company {
  const rng = Rng.of(seed, 'company', index);
  const arch = ARCHETYPES[index];
  const code = arch ? arch.industry : (INDUSTRIES[rng.weighted(INDUSTRY_WEIGHTS)] as (typeof INDUSTRIES)[number]).code;
  const market = arch ? arch.market : rng.chance(0.55) ? 'listed' : 'otc';
  const shortName = names.shortName(rng, industry(code).words);
  const capital = Math.round(Math.max(1e8, rng.lognormal(market === 'listed' ? 3e9 : 8e8, 1.1)) / 10_000) * 10_000;
  return {
    index,
    ticker: tickerFor(index, count),
    uniformNo: uniformNoFor(seed, index),
    shortName,
    legalName: legalName(shortName),
    market,
    industry: code,
    capital,
    county: rng.weighted(COUNTY_WEIGHTS),
    sites: [],
    penalties: [],
    disclosure: null,
    reports: [],
    conduct: [],
    cbam: arch?.cbam ?? null,
    archetype: arch?.id ?? null,
  };
}

export function buildUniverse(opts: UniverseOptions): Universe {
  const { seed, companies: count, asof: D } = opts;
  if (!Number.isInteger(count) || count < 1 || count > MAX_COMPANIES) {
    throw new RangeError(`companies must be an integer from 1 to ${MAX_COMPANIES}`);
  }
  const Y = yearOf(D);
  const E = expectedReportingYear(formatIsoDay(D));
  const names = new NameBook();
  const companies: Company[] = [];
  for (let i = 0; i < count; i++) {
    const c = baseCompany(seed, i, count, names);
    const x: Ctx = { D, Y, E, rng: Rng.of(seed, 'facts', i) };
    const arch = ARCHETYPES[i];
    if (arch) {
      arch.build(c, x);
    } else {
      randomCompanyFacts(c, x);
      addRandomPenalties(c, Rng.of(seed, 'penalties', i), D, industry(c.industry).pPenalty);
    }
    companies.push(c);
  }
  const others = otherBusinesses(seed, count, D, Y, names);
  const etfs = buildEtfs(seed, D, companies);
  return { seed, asof: D, year: Y, companies, others, etfs };
}

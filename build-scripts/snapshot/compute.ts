import { CBAM_BY_INDUSTRY, type CbamSector } from '../../src/methodology/cbam.js';
import { carbonFeeLiability } from '../../src/methodology/carbon-fee.js';
import { flagsFor } from '../../src/methodology/flags.js';
import { inputOf } from '../../src/methodology/input-of.js';
import { rankScores } from '../../src/methodology/rank.js';
import { scoreCompany } from '../../src/methodology/score.js';
import type { CompanyRow } from '../sources/kit/facts.js';
import { factLink, REGISTRY_SOURCE_ID as REGISTRY_SOURCE } from '../sources/index.js';
import type { ComputedCompany, ComputedPenalty } from './computed.js';
import type { SourceData } from './load-sources.js';
import { scoredRowsOf } from './table-facts.js';

export type { ComputedCompany, ComputedPenalty } from './computed.js';

function cbamSectorsOf(profile: CompanyRow, data: SourceData): CbamSector[] {
  const sectors = new Set<CbamSector>(CBAM_BY_INDUSTRY[profile.industryCode] ?? []);
  for (const p of data.cbamProducts.get(profile.ticker) ?? []) sectors.add(p.sector);
  return [...sectors].sort();
}

/** Computes methodology 1.0 for every company of the universe, then ranks them. */
export function computeCompanies(data: SourceData, asof: string): ComputedCompany[] {
  const unranked = [...data.companies.values()]
    .sort((a, b) => (a.ticker < b.ticker ? -1 : 1))
    .map((profile) => {
      const { ticker, uniformNo } = profile;
      const cbamSectors = cbamSectorsOf(profile, data);
      const penalties: ComputedPenalty[] = (data.penalties.get(ticker) ?? [])
        .map((p) => ({ ...p, sourceUrl: factLink(p.sourceId, { uniform_no: uniformNo, date: p.date }) }))
        .sort((a, b) => (a.date !== b.date ? (a.date < b.date ? 1 : -1) : a.recordId < b.recordId ? -1 : 1));
      const conduct = [...(data.conduct.get(ticker) ?? [])].sort((a, b) =>
        a.date !== b.date ? (a.date < b.date ? 1 : -1) : a.recordId < b.recordId ? -1 : a.recordId > b.recordId ? 1 : 0,
      );
      const d = data.disclosures.get(ticker);
      const sites = data.registrySites.get(ticker) ?? [];
      // GF-V01 compares the disclosure with the registry total of the same year; the view shows it.
      const registryForYear = d ? sites.filter((s) => s.year === d.year) : [];
      const registryTotal =
        registryForYear.length > 0 ? { total: registryForYear.reduce((s, x) => s + x.total, 0), sourceId: REGISTRY_SOURCE } : null;
      const disclosure = d
        ? { ...d, deepLink: factLink(d.sourceId, { ticker, year: d.year }), registryTotal, registryLink: factLink(REGISTRY_SOURCE, { year: d.year }) }
        : null;
      const fee = carbonFeeLiability(sites, data.latestRegistryYear);
      const carbonFee = {
        obligated: fee.obligated,
        basis: fee.basis,
        registryYear: fee.year,
        basisTco2e: fee.tco2e,
        sourceId: REGISTRY_SOURCE,
        deepLink: factLink(REGISTRY_SOURCE, {}),
      };
      const r = data.assurances.get(ticker);
      const assurance = r
        ? {
            kind: r.assurance.kind,
            provider: r.assurance.provider,
            level: r.assurance.level,
            standard: r.assurance.standard,
            verifications: r.assurance.verifications,
            year: r.year,
            sourceId: r.sourceId,
            deepLink: r.link,
          }
        : null;
      const facts = { profile, cbamSectors, penalties, conduct, disclosure, carbonFee, assurance };
      // Scored from the rows it is written as: an explanation of a change rescores the same rows read back.
      const input = inputOf(scoredRowsOf(facts), asof);
      return { ...facts, score: scoreCompany(input), flags: flagsFor(input) };
    });
  const ranks = rankScores(unranked.map((c) => c.score.credibility_score));
  return unranked.map((c, i) => ({ ...c, ...ranks[i]! }));
}

import { CBAM_BY_INDUSTRY, type CbamSector } from '../../src/methodology/cbam.js';
import { carbonFeeLiability } from '../../src/methodology/carbon-fee.js';
import type { MethodologyInput } from '../../src/methodology/facts.js';
import { flagsFor, TOP_FLAGS, type Flag } from '../../src/methodology/flags.js';
import { rankScores } from '../../src/methodology/rank.js';
import { scoreCompany, type Score } from '../../src/methodology/score.js';
import type { CompanyRow, ConductRow, GhgDisclosureRow, PenaltyRow } from '../sources/kit/facts.js';
import { factLink, REGISTRY_SOURCE_ID as REGISTRY_SOURCE } from '../sources/index.js';
import type { AssuredReport, Sourced, SourceData } from './load-sources.js';

export interface ComputedPenalty extends Sourced<PenaltyRow> {
  sourceUrl: string;
}

/** One company with every derived fact, ready to be written to the snapshot. */
export interface ComputedCompany {
  profile: CompanyRow;
  cbamSectors: CbamSector[];
  penalties: ComputedPenalty[];
  /** Newest first, then by record id. */
  conduct: ConductRow[];
  disclosure: (GhgDisclosureRow & { deepLink: string; registryTotal: { total: number; sourceId: string } | null; registryLink: string }) | null;
  carbonFee: { obligated: boolean; basis: string; registryYear: number | null; sourceId: string; deepLink: string; basisTco2e: number | null };
  /** The most recent assured report (contract 3.2: the CPA assurance when a report has both, its verifiers beside it). */
  assurance:
    | (AssuredReport['assurance'] & {
        year: number;
        sourceId: string;
        /** The report itself: the filing's link. */
        deepLink: string;
      })
    | null;
  score: Score;
  flags: Flag[];
  rank: number;
  percentile: number;
}

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
      const input: MethodologyInput = {
        asof,
        companySourceId: profile.sourceId,
        cbamExposed: cbamSectors.length > 0,
        disclosure: d
          ? {
              year: d.year,
              scope1: d.scope1,
              scope2: d.scope2,
              scope3: d.scope3,
              scope1Verified: d.scope1Verified,
              scope2Verified: d.scope2Verified,
              sourceId: d.sourceId,
            }
          : null,
        assurance: assurance ? { level: assurance.level, year: assurance.year, sourceId: assurance.sourceId } : null,
        carbonFee: { obligated: carbonFee.obligated, sourceId: carbonFee.sourceId },
        penalties: penalties.map((p) => ({ date: p.date, fine: p.fine, serious: p.serious, sourceId: p.sourceId })),
        conduct: conduct.map((c) => ({ kind: c.kind, date: c.date, sourceId: c.sourceId })),
        registryTotal,
      };
      return { profile, cbamSectors, penalties, conduct, disclosure, carbonFee, assurance, score: scoreCompany(input), flags: flagsFor(input) };
    });
  const ranks = rankScores(unranked.map((c) => c.score.credibility_score));
  return unranked.map((c, i) => ({ ...c, ...ranks[i]! }));
}

export function topFlags(flags: Flag[]): Flag[] {
  return flags.slice(0, TOP_FLAGS);
}

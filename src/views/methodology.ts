import type { MethodologyResponse } from '../contract/methodology.js';
import { DOMESTIC_EQUITY_FUND_TYPES, ESG_ETF_KEYWORDS, ESG_ETF_RULE } from '../methodology/esg-etfs.js';
import { CBAM_BY_INDUSTRY, CBAM_BY_PRODUCT, CBAM_SECTORS } from '../methodology/cbam.js';
import { dayOfYearText, REPORT_DUE_BY } from '../methodology/reporting-year.js';
import {
  ASSURANCE,
  CARBON_FEE_THRESHOLD_TCO2E,
  COMPLIANCE,
  CONSISTENCY,
  DISCLOSURE,
  FLAG_CATALOGUE,
  METHODOLOGY_VERSION,
  REGISTRY_TOLERANCE,
  REPORT_DEADLINE,
  SCORE_NAME,
  VERDICT_BANDS,
} from '../methodology/rules.js';
import type { SnapshotMeta } from '../snapshot/schema.js';
import { citation } from './company.js';
import { withEnvelope } from './envelope.js';

/**
 * GET /methodology: the current methodology (METHODOLOGY_VERSION) as data, rendered from the same
 * constants the scorer uses. Over 80 lines because it is one document, written in the order a reader
 * meets it, each part a line or two beside the constant it states.
 */
export function methodologyView(meta: SnapshotMeta, cbamProducts: { ticker: string; sector: string; product: string }[]): MethodologyResponse {
  const tiers = COMPLIANCE.fineTiers.map((t) => `≥ NT$${t.atLeast.toLocaleString('en-US')}: ${t.points}`).join(', ');
  const dueBy = dayOfYearText(REPORT_DUE_BY);
  const expectedYear = `E(D) = year(D) − 1 when D is on or after ${dayOfYearText(REPORT_DEADLINE)} of its year, else year(D) − 2`;
  return withEnvelope(meta, {
    score_name: SCORE_NAME,
    version: METHODOLOGY_VERSION,
    units: { fine: 'TWD', emissions: 't CO2e' },
    definitions: {
      D: 'the snapshot’s data_asof date',
      E:
        `E(D), the expected reporting year: sustainability reports, and the GHG figures in them, are due by ${dueBy} ` +
        `for the year before, so ${expectedYear}; a company is never late before its deadline has passed`,
      last_n_months: 'penalty dates in (D − N months, D], where D − N months keeps D’s day of the month, clamped to that month’s last day',
      disclosed: 'a figure is disclosed (present) when it is not null; a disclosure may lack any of its three figures',
      latest_reporting_year: 'the year of the company’s carbon disclosure (the latest year its exchange published)',
      assurance: 'the company’s most recent sustainability report that a CPA or third party assured; level from the opinion type',
      registry_total:
        'the government GHG registry’s direct + energy-indirect emissions summed over the company’s registered sites ' +
        'for the disclosure’s year; shown as carbon_disclosure.registry in the canonical view (year, total_tco2e, ' +
        'source_id), so GF-V01 can be recomputed from the API alone: raised when |scope1 + scope2 − total_tco2e| / ' +
        'total_tco2e > the tolerance',
    },
    components: [
      {
        component: 'disclosure',
        max_points: DISCLOSURE.max,
        rules: [
          `scope 1 and scope 2 both disclosed for the latest reporting year: ${DISCLOSURE.scope12}`,
          `scope 3 disclosed: ${DISCLOSURE.scope3}`,
          `timeliness: latest reporting year ≥ E(D): ${DISCLOSURE.timelyRecent}; = E(D) − 1: ${DISCLOSURE.timelyTwoYears}; older or none: 0`,
        ],
      },
      {
        component: 'assurance',
        max_points: ASSURANCE.max,
        rules: [
          `reasonable ${ASSURANCE.reasonable}, limited ${ASSURANCE.limited}, none ${ASSURANCE.none}`,
          'halved (rounded down) when the assured year is older than the latest disclosed year',
        ],
      },
      {
        component: 'compliance',
        max_points: COMPLIANCE.max,
        rules: [
          `${COMPLIANCE.max} − ${COMPLIANCE.perPenalty} × penalties in the last ${COMPLIANCE.windowMonths} months − fine tier − ${COMPLIANCE.serious} if any of them is serious; never below 0`,
          `fine tier on the sum of those fines: ${tiers}; otherwise 0`,
        ],
      },
      {
        component: 'consistency',
        max_points: CONSISTENCY.max,
        rules: [
          'the first rule that matches:',
          `(1) CBAM-exposed with no scope 1 figure: ${CONSISTENCY.none}`,
          `(2) not carbon-fee obligated: ${CONSISTENCY.full}`,
          `(3) obligated with no disclosure: ${CONSISTENCY.none}`,
          `(4) obligated, scope 1 and scope 2 both present and both verified: ${CONSISTENCY.full}`,
          `(5) otherwise: ${CONSISTENCY.partial}`,
        ],
      },
    ],
    reporting_deadline: { due_by: { ...REPORT_DUE_BY }, expected_reporting_year: expectedYear },
    verdicts: VERDICT_BANDS.map((v) => ({ verdict: v.verdict, min: v.min, max: v.max })),
    ranking: {
      rank: '1 = best over the whole snapshot; equal scores share a rank (competition ranking: 1, 2, 2, 4)',
      percentile: 'round(100 × (companies with a strictly lower score) / (companies in the snapshot), 1)',
    },
    flags: FLAG_CATALOGUE.map((f) => ({ ...f })),
    carbon_fee: {
      threshold_tco2e: CARBON_FEE_THRESHOLD_TCO2E,
      rule:
        `obligated when a site of the company’s business ID in the latest GHG registry year supplies electricity or ` +
        `gas (industry division 35), or manufactures (divisions 08–34) and emits direct + electricity-indirect ≥ ` +
        `${CARBON_FEE_THRESHOLD_TCO2E} t CO2e; GF-V01 tolerates a ${REGISTRY_TOLERANCE * 100} % difference between ` +
        `disclosed scope 1 + 2 and the registry total`,
      legal_basis: 'Climate Change Response Act (氣候變遷因應法, 2023); carbon-fee rules effective 2025-01-01',
    },
    cbam: {
      sectors: [...CBAM_SECTORS],
      by_industry: Object.fromEntries(Object.entries(CBAM_BY_INDUSTRY).map(([k, v]) => [k, [...v]])),
      by_product: cbamProducts.filter((p) => (CBAM_BY_PRODUCT as readonly string[]).includes(p.sector)),
    },
    esg_etfs: { rule: ESG_ETF_RULE, keywords: [...ESG_ETF_KEYWORDS], fund_types: [...DOMESTIC_EQUITY_FUND_TYPES] },
    citation: citation(meta),
  });
}

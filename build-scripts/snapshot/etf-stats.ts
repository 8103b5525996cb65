import type { EtfFund } from '../sources/kit/facts.js';

export interface EtfRecord {
  code: string;
  name: string;
  /** The holdings' source (SITCA, or the MOPS form placed by hand). */
  sourceId: string;
  /** The quarter, e.g. `2025Q3`; `holdingsAsof` is its last day. */
  period: string;
  holdingsAsof: string;
  /** The publisher's cut-off as a fraction of net assets (0.01, or 0 when every holding is listed). */
  minWeight: number;
  /** Sum of the listed weights, 4 decimals: how much of the fund the figures describe. */
  listedWeight: number;
  holdings: { ticker: string; name: string; weight: number }[];
  covered: number;
  avgScore: number | null;
  minScore: number | null;
  assuranceCoveragePct: number | null;
}

const round1 = (n: number) => Math.round(n * 10) / 10;
const round4 = (n: number) => Math.round(n * 10_000) / 10_000;

/**
 * Contract 4.3: each fund's published holdings, scored over the holdings that are in the universe
 * (weights renormalised over them). A fund with no covered holding has null statistics. The
 * statistics describe the listed holdings only; `listedWeight` says how much of the fund that is.
 */
export function computeEtfs(
  funds: Map<string, EtfFund>,
  companyOf: (ticker: string) => { score: number; hasAssurance: boolean } | undefined,
): EtfRecord[] {
  return [...funds.values()]
    .sort((a, b) => (a.code < b.code ? -1 : 1))
    .map((fund) => {
      const holdings = fund.holdings.map((h) => ({ ticker: h.code, name: h.name, weight: h.weight }));
      const covered = holdings.flatMap((h) => {
        const c = companyOf(h.ticker);
        return c ? [{ ...h, ...c }] : [];
      });
      const coveredWeight = covered.reduce((s, h) => s + h.weight, 0);
      const stats =
        covered.length === 0 || coveredWeight <= 0
          ? { avgScore: null, minScore: null, assuranceCoveragePct: null }
          : {
              avgScore: round1(covered.reduce((s, h) => s + h.score * h.weight, 0) / coveredWeight),
              minScore: Math.min(...covered.map((h) => h.score)),
              assuranceCoveragePct: round1((100 * covered.filter((h) => h.hasAssurance).reduce((s, h) => s + h.weight, 0)) / coveredWeight),
            };
      return {
        code: fund.code,
        name: fund.name,
        sourceId: fund.sourceId,
        period: fund.period,
        holdingsAsof: fund.asof,
        minWeight: fund.minWeight,
        listedWeight: round4(holdings.reduce((s, h) => s + h.weight, 0)),
        holdings,
        covered: covered.length,
        ...stats,
      };
    });
}

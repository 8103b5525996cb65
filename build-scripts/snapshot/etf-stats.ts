import type { EtfHoldingRow } from '../adapters/mops-etf-holdings.js';

export interface EtfRecord {
  code: string;
  name: string;
  holdingsAsof: string;
  holdings: { ticker: string; name: string; weight: number }[];
  covered: number;
  avgScore: number | null;
  minScore: number | null;
  assuranceCoveragePct: number | null;
}

const round1 = (n: number) => Math.round(n * 10) / 10;

function quarterEnd(year: number, quarter: number): string {
  const month = quarter * 3;
  const day = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * Contract 4.3: each fund's latest quarter of holdings, scored over the holdings that are in the
 * universe (weights renormalised over them). A fund with no covered holding has null statistics.
 */
export function computeEtfs(
  holdingsByFund: Map<string, EtfHoldingRow[]>,
  companyOf: (ticker: string) => { score: number; hasAssurance: boolean } | undefined,
): EtfRecord[] {
  return [...holdingsByFund.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([code, rows]) => {
      const latest = rows.reduce((a, r) => (r.year * 10 + r.quarter > a.year * 10 + a.quarter ? r : a));
      const current = rows.filter((r) => r.year === latest.year && r.quarter === latest.quarter);
      const holdings = current.map((r) => ({ ticker: r.securityCode, name: r.securityName, weight: r.weight }));
      const covered = holdings.flatMap((h) => {
        const c = companyOf(h.ticker);
        return c ? [{ ...h, ...c }] : [];
      });
      const coveredWeight = covered.reduce((s, h) => s + h.weight, 0);
      const name = current.find((r) => r.fundName)?.fundName ?? code;
      const stats =
        covered.length === 0 || coveredWeight <= 0
          ? { avgScore: null, minScore: null, assuranceCoveragePct: null }
          : {
              avgScore: round1(covered.reduce((s, h) => s + h.score * h.weight, 0) / coveredWeight),
              minScore: Math.min(...covered.map((h) => h.score)),
              assuranceCoveragePct: round1((100 * covered.filter((h) => h.hasAssurance).reduce((s, h) => s + h.weight, 0)) / coveredWeight),
            };
      return { code, name, holdingsAsof: quarterEnd(latest.year, latest.quarter), holdings, covered: covered.length, ...stats };
    });
}

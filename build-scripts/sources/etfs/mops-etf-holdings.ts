import { z } from 'zod';
import { opt, req, type FileLayout } from '../../adapters/layouts.js';
import { readLayout, type RejectLog } from '../../adapters/read-layout.js';
import { code, percent, requiredText, text, year } from '../../adapters/values.js';
import { quarterEnd } from './etf-funds.js';
import type { EtfFund } from '../kit/facts.js';
import { OGDL_TW, OWNERS } from '../kit/registry-info.js';
import type { SourceModule } from '../kit/source.js';

/**
 * SRC-MOPS-ETF-HOLDINGS: quarterly ETF holdings in the MOPS CSV form (基金代號, 年度, 季別, 證券代號,
 * 證券簡稱, 持股比率), a file an operator places by hand (`etf_holdings.csv`, or the same rows as
 * `etf_holdings.json`). Nothing fetches it: real holdings come from SITCA (sitca-etf-holdings.ts).
 * The form lists every holding, so its cut-off is 0.
 */

/** MOPS quarterly holdings of domestic-constituent ETFs. 基金名稱 is optional (not every copy has it). */
export const etfHoldingsLayout = {
  file: 'etf_holdings.csv',
  alternatives: ['etf_holdings.json'],
  sourceId: 'SRC-MOPS-ETF-HOLDINGS',
  columns: {
    fundCode: req('基金代號'),
    fundName: opt('基金名稱'),
    year: req('年度'),
    quarter: req('季別'),
    securityCode: req('證券代號'),
    securityName: req('證券簡稱'),
    weightPct: req('持股比率'),
  },
} as const satisfies FileLayout;

export const mopsEtfHoldingsModule: SourceModule = {
  info: {
    source_id: 'SRC-MOPS-ETF-HOLDINGS',
    name: '國內成分股ETF每季持股明細表 (quarterly ETF holdings)',
    ...OWNERS.MOPS,
    licence: OGDL_TW,
    update_frequency: 'quarterly',
    homepage_url: 'https://mops.twse.com.tw/mops/web/t78sb39_new',
    description:
      'Quarterly holdings and weights of domestic-constituent ETFs. No record-level link is known: the rows are those with 基金代號 = the fund code.',
    record_link: null,
  },
  // Never fetched: no answer file name matches.
  files: { answers: /^$/, placed: [etfHoldingsLayout.file, ...etfHoldingsLayout.alternatives] },
  plan: null,
  read: {
    kind: 'funds',
    async read({ dir, rejects, tally }, inUniverse) {
      const funds = await readMopsEtfFunds(dir, rejects);
      for (const f of funds) for (const h of f.holdings) tally.record(f.sourceId, inUniverse(h.code) ? h.code : null);
      return funds;
    },
  },
  assertions: { minRecords: 1, maxRecords: 50_000 },
};

/** One holding of one ETF in one quarter, as the MOPS form lists it. */
export interface EtfHoldingRow {
  fundCode: string;
  fundName: string | null;
  year: number;
  quarter: number;
  securityCode: string;
  securityName: string;
  /** Fraction of the fund (持股比率 is a percentage). */
  weight: number;
}

const schema = z.object({
  fundCode: code,
  fundName: text,
  year,
  quarter: text
    .transform((s) => s.replace(/^Q/i, ''))
    .pipe(z.string().regex(/^[1-4]$/, 'quarter must be 1–4'))
    .transform(Number),
  securityCode: requiredText,
  securityName: requiredText,
  weightPct: percent.pipe(z.number().max(100, 'a weight above 100 %')),
});

/** The rows of the placed file, in file order; a row that does not fit is a reject. */
export async function* readEtfHoldings(dir: string, rejects: RejectLog): AsyncGenerator<EtfHoldingRow> {
  for await (const { row } of readLayout(dir, etfHoldingsLayout, schema, rejects)) {
    yield {
      fundCode: row.fundCode,
      fundName: row.fundName || null,
      year: row.year,
      quarter: row.quarter,
      securityCode: row.securityCode.toUpperCase(),
      securityName: row.securityName,
      weight: row.weightPct / 100,
    };
  }
}

/**
 * Each fund's latest quarter in the placed file, as the builder takes funds from either form: the
 * holdings in file order, the name the first row of that quarter that has one gives (else the code).
 */
export async function readMopsEtfFunds(dir: string, rejects: RejectLog): Promise<EtfFund[]> {
  const byFund = new Map<string, EtfHoldingRow[]>();
  for await (const r of readEtfHoldings(dir, rejects)) {
    const rows = byFund.get(r.fundCode) ?? [];
    rows.push(r);
    byFund.set(r.fundCode, rows);
  }
  return [...byFund.entries()].map(([fundCode, rows]) => {
    const latest = rows.reduce((a, r) => (r.year * 10 + r.quarter > a.year * 10 + a.quarter ? r : a));
    const current = rows.filter((r) => r.year === latest.year && r.quarter === latest.quarter);
    return {
      code: fundCode,
      name: current.find((r) => r.fundName !== null)?.fundName ?? fundCode,
      period: `${latest.year}Q${latest.quarter}`,
      asof: quarterEnd(latest.year, latest.quarter),
      minWeight: 0,
      sourceId: mopsEtfHoldingsModule.info.source_id,
      holdings: current.map((r) => ({ code: r.securityCode, name: r.securityName, weight: r.weight })),
    };
  });
}

import { z } from 'zod';
import { etfHoldingsLayout } from './layouts.js';
import { readLayout, type RejectLog } from './read-layout.js';
import { code, percent, requiredText, text, year } from './values.js';

/** SRC-MOPS-ETF-HOLDINGS: one holding of one ETF in one quarter. */
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
  quarter: text.transform((s) => s.replace(/^Q/i, '')).pipe(z.string().regex(/^[1-4]$/, 'quarter must be 1–4')).transform(Number),
  securityCode: requiredText,
  securityName: requiredText,
  weightPct: percent.pipe(z.number().max(100, 'a weight above 100 %')),
});

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

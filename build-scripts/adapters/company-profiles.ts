import { z } from 'zod';
import { INDUSTRY_NAMES } from '../../src/methodology/industries.js';
import { tpexCompanyLayout, twseCompanyLayout } from './layouts.js';
import { readLayout, type RejectLog } from './read-layout.js';
import { code, optionalAmount, requiredText, text, uniformNo } from './values.js';
import type { MarketType } from '../../src/contract/vocabulary.js';

/** A company profile from either exchange (SRC-TWSE-COMPANY or SRC-TPEX-COMPANY). */
export interface CompanyRow {
  ticker: string;
  legalName: string;
  shortName: string;
  industryCode: string;
  industry: string;
  uniformNo: string;
  paidInCapital: number | null;
  marketType: MarketType;
  sourceId: string;
}

const CODE_OF_NAME = new Map(Object.entries(INDUSTRY_NAMES).map(([c, n]) => [n, c]));

/** 產業別 as served: a code (`24`, `4`) or, in some copies, the industry's name (`半導體業`). */
const industryCode = text.pipe(
  z
    .string()
    .transform((s) => CODE_OF_NAME.get(s) ?? s.padStart(2, '0'))
    .refine((s) => s in INDUSTRY_NAMES, 'not a TWSE industry code'),
);

const profileSchema = z.object({
  reportDate: text,
  ticker: code,
  legalName: requiredText,
  shortName: requiredText,
  industryCode,
  uniformNo,
  paidInCapital: optionalAmount,
});

function profileAdapter(layout: typeof twseCompanyLayout | typeof tpexCompanyLayout, marketType: CompanyRow['marketType']) {
  return async function* (dir: string, rejects: RejectLog): AsyncGenerator<CompanyRow> {
    for await (const { row } of readLayout(dir, layout, profileSchema, rejects)) {
      yield {
        ticker: row.ticker,
        legalName: row.legalName,
        shortName: row.shortName,
        industryCode: row.industryCode,
        industry: INDUSTRY_NAMES[row.industryCode]!,
        uniformNo: row.uniformNo,
        paidInCapital: row.paidInCapital,
        marketType,
        sourceId: layout.sourceId,
      };
    }
  };
}

/** SRC-TWSE-COMPANY: listed companies. */
export const readTwseCompanies = profileAdapter(twseCompanyLayout, 'listed');
/** SRC-TPEX-COMPANY: OTC companies. */
export const readTpexCompanies = profileAdapter(tpexCompanyLayout, 'otc');

import { z } from 'zod';
import { INDUSTRY_NAMES } from '../../src/methodology/industries.js';
import type { FileLayout } from '../adapters/layouts.js';
import { readLayout, type RejectLog } from '../adapters/read-layout.js';
import { code, optionalAmount, requiredText, text, uniformNo } from '../adapters/values.js';
import type { MarketType } from '../../src/contract/vocabulary.js';

/** A company profile from either exchange (SRC-TWSE-COMPANY or SRC-TPEX-COMPANY): the two forms map to one row. */
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

export type ProfileKey = 'reportDate' | 'ticker' | 'legalName' | 'shortName' | 'industryCode' | 'uniformNo' | 'paidInCapital';

const CODE_OF_NAME = new Map(Object.entries(INDUSTRY_NAMES).map(([c, n]) => [n, c]));

/** 產業別 as served: a two-digit code (`24`; `4` is padded) or, in some copies, the industry's name (`半導體業`). */
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

export function profileReader(layout: FileLayout<ProfileKey>, marketType: MarketType) {
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

import { z } from 'zod';
import { industryName, INDUSTRY_NAMES } from '../../../src/methodology/industries.js';
import type { FileLayout } from '../../adapters/layouts.js';
import { readLayout, type RejectLog } from '../../adapters/read-layout.js';
import { businessId, code, optionalAmount, optionalPublisherDate, requiredText, text } from '../../adapters/values.js';
import type { MarketType } from '../../../src/contract/vocabulary.js';
import type { CompanyRow } from '../kit/facts.js';
import type { SourceTally } from '../kit/tally.js';

export type { CompanyRow };

export type ProfileKey = 'reportDate' | 'ticker' | 'legalName' | 'shortName' | 'industryCode' | 'uniformNo' | 'paidInCapital' | 'listedOn';

const CODE_OF_NAME = new Map(Object.entries(INDUSTRY_NAMES).map(([c, n]) => [n, c]));

/**
 * 產業別 as served: a two-digit code (`24`; `4` is padded) or, in some copies, the industry's name
 * (`半導體業`). A code the table does not know is kept as served (the reader warns); only a value that
 * is neither a known name nor a code is refused.
 */
const industryCode = text.pipe(
  z
    .string()
    .transform((s) => CODE_OF_NAME.get(s) ?? (/^\d$/.test(s) ? s.padStart(2, '0') : s))
    .refine((s) => /^\d{2,3}$/.test(s), 'not a TWSE industry code (two digits) nor a known industry name'),
);

const profileSchema = z.object({
  reportDate: optionalPublisherDate,
  ticker: code,
  legalName: requiredText,
  shortName: requiredText,
  industryCode,
  uniformNo: businessId,
  paidInCapital: optionalAmount,
  listedOn: optionalPublisherDate,
});

export function profileReader(layout: FileLayout<ProfileKey>, marketType: MarketType) {
  return async function* (dir: string, rejects: RejectLog, tally: SourceTally): AsyncGenerator<CompanyRow> {
    for await (const { row } of readLayout(dir, layout, profileSchema, rejects)) {
      tally.stamp(layout.sourceId, row.reportDate);
      if (row.uniformNo.padded) tally.paddedId(layout.sourceId);
      if (!(row.industryCode in INDUSTRY_NAMES))
        tally.unknownValue(
          layout.sourceId,
          `industry code ${row.industryCode} (not in the industry table: kept, labelled ${industryName(row.industryCode)})`,
        );
      yield {
        ticker: row.ticker,
        legalName: row.legalName,
        shortName: row.shortName,
        industryCode: row.industryCode,
        industry: industryName(row.industryCode),
        uniformNo: row.uniformNo.id,
        paidInCapital: row.paidInCapital,
        marketType,
        listedOn: row.listedOn,
        sourceId: layout.sourceId,
      };
    }
  };
}

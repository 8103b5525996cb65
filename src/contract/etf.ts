import { z } from 'zod';
import { countMeta, isoDate, successFields, tickerCode } from './common.js';
import { VERDICTS } from './vocabulary.js';

export const etfHoldingSchema = z.strictObject({
  ticker: z.string(),
  name: z.string(),
  weight: z.number().min(0).max(1),
  company: z
    .strictObject({ ticker: tickerCode, credibility_score: z.number().int(), verdict: z.enum(VERDICTS) })
    .nullable()
    .meta({ description: 'null for a holding outside the universe (foreign stock, cash, …)' }),
});

export const etfResponseSchema = z
  .strictObject({
    ...successFields,
    etf_code: tickerCode,
    etf_name: z.string(),
    total: z.number().int().nonnegative(),
    covered: z.number().int().nonnegative(),
    holdings_asof: isoDate,
    avg_score: z.number().nullable(),
    min_score: z.number().nullable(),
    assurance_coverage_pct: z.number().min(0).max(100).nullable(),
    holdings: z.array(etfHoldingSchema),
  })
  .meta({ id: 'EtfResponse' });
export type EtfResponse = z.infer<typeof etfResponseSchema>;

export const etfListResponseSchema = z
  .strictObject({
    ...successFields,
    data: z.array(z.strictObject({ etf_code: tickerCode, etf_name: z.string(), total: z.number().int().nonnegative() })),
    meta: countMeta,
  })
  .meta({ id: 'EtfListResponse' });
export type EtfListResponse = z.infer<typeof etfListResponseSchema>;

import { z } from 'zod';
import { countMeta, isoDate, sourceId, successFields, tickerCode } from './common.js';
import { VERDICTS } from './vocabulary.js';

/** A quarter as the holdings' publishers name it (contract 4.3: `2025Q3`). */
const QUARTER_PATTERN = /^\d{4}Q[1-4]$/;

export const etfHoldingSchema = z.strictObject({
  ticker: z.string().meta({ description: 'The security code as the publisher lists it' }),
  name: z.string(),
  weight: z.number().min(0).max(1).meta({ description: 'Fraction of the fund’s net assets (0.3282 is 32.82 %)' }),
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
    total: z.number().int().nonnegative().meta({ description: 'Holdings listed' }),
    covered: z.number().int().nonnegative().meta({ description: 'Holdings that are companies of this snapshot' }),
    holdings_asof: isoDate.meta({ description: 'The last day of `holdings_period`' }),
    holdings_source_id: sourceId.meta({
      description: 'The source of the holdings (SITCA’s quarterly holdings, or a MOPS file placed by hand); resolves in /sources/registry',
    }),
    holdings_period: z.string().regex(QUARTER_PATTERN).meta({ description: 'The quarter the holdings are published for, e.g. `2025Q3`' }),
    holdings_min_weight: z
      .number()
      .min(0)
      .max(1)
      .meta({
        description:
          'The publisher’s cut-off as a fraction of net assets: only holdings of at least this weight are listed (`0.01` ' +
          'for SITCA, which publishes holdings of 1 % or more); `0` when every holding is listed',
      }),
    listed_weight: z
      .number()
      .min(0)
      .meta({
        description:
          'Sum of the listed weights, 4 decimals: the share of net assets the listed holdings (and so the statistics) ' +
          'describe. Below 1 when the publisher leaves out holdings under `holdings_min_weight`',
      }),
    avg_score: z.number().nullable().meta({
      description: 'Weight-weighted mean score of the covered holdings (weights renormalised over them), 1 decimal; null when none is covered',
    }),
    min_score: z.number().nullable().meta({ description: 'Lowest score among the covered holdings; null when none is covered' }),
    assurance_coverage_pct: z.number().min(0).max(100).nullable().meta({
      description: '100 × covered weight of companies with assurance / covered weight, 1 decimal; null when none is covered',
    }),
    holdings: z.array(etfHoldingSchema).meta({ description: 'In the order published' }),
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

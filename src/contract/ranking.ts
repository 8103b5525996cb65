import { z } from 'zod';
import { successFields, tickerCode } from './common.js';
import { VERDICTS } from './vocabulary.js';
import { companySummarySchema } from './company.js';

export const rankingEntrySchema = z
  .strictObject({
    ticker: tickerCode,
    company_name: z.string(),
    credibility_score: z.number().int(),
    verdict: z.enum(VERDICTS),
    rank: z.number().int().positive(),
  })
  .meta({ id: 'RankingEntry' });

export const rankingMetaSchema = z
  .strictObject({
    total: z.number().int().nonnegative(),
    page: z.number().int().positive(),
    per_page: z.number().int().positive(),
    page_count: z.number().int().nonnegative(),
    has_prev: z.boolean(),
    has_next: z.boolean(),
    methodology_version: z.string(),
  })
  .meta({ id: 'RankingMeta' });

export const rankingResponseSchema = z
  .strictObject({
    ...successFields,
    data: z.union([z.array(rankingEntrySchema), z.array(companySummarySchema)]),
    meta: rankingMetaSchema,
  })
  .meta({ id: 'RankingResponse' });
export type RankingResponse = z.infer<typeof rankingResponseSchema>;

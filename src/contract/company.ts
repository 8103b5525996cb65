import { z } from 'zod';
import { snapshotId, successFields, tickerCode } from './common.js';
import { ASSURANCE_LEVELS, MARKET_TYPES, SCORE_COMPONENTS, VERDICTS } from './vocabulary.js';

export const scoreComponentSchema = z.strictObject({
  component: z.enum(SCORE_COMPONENTS),
  points: z.number().int().nonnegative(),
  max_points: z.number().int().positive(),
  detail: z.string(),
});

export const companySummarySchema = z
  .strictObject({
    ticker: tickerCode,
    company_name: z.string(),
    company_name_norm: z.string(),
    market_type: z.enum(MARKET_TYPES),
    industry: z.string(),
    credibility_score: z.number().int().min(0).max(100),
    verdict: z.enum(VERDICTS),
    rank: z.number().int().positive(),
    percentile: z.number().min(0).max(100),
    assurance_level: z.enum(ASSURANCE_LEVELS),
    has_assurance: z.boolean(),
    top_flags: z.array(z.string()).max(3),
    top_signal_labels: z.array(z.string()).max(3),
    carbon_fee_liable: z.boolean(),
    cbam_exposed: z.boolean(),
    score_breakdown: z.array(scoreComponentSchema),
    citation: z.string(),
  })
  .meta({ id: 'CompanySummary' });
export type CompanySummary = z.infer<typeof companySummarySchema>;

export const companyResponseSchema = z
  .strictObject({
    ...successFields,
    universe_snapshot_id: snapshotId.nullable(),
    company: companySummarySchema,
  })
  .meta({ id: 'CompanyResponse' });
export type CompanyResponse = z.infer<typeof companyResponseSchema>;

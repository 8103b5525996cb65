import { z } from 'zod';
import { successFields } from './common.js';

export const methodologyResponseSchema = z
  .strictObject({
    ...successFields,
    score_name: z.string(),
    version: z.string(),
    units: z.strictObject({ fine: z.literal('TWD'), emissions: z.literal('t CO2e') }),
    definitions: z.record(z.string(), z.string()),
    components: z.array(z.strictObject({ component: z.string(), max_points: z.number().int(), rules: z.array(z.string()) })),
    /** Methodology 1.1: the day reports for the year before are due by, and E(D) defined from it. */
    reporting_deadline: z.strictObject({
      due_by: z.strictObject({ month: z.number().int().min(1).max(12), day: z.number().int().min(1).max(31) }),
      expected_reporting_year: z.string(),
    }),
    verdicts: z.array(z.strictObject({ verdict: z.string(), min: z.number().int(), max: z.number().int() })),
    ranking: z.strictObject({ rank: z.string(), percentile: z.string() }),
    flags: z.array(z.strictObject({ id: z.string(), severity: z.string(), label: z.string(), raised_when: z.string(), source_of: z.string() })),
    carbon_fee: z.strictObject({ threshold_tco2e: z.number(), rule: z.string(), legal_basis: z.string() }),
    esg_etfs: z.strictObject({ rule: z.string(), keywords: z.array(z.string()), fund_types: z.array(z.string()) }).meta({
      description:
        'Which ETFs are rated: domestic-constituent equity ETFs (by TWSE fund type) whose name or tracked index contains one of the keywords',
    }),
    cbam: z.strictObject({
      sectors: z.array(z.string()),
      by_industry: z.record(z.string(), z.array(z.string())),
      by_product: z.array(z.strictObject({ ticker: z.string(), sector: z.string(), product: z.string() })),
    }),
    citation: z.string(),
  })
  .meta({ id: 'MethodologyResponse' });
export type MethodologyResponse = z.infer<typeof methodologyResponseSchema>;

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
    verdicts: z.array(z.strictObject({ verdict: z.string(), min: z.number().int(), max: z.number().int() })),
    ranking: z.strictObject({ rank: z.string(), percentile: z.string() }),
    flags: z.array(z.strictObject({ id: z.string(), severity: z.string(), label: z.string(), raised_when: z.string(), source_of: z.string() })),
    carbon_fee: z.strictObject({ threshold_tco2e: z.number(), rule: z.string(), legal_basis: z.string() }),
    cbam: z.strictObject({ sectors: z.array(z.string()), by_industry: z.record(z.string(), z.array(z.string())), by_product: z.array(z.strictObject({ ticker: z.string(), sector: z.string(), product: z.string() })) }),
    citation: z.string(),
  })
  .meta({ id: 'MethodologyResponse' });
export type MethodologyResponse = z.infer<typeof methodologyResponseSchema>;

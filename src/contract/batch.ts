import { z } from 'zod';
import { successFields } from './common.js';
import { companySummarySchema } from './company.js';

export const batchItemSchema = z.union([
  z.strictObject({ ticker: z.string(), ok: z.literal(true), company: companySummarySchema }),
  z.strictObject({
    ticker: z.string(),
    ok: z.literal(false),
    error: z.strictObject({ code: z.enum(['NOT_FOUND', 'BAD_REQUEST']), message: z.string() }),
  }),
]);

export const batchResponseSchema = z
  .strictObject({
    ...successFields,
    data: z.array(batchItemSchema),
    meta: z.strictObject({ requested: z.number().int(), found: z.number().int(), not_found: z.number().int() }),
  })
  .meta({ id: 'BatchResponse' });
export type BatchResponse = z.infer<typeof batchResponseSchema>;

import { z } from 'zod';
import { successFields } from './common.js';
import { canonicalViewSchema } from './canonical.js';
import { companySummarySchema } from './company.js';

export const compareResponseSchema = z
  .strictObject({
    ...successFields,
    data: z.array(
      canonicalViewSchema
        .omit({ ok: true, generated_at: true, methodology_version: true, dataset_snapshot_id: true, data_asof: true })
        .extend({ company: companySummarySchema }),
    ),
  })
  .meta({ id: 'CompareResponse' });
export type CompareResponse = z.infer<typeof compareResponseSchema>;

import { z } from 'zod';
import { successFields } from './common.js';

export const indexResponseSchema = z
  .strictObject({
    ...successFields,
    name: z.string(),
    description: z.string(),
    disclaimer: z.string(),
    endpoints: z.array(
      z.strictObject({ method: z.enum(['GET', 'POST']), path: z.string(), description: z.string(), example: z.string().optional() }),
    ),
  })
  .meta({ id: 'IndexResponse' });
export type IndexResponse = z.infer<typeof indexResponseSchema>;

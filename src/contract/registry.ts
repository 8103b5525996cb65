import { z } from 'zod';
import { countMeta, isoTimestamp, sourceId, successFields } from './common.js';
import { UPDATE_FREQUENCIES } from './vocabulary.js';

export const sourceEntrySchema = z
  .strictObject({
    source_id: sourceId,
    name: z.string(),
    owner_org: z.string(),
    owner_org_name: z.string(),
    is_government: z.boolean(),
    licence: z.strictObject({ id: z.string(), name: z.string(), url: z.string().url() }),
    update_frequency: z.enum(UPDATE_FREQUENCIES),
    homepage_url: z.string().url(),
    description: z.string(),
    record_count: z.number().int().nonnegative(),
    retrieved_at: isoTimestamp,
  })
  .meta({ id: 'SourceEntry' });
export type SourceEntry = z.infer<typeof sourceEntrySchema>;

export const registryResponseSchema = z
  .strictObject({ ...successFields, data: z.array(sourceEntrySchema), meta: countMeta })
  .meta({ id: 'RegistryResponse' });
export type RegistryResponse = z.infer<typeof registryResponseSchema>;

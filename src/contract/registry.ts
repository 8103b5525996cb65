import { z } from 'zod';
import { countMeta, isoTimestamp, sourceId, successFields } from './common.js';
import { UPDATE_FREQUENCIES } from './vocabulary.js';

/** One file a snapshot read for a source: every fact of the source traces to these exact bytes. */
export const sourceFileSchema = z
  .strictObject({
    file: z.string(),
    /** Where `npm run fetch` downloaded it (without any API key); null for files not fetched by it (the demo's, hand-placed ones). */
    url: z.string().url().nullable(),
    retrieved_at: isoTimestamp,
    bytes: z.number().int().nonnegative(),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
  })
  .meta({ id: 'SourceFile' });
export type SourceFile = z.infer<typeof sourceFileSchema>;

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
    /** Added with real-source fetching: the files read, with URL, retrieval time and sha256. */
    files: z.array(sourceFileSchema),
  })
  .meta({ id: 'SourceEntry' });
export type SourceEntry = z.infer<typeof sourceEntrySchema>;

export const registryResponseSchema = z
  .strictObject({ ...successFields, data: z.array(sourceEntrySchema), meta: countMeta })
  .meta({ id: 'RegistryResponse' });
export type RegistryResponse = z.infer<typeof registryResponseSchema>;

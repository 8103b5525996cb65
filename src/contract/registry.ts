import { z } from 'zod';
import { countMeta, isoDate, isoTimestamp, sourceId, successFields } from './common.js';
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

/**
 * `licence.id` of a source whose publisher grants no open-data licence (docs/api-decisions.md, "API decisions
 * beyond the contract"): the entry keeps the contract's shape and says so instead of naming a licence.
 */
export const NO_OPEN_DATA_LICENCE = 'none';

export const licenceSchema = z
  .strictObject({
    id: z
      .string()
      .min(1)
      .meta({
        description:
          `The licence’s identifier (e.g. \`OGDL-Taiwan-1.0\`), or \`${NO_OPEN_DATA_LICENCE}\` when the publisher grants ` +
          `no open-data licence: the data is public disclosure only, and re-use rests on the publisher’s own terms`,
      }),
    name: z
      .string()
      .min(1)
      .meta({
        description: `The licence’s name; with \`id: ${NO_OPEN_DATA_LICENCE}\`, a sentence saying the data is public disclosure with no open-data licence (it always contains “no open-data licence”)`,
      }),
    url: z
      .string()
      .url()
      .meta({ description: `The licence text; with \`id: ${NO_OPEN_DATA_LICENCE}\` (no licence text exists), the publisher’s terms or home page` }),
  })
  // No licence is never dressed up as one: the name must say so.
  .refine((l) => l.id !== NO_OPEN_DATA_LICENCE || /no open-data licen[cs]e/i.test(l.name), {
    message: `a licence with id "${NO_OPEN_DATA_LICENCE}" must say "no open-data licence" in its name`,
    path: ['name'],
  })
  .meta({
    id: 'Licence',
    description:
      `The terms the publisher grants. A source without an open-data licence (an industry association’s public ` +
      `disclosure) has \`id: "${NO_OPEN_DATA_LICENCE}"\`, never a licence it does not grant`,
  });

export const sourceEntrySchema = z
  .strictObject({
    source_id: sourceId,
    name: z.string(),
    owner_org: z.string(),
    owner_org_name: z.string(),
    is_government: z.boolean(),
    licence: licenceSchema,
    update_frequency: z.enum(UPDATE_FREQUENCIES),
    homepage_url: z.string().url(),
    description: z.string(),
    record_count: z.number().int().nonnegative(),
    retrieved_at: isoTimestamp,
    carried_forward: z
      .strictObject({
        attempted_at: isoTimestamp.meta({ description: 'When the refresh asked the publisher and got no usable answer' }),
        reason: z.string().min(1).meta({
          description:
            'Why: the publisher answered empty, blocked the client, answered a not-found page where data was expected, or stayed unavailable through every retry',
        }),
      })
      .nullable()
      .meta({
        description:
          'Null when this snapshot used the publisher’s latest answer. Otherwise the latest answer was empty, blocked, a not-found page or ' +
          'failed, and this snapshot used the previous good answers (retrieved at `retrieved_at`, within the source’s ' +
          'limit: 7 days for daily and weekly sources, 45 monthly, 120 quarterly, 400 annual)',
      }),
    publisher_date: isoDate.nullable().meta({
      description:
        'The newest date the publisher stamped on the answers this snapshot used (e.g. 出表日期), so an answer served ' +
        'as current but stamped long ago is visible as such; null when its answers carry no such date',
    }),
    /** Added with real-source fetching: the files read, with URL, retrieval time and sha256. */
    files: z.array(sourceFileSchema),
  })
  .meta({ id: 'SourceEntry' });
export type SourceEntry = z.infer<typeof sourceEntrySchema>;

export const registryResponseSchema = z
  .strictObject({ ...successFields, data: z.array(sourceEntrySchema), meta: countMeta })
  .meta({ id: 'RegistryResponse' });
export type RegistryResponse = z.infer<typeof registryResponseSchema>;

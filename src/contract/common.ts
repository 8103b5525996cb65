import { z } from 'zod';
import 'zod-openapi';
import { ERROR_CODES, SNAPSHOT_ID_PATTERN, SOURCE_ID_PATTERN, UPPER_CODE_PATTERN } from './vocabulary.js';

/**
 * Shapes shared by every response. Contract section 1: every body, success or error, carries the
 * three snapshot fields; every success body carries `ok: true` and `generated_at`.
 */
export const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .meta({ description: 'Date, YYYY-MM-DD' });
export const isoTimestamp = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/)
  .meta({ description: 'ISO 8601 timestamp, UTC' });
export const snapshotId = z
  .string()
  .regex(SNAPSHOT_ID_PATTERN)
  .meta({ description: 'Snapshot id: a date with a .N suffix for a second build on the same day' });
export const sourceId = z.string().regex(SOURCE_ID_PATTERN).meta({ description: 'Source registry id; resolves in /sources/registry' });
/** An absolute https URL with no unexpanded `{…}` template marker. */
export const httpsUrl = z.string().regex(/^https:\/\/[^\s{}]+$/, 'an expanded https URL');
export const tickerCode = z.string().regex(UPPER_CODE_PATTERN).meta({ description: 'Ticker or fund code, upper case' });

export const snapshotFields = {
  methodology_version: z.string().regex(/^\d+\.\d+$/),
  dataset_snapshot_id: snapshotId,
  data_asof: isoDate,
};

export const successFields = {
  ok: z.literal(true),
  generated_at: isoTimestamp,
  ...snapshotFields,
};

export const errorBodySchema = z
  .strictObject({
    ok: z.literal(false),
    error: z.strictObject({
      code: z.enum(ERROR_CODES),
      message: z.string().min(1),
      request_id: z.string().uuid(),
    }),
    // When no snapshot can be read (502) these three are null: there is nothing to name.
    methodology_version: z.string().nullable(),
    dataset_snapshot_id: snapshotId.nullable(),
    data_asof: isoDate.nullable(),
  })
  .meta({ id: 'Error' });
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const countMeta = z.strictObject({ total: z.number().int().nonnegative() });

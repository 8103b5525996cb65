import { z } from 'zod';
import { isoDate, isoTimestamp, snapshotId, successFields } from './common.js';
import { SNAPSHOT_KINDS } from './vocabulary.js';

export const snapshotFileSchema = z.strictObject({
  path: z.string().regex(/^\/api\/v1\/downloads\//),
  bytes: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  mediatype: z.string(),
});

export const snapshotEntrySchema = z
  .strictObject({
    dataset_snapshot_id: snapshotId,
    data_asof: isoDate,
    methodology_version: z.string(),
    kind: z.enum(SNAPSHOT_KINDS),
    published_at: isoTimestamp,
    counts: z.strictObject({ companies: z.number().int(), penalties: z.number().int(), etfs: z.number().int(), sources: z.number().int() }),
    files: z.array(snapshotFileSchema),
  })
  .meta({ id: 'SnapshotEntry' });
export type SnapshotEntry = z.infer<typeof snapshotEntrySchema>;

export const snapshotsResponseSchema = z
  .strictObject({ ...successFields, data: z.array(snapshotEntrySchema), meta: z.strictObject({ total: z.number().int() }) })
  .meta({ id: 'SnapshotsResponse' });
export type SnapshotsResponse = z.infer<typeof snapshotsResponseSchema>;

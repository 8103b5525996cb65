import { z } from 'zod';
import { isoDate, snapshotId, successFields, tickerCode } from './common.js';
import { scoreComponentSchema } from './company.js';
import { FLAG_ID_PATTERN, VERDICTS } from './vocabulary.js';

/** One snapshot's summary of a company, as that snapshot served it (contract 10, company history). */
export const historyEntrySchema = z
  .strictObject({
    dataset_snapshot_id: snapshotId,
    data_asof: isoDate,
    methodology_version: z.string().regex(/^\d+\.\d+$/),
    credibility_score: z.number().int().min(0).max(100),
    verdict: z.enum(VERDICTS),
    rank: z.number().int().positive(),
    percentile: z.number().min(0).max(100),
    flags: z.array(z.string().regex(FLAG_ID_PATTERN)),
    score_breakdown: z.array(scoreComponentSchema),
  })
  .meta({ id: 'HistoryEntry' });
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

export const historyResponseSchema = z
  .strictObject({
    ...successFields,
    ticker: tickerCode,
    data: z.array(historyEntrySchema).min(1).meta({
      description:
        'One entry per published snapshot that held the company, newest first: by data_asof, then publish time (pruned snapshots included)',
    }),
  })
  .meta({ id: 'HistoryResponse' });
export type HistoryResponse = z.infer<typeof historyResponseSchema>;

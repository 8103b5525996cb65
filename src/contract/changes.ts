import { z } from 'zod';
import { successFields, snapshotId, sourceId, tickerCode } from './common.js';
import { rankingMetaSchema } from './ranking.js';
import { nonEmptyParam, oneOfParam, intParam } from './params.js';
import { CAUSE_KINDS, CHANGE_KINDS, FLAG_ID_PATTERN, LIMITS, SCORE_COMPONENTS, VERDICTS } from './vocabulary.js';

/** Contract 10: one reason a company moved. The `points` of a company's causes sum to its `score_delta`. */
export const causeSchema = z
  .strictObject({
    kind: z.enum(CAUSE_KINDS),
    component: z
      .enum(SCORE_COMPONENTS)
      .nullable()
      .meta({ description: 'Methodology component whose points moved; null for causes that move no points' }),
    points: z.number().int().nullable().meta({ description: 'Point change of that component due to this cause; null when none' }),
    source_id: sourceId
      .nullable()
      .meta({ description: 'Source of the fact behind the cause; null when no fact is (the as-of date, the methodology)' }),
    detail: z.string().min(1),
  })
  .meta({ id: 'ChangeCause' });
export type Cause = z.infer<typeof causeSchema>;

export const changeSideSchema = z
  .strictObject({
    credibility_score: z.number().int().min(0).max(100),
    verdict: z.enum(VERDICTS),
    rank: z.number().int().positive(),
    flags: z.array(z.string().regex(FLAG_ID_PATTERN)),
  })
  .meta({ id: 'ChangeSide' });
export type ChangeSide = z.infer<typeof changeSideSchema>;

export const changeItemSchema = z
  .strictObject({
    ticker: tickerCode,
    company_name: z.string(),
    change: z.enum(CHANGE_KINDS),
    before: changeSideSchema.nullable(),
    after: changeSideSchema.nullable(),
    score_delta: z.number().int().min(-100).max(100),
    causes: z.array(causeSchema),
  })
  .meta({ id: 'ChangeItem' });
export type ChangeItem = z.infer<typeof changeItemSchema>;

export const changesResponseSchema = z
  .strictObject({
    ...successFields,
    from_snapshot_id: snapshotId.nullable().meta({ description: 'The previous published snapshot; null for the first' }),
    data: z.array(changeItemSchema),
    meta: rankingMetaSchema,
  })
  .meta({ id: 'ChangesResponse' });
export type ChangesResponse = z.infer<typeof changesResponseSchema>;

/** GET /changes?… (contract 10, filtered changes): computed by the shim, metered. */
export const changesQuerySchema = z.strictObject({
  cause: oneOfParam('cause', CAUSE_KINDS, 'Companies with at least one cause of this kind').optional(),
  industry: nonEmptyParam('industry', 'give a TWSE industry name in Chinese, e.g. 半導體業')
    .optional()
    .meta({ description: 'TWSE industry name in Chinese, exact, e.g. 半導體業' }),
  min_abs_delta: intParam('min_abs_delta', { min: 0, max: 100, description: 'Companies whose |score_delta| is at least this (0–100)' }),
  limit: intParam('limit', { min: 1, max: LIMITS.changesPerPage }, LIMITS.changesPerPage).meta({
    description: `Page size, 1–${LIMITS.changesPerPage} (default ${LIMITS.changesPerPage})`,
  }),
  page: intParam('page', { min: 1 }, 1).meta({ description: 'Page number from 1 (default 1); past the end: empty page' }),
});
export type ChangesQuery = z.output<typeof changesQuerySchema>;

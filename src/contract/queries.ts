import { z } from 'zod';
import {
  codeSchema,
  flagIdParam,
  nonEmptyParam,
  oneOfParam,
  pageSegmentSchema,
  intParam,
  searchParam,
  sectionsParam,
  tickerListParam,
  truncate,
} from './params.js';
import { ASSURANCE_LEVELS, CODE_PATTERN, LIMITS, MARKET_TYPES, RANKING_FORMATS, RANKING_MODES, RANKING_SORTS } from './vocabulary.js';

/**
 * Every query string and POST body the API accepts (contract 1.2, 4.1–4.6), one schema each. The
 * shim parses requests with these (src/contract/parse-request.ts), the OpenAPI document describes
 * them, and the tests read their values and limits from them: adding a parameter here is the whole
 * change. Each schema is strict: a parameter it does not list is a 400 naming it.
 */

/** Endpoints that take no parameters at all (static files asked for with a query string). */
export const noQuerySchema = z.strictObject({});

export const rankingQuerySchema = z.strictObject({
  limit: intParam('limit', { min: 1, max: LIMITS.perPageMax }, LIMITS.perPageDefault).meta({
    description: `Page size, 1–${LIMITS.perPageMax} (default ${LIMITS.perPageDefault})`,
  }),
  page: intParam('page', { min: 1 }, 1).meta({ description: 'Page number from 1 (default 1); past the end: empty page' }),
  sort: oneOfParam('sort', RANKING_SORTS, 'score_desc (default) or score_asc; ties by ticker ascending').default(RANKING_SORTS[0]),
  industry: nonEmptyParam('industry', 'give a TWSE industry name in Chinese, e.g. 半導體業')
    .optional()
    .meta({ description: 'TWSE industry name in Chinese, exact, e.g. 半導體業' }),
  assurance_level: oneOfParam('assurance_level', ASSURANCE_LEVELS).optional(),
  market_type: oneOfParam('market_type', MARKET_TYPES).optional(),
  gf: flagIdParam.optional(),
  q: searchParam('q', LIMITS.qMaxChars).optional(),
  mode: oneOfParam('mode', RANKING_MODES, 'compact (default): five fields per entry; full: the whole company summary').default(RANKING_MODES[0]),
  format: oneOfParam(
    'format',
    RANKING_FORMATS,
    'csv: every matching row (page and limit ignored), mode=full columns, with disclosure_conduct_count and ' +
      'disclosure_conduct_latest (the conduct section: its row count and newest date) before citation',
  ).default(RANKING_FORMATS[0]),
});
export type RankingQuery = z.output<typeof rankingQuerySchema>;

export const canonicalQuerySchema = z.strictObject({
  fields: sectionsParam.optional(),
});

export const compareQuerySchema = z.strictObject({
  tickers: tickerListParam('tickers', LIMITS.compareMin, LIMITS.compareMax),
  fields: sectionsParam.optional(),
});

export const registryQuerySchema = z.strictObject({
  gov_only: oneOfParam('gov_only', ['true', 'false'], 'true: only government sources; false: no filter')
    .optional()
    .transform((v) => v === 'true'),
  owner_org: nonEmptyParam('owner_org', 'give an org code such as MOENV, TWSE, TPEX or MOPS')
    .optional()
    .meta({ description: 'Owner org code, case-insensitive, e.g. MOENV' }),
});

/** Path parameters of the code-bearing paths. */
export const tickerPathSchema = z.object({ ticker: codeSchema('ticker') });
export const fundPathSchema = z.object({ code: codeSchema('fund code') });
export const pagePathSchema = z.object({ page: pageSegmentSchema });
export { pageSegmentSchema };

/** One batch item as the client wrote it: a well-formed code is upper-cased, a malformed one kept to be reported back. */
const batchCode = (t: string) => (CODE_PATTERN.test(t.trim()) ? t.trim().toUpperCase() : t);

/** POST bodies listing codes (contract 4.6 batch, 4.7 packs): `{"tickers": [...]}`, 1 to `max` distinct. */
export function tickersBodySchema(max: number, malformed: string) {
  return z
    .strictObject(
      {
        tickers: z
          .array(z.unknown(), {
            error: (iss) =>
              iss.input === undefined ? `The body lacks "tickers": an array of 1 to ${max} codes.` : '"tickers" must be an array of strings.',
          })
          .transform((list, ctx) => {
            const bad = list.findIndex((t) => typeof t !== 'string');
            if (bad >= 0) {
              ctx.addIssue({ code: 'custom', message: `"tickers"[${bad}] is not a string.` });
              return z.NEVER;
            }
            const codes = [...new Set((list as string[]).map(batchCode))];
            if (codes.length === 0) ctx.addIssue({ code: 'custom', message: `"tickers" is empty; give 1 to ${max} codes.` });
            if (codes.length > max) ctx.addIssue({ code: 'custom', message: `"tickers" names ${codes.length} distinct codes; the most is ${max}.` });
            return codes;
          })
          .meta({
            override: { items: { type: 'string' }, minItems: 1, 'x-distinct-max': max },
            description: `1–${max} distinct codes (duplicates removed, any case; ${malformed})`,
          }),
      },
      {
        error: (iss) => {
          if (iss.code === 'unrecognized_keys') return `Unknown key "${truncate(String(iss.keys[0]))}" in the body; the only key is "tickers".`;
          return `The body must be a JSON object: {"tickers": ["D1101", …]}.`;
        },
      },
    )
    .transform((b) => b.tickers);
}
export const batchBodySchema = tickersBodySchema(LIMITS.batchMax, 'a malformed code is reported back in its item');
export const packsBodySchema = tickersBodySchema(LIMITS.packMax, 'a malformed code is a 400, unknown codes one 404 naming them');

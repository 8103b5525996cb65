import { z } from 'zod';

/**
 * Query parameters of the computed endpoints (contract 4.1–4.6), as documented in OpenAPI. The
 * shim's parser (server/queries) applies the same sets and bounds and names them in its 400s.
 */
export const SECTION_NAMES = ['penalties', 'carbon', 'carbon_disclosure', 'carbon_fee', 'assurance', 'flags'] as const;

export const rankingQuerySchema = z.strictObject({
  limit: z.string().regex(/^\d+$/).optional().meta({ description: 'Page size, 1–200 (default 50)' }),
  page: z.string().regex(/^\d+$/).optional().meta({ description: 'Page number from 1 (default 1); past the end: empty page' }),
  sort: z.enum(['score_desc', 'score_asc']).optional().meta({ description: 'score_desc (default) or score_asc; ties by ticker ascending' }),
  industry: z.string().optional().meta({ description: 'TWSE industry name in Chinese, exact, e.g. 半導體業' }),
  assurance_level: z.enum(['none', 'limited', 'reasonable']).optional(),
  market_type: z.enum(['listed', 'otc']).optional(),
  gf: z.string().regex(/^GF-[A-Za-z0-9]+$/).optional().meta({ description: 'Companies carrying this flag id' }),
  q: z.string().max(100).optional().meta({ description: 'Case-insensitive substring of ticker, company_name or company_name_norm' }),
  mode: z.enum(['compact', 'full']).optional().meta({ description: 'compact (default): five fields per entry; full: the whole company summary' }),
  format: z.enum(['json', 'csv']).optional().meta({ description: 'csv: every matching row (page and limit ignored), mode=full columns' }),
});

export const canonicalQuerySchema = z.strictObject({
  fields: z.string().optional().meta({ description: `Comma-separated sections: ${SECTION_NAMES.join(', ')} (carbon = carbon_disclosure)` }),
});

export const compareQuerySchema = z.strictObject({
  tickers: z.string().meta({ description: 'Comma-separated tickers, 2–5 distinct' }),
  fields: canonicalQuerySchema.shape.fields,
});

export const registryQuerySchema = z.strictObject({
  gov_only: z.enum(['true', 'false']).optional(),
  owner_org: z.string().optional().meta({ description: 'Owner org code, case-insensitive, e.g. MOENV' }),
});

export const batchBodySchema = z.strictObject({
  tickers: z.array(z.string()).min(1).meta({ description: '1–100 distinct codes' }),
});

import { z } from 'zod';
import { httpsUrl, isoDate, isoTimestamp, snapshotFields, sourceId, tickerCode } from './common.js';
import { ASSURED_LEVELS, BOUNDARIES, FLAG_ID_PATTERN, SEVERITIES } from './vocabulary.js';

export const penaltySchema = z
  .strictObject({
    source_id: sourceId,
    source_name: z.string(),
    source_url: httpsUrl.meta({ description: 'The original government record' }),
    fine: z.number().nonnegative(),
    fine_currency: z.literal('TWD'),
    agency: z.string().meta({ description: 'Short agency code: MOENV, or XXX-EPB for a local environmental protection bureau' }),
    date: isoDate,
    summary: z.string(),
    serious: z.boolean().meta({ description: 'The source marks it 情節重大 (serious)' }),
    record_id: z.string().meta({ description: 'The source’s document number (裁處書字號)' }),
  })
  .meta({ id: 'Penalty' });

export const carbonDisclosureSchema = z
  .strictObject({
    source_id: sourceId,
    source_name: z.string(),
    deep_link: httpsUrl,
    scope1: z.number().nonnegative().nullable(),
    scope2: z.number().nonnegative().nullable(),
    scope3: z.number().nonnegative().nullable(),
    scope1_verified: z.boolean(),
    scope2_verified: z.boolean(),
    boundary: z.enum(BOUNDARIES),
    unit: z.literal('t CO2e'),
    year: z.number().int(),
    asof: isoTimestamp,
    registry: z
      .strictObject({
        year: z.number().int(),
        total_tco2e: z.number().nonnegative(),
        source_id: sourceId,
        source_name: z.string(),
        deep_link: httpsUrl,
      })
      .nullable()
      .meta({ description: 'The government GHG registry’s total (direct + energy-indirect, all the company’s sites) for the same year, which GF-V01 compares scope 1 + 2 with; null when the company has no registered site that year' }),
  })
  .meta({ id: 'CarbonDisclosure' });

export const carbonFeeSchema = z
  .strictObject({
    obligated: z.boolean(),
    basis: z.string(),
    threshold_tco2e: z.literal(25000),
    source_id: sourceId,
    source_name: z.string(),
    deep_link: httpsUrl,
  })
  .meta({ id: 'CarbonFee' });

export const assuranceSchema = z
  .strictObject({
    provider: z.string(),
    level: z.enum(ASSURED_LEVELS),
    year: z.number().int(),
    source_id: sourceId,
    source_name: z.string(),
    deep_link: httpsUrl,
  })
  .meta({ id: 'Assurance' });

export const flagSchema = z
  .strictObject({
    id: z.string().regex(FLAG_ID_PATTERN),
    label: z.string(),
    severity: z.enum(SEVERITIES),
    source_id: sourceId,
  })
  .meta({ id: 'Flag' });

/** The five sections; each is optional in the schema because `?fields=` may leave some out. */
export const canonicalSections = {
  penalties: z.array(penaltySchema),
  carbon_disclosure: carbonDisclosureSchema.nullable(),
  carbon_fee: carbonFeeSchema,
  assurance: assuranceSchema.nullable(),
  flags: z.array(flagSchema),
};

export const canonicalViewSchema = z
  .strictObject({
    ok: z.literal(true),
    generated_at: isoTimestamp,
    ...snapshotFields,
    disclaimer: z.string(),
    ticker: tickerCode,
    company_name_norm: z.string(),
    as_of: isoTimestamp,
    penalties: canonicalSections.penalties.optional(),
    carbon_disclosure: canonicalSections.carbon_disclosure.optional(),
    carbon_fee: canonicalSections.carbon_fee.optional(),
    assurance: canonicalSections.assurance.optional(),
    flags: canonicalSections.flags.optional(),
  })
  .meta({ id: 'CanonicalView' });
export type CanonicalView = z.infer<typeof canonicalViewSchema>;

/** The static canonical view always has all five sections. */
export const fullCanonicalViewSchema = canonicalViewSchema.required({
  penalties: true, carbon_disclosure: true, carbon_fee: true, assurance: true, flags: true,
});

import { z } from 'zod';
import { httpsUrl, isoDate, isoTimestamp, snapshotFields, sourceId, tickerCode } from './common.js';
import { ASSURANCE_KINDS, ASSURED_LEVELS, BOUNDARIES, CONDUCT_KINDS, FLAG_ID_PATTERN, SEVERITIES } from './vocabulary.js';

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
    scope3_verified: z.boolean().meta({ description: 'Each scope’s 取得驗證 (是 is true); false where its figure is null' }),
    boundary: z
      .enum(BOUNDARIES)
      .nullable()
      .meta({
        description:
          'Scope 1’s 資料邊界 classified: `consolidated` when it contains 已完成合併財務報表之母子公司, `parent` when it is ' +
          'exactly 已完成母公司, `other` for any other text (a plant list, 本公司為個別公司), null where the exchange wrote N/A',
      }),
    boundary_text: z
      .string()
      .nullable()
      .meta({ description: 'That 資料邊界 as the exchange served it (references decoded, ends trimmed); null with `boundary`' }),
    unit: z.literal('t CO2e'),
    year: z.number().int(),
    asof: isoTimestamp.meta({
      description: 'The date of the exchange file the disclosure was read from (its 出表日期, ISO 8601, UTC), not the date the company published it',
    }),
    registry: z
      .strictObject({
        year: z.number().int(),
        total_tco2e: z.number().nonnegative(),
        source_id: sourceId,
        source_name: z.string(),
        deep_link: httpsUrl,
      })
      .nullable()
      .meta({
        description:
          'The government GHG registry’s total (direct + energy-indirect, all the company’s sites) for the same year, ' +
          'which GF-V01 compares scope 1 + 2 with; null when the company has no registered site that year',
      }),
  })
  .meta({ id: 'CarbonDisclosure' });

export const carbonFeeSchema = z
  .strictObject({
    obligated: z.boolean(),
    basis: z.string(),
    basis_tco2e: z
      .number()
      .nonnegative()
      .nullable()
      .meta({
        description:
          'The figure `basis` states: the registered total (direct + energy-indirect, t CO2e, whole tonnes) of the ' +
          'manufacturing site that made the company liable; null when the basis states none (a power or gas supplier, no ' +
          'liability, no registry data)',
      }),
    threshold_tco2e: z.literal(25000),
    source_id: sourceId,
    source_name: z.string(),
    deep_link: httpsUrl,
  })
  .meta({ id: 'CarbonFee' });

export const verificationSchema = z
  .strictObject({
    provider: z.string().meta({ description: 'The verifier (a certification body), as the filing names it' }),
    standard: z
      .string()
      .nullable()
      .meta({ description: 'The standard of its statement as the filing states it (e.g. `AA1000`, `ISAE 3000`); null when the filing names none' }),
  })
  .meta({ id: 'Verification', description: 'A third-party verification of the same report beside its CPA assurance' });

export const assuranceSchema = z
  .strictObject({
    provider: z
      .string()
      .meta({ description: 'Who assured the report, as the filing names it: the CPA firm (`kind: cpa`) or the verifier (`kind: third_party`)' }),
    level: z.enum(ASSURED_LEVELS).meta({
      description:
        'For `cpa`, from the opinion type (有限確信 limited, 合理確信 reasonable); for `third_party`, `limited` unless its standard states a high or reasonable level. The methodology scores this level',
    }),
    kind: z.enum(ASSURANCE_KINDS).meta({
      description:
        '`cpa`: a CPA firm’s assurance under the FSC rules; `third_party`: a verifier’s statement only (e.g. AA1000 or ' +
        'ISAE 3000 by a certification body). When a report has both, the CPA assurance is the one shown and scored, ' +
        'and the verifier is listed in `verifications`',
    }),
    standard: z
      .string()
      .nullable()
      .meta({ description: 'The assurance standard as the filing states it (e.g. `確信準則3000號`, `AA1000`); null when the filing names none' }),
    verifications: z.array(verificationSchema).meta({
      description: 'Third-party verifiers of the same report beside a CPA assurance; empty when there are none (always empty for `third_party`)',
    }),
    year: z
      .number()
      .int()
      .meta({ description: 'The report year assured: the company’s most recent assured report, which may be older than its latest disclosure' }),
    source_id: sourceId,
    source_name: z.string(),
    deep_link: httpsUrl.meta({ description: 'The assured report: its file where the publisher has one, else its page for the company and year' }),
  })
  // Contract 3.2: verifiers are listed beside a CPA assurance; a verifier alone is the assurance itself.
  .refine((a) => a.kind === 'cpa' || a.verifications.length === 0, { message: 'only a CPA assurance lists verifications', path: ['verifications'] })
  .meta({ id: 'Assurance' });

export const flagSchema = z
  .strictObject({
    id: z.string().regex(FLAG_ID_PATTERN),
    label: z.string(),
    severity: z.enum(SEVERITIES),
    source_id: sourceId,
  })
  .meta({ id: 'Flag' });

/** Contract 3.2, `disclosure_conduct` (methodology 1.2): one row of a company's conduct as a discloser. */
export const conductSchema = z
  .strictObject({
    source_id: sourceId,
    source_name: z.string(),
    source_url: httpsUrl.meta({ description: 'The dataset the row is in (no record-level link is known: the row is the one of this date and code)' }),
    kind: z.enum(CONDUCT_KINDS).meta({
      description:
        '`breach`: the exchange’s penalty for a disclosure breach (t187ap23); `sanction`: an FSC sanction in the company’s case (t187ap22)',
    }),
    date: isoDate.meta({ description: '發函日期: when the decision was sent' }),
    summary: z.string().meta({ description: '違規事由, cleaned (references decoded, line breaks as one space)' }),
    rule: z.string().nullable().meta({ description: 'The articles named, or null' }),
    fine: z.number().nonnegative().nullable().meta({
      description: 'NT$, where the dataset has an amount field (t187ap23, served in units of NT$10,000); else null (a fine in 裁處情形 stays text)',
    }),
    fine_currency: z.literal('TWD'),
    decision: z.string().nullable().meta({ description: '裁處情形 (t187ap22), or null' }),
    record_id: z.string(),
  })
  .meta({ id: 'DisclosureConduct' });

/** The six sections; each is optional in the schema because `?fields=` may leave some out. */
export const canonicalSections = {
  penalties: z.array(penaltySchema),
  carbon_disclosure: carbonDisclosureSchema.nullable(),
  carbon_fee: carbonFeeSchema,
  assurance: assuranceSchema.nullable(),
  flags: z.array(flagSchema),
  disclosure_conduct: z.array(conductSchema),
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
    disclosure_conduct: canonicalSections.disclosure_conduct.optional(),
  })
  .meta({ id: 'CanonicalView' });
export type CanonicalView = z.infer<typeof canonicalViewSchema>;

/** The static canonical view always has all six sections. */
export const fullCanonicalViewSchema = canonicalViewSchema.required({
  penalties: true,
  carbon_disclosure: true,
  carbon_fee: true,
  assurance: true,
  flags: true,
  disclosure_conduct: true,
});

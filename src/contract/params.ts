import { z } from 'zod';
import {
  CANONICAL_SECTIONS,
  CODE_PATTERN,
  CODE_RULE,
  FLAG_ID_QUERY_PATTERN,
  SECTION_ALIASES,
  SECTION_NAMES,
  type CanonicalSection,
} from './vocabulary.js';

/**
 * Builders for request values (contract 1.1, 1.2). Each carries the exact 400 message a client sees
 * when the value breaks its rule, and its OpenAPI description, so one definition serves the parser,
 * the document and the tests. Values arrive NFC-normalised and trimmed (parse-request.ts does that).
 */

/** Quotes user input in messages without letting a huge value through. */
export function truncate(s: string, max = 40): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

const inputOf = (iss: { input?: unknown }) => truncate(String(iss.input));

/** The parse of a whole number from `min` to `max` in plain decimal digits (leading zeros allowed, as in `?page=02`). */
function wholeNumber(name: string, min: number, max: number | undefined) {
  const range = `from ${min}${max === undefined ? '' : ` to ${max}`}`;
  const message = (iss: { input?: unknown }) => `Query parameter "${name}" must be a whole number ${range}; got "${inputOf(iss)}".`;
  const schema = z
    .string()
    .regex(/^\d{1,15}$/, { error: message })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(min, { error: (iss) => message({ input: iss.input }) })
        .max(max ?? Number.MAX_SAFE_INTEGER, { error: (iss) => message({ input: iss.input }) }),
    )
    .optional();
  return { schema, range };
}

interface IntRange {
  min: number;
  max?: number;
  /** Its OpenAPI description; default: the range (and the fallback). */
  description?: string;
}

/**
 * A query parameter that is a whole number in a range, optional; with `fallback`, that value when
 * absent. On the wire a string of digits; documented as what it means: an integer in range.
 */
export function intParam(name: string, range: IntRange): ReturnType<typeof wholeNumber>['schema'];
export function intParam(name: string, range: IntRange, fallback: number): ReturnType<typeof withFallback>;
export function intParam(name: string, { min, max, description }: IntRange, fallback?: number) {
  const whole = wholeNumber(name, min, max);
  const schema = fallback === undefined ? whole.schema : withFallback(whole.schema, fallback);
  return schema.meta({
    description: description ?? `A whole number ${whole.range}${fallback === undefined ? '' : ` (default ${fallback})`}`,
    override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
      delete jsonSchema.pattern;
      Object.assign(jsonSchema, {
        type: 'integer',
        minimum: min,
        ...(max === undefined ? {} : { maximum: max }),
        ...(fallback === undefined ? {} : { default: fallback }),
      });
    },
  });
}
const withFallback = (schema: ReturnType<typeof wholeNumber>['schema'], fallback: number) => schema.transform((n) => n ?? fallback);

/** One value of a closed set; `fallback` when absent. */
export function oneOfParam<const T extends readonly [string, ...string[]]>(name: string, values: T, description?: string) {
  return z
    .enum(values, { error: (iss) => `Query parameter "${name}" must be one of ${values.join(', ')}; got "${inputOf(iss)}".` })
    .meta(description ? { description } : {});
}

/** Free text that must not be empty (an empty filter is a mistake, not "no filter"). */
export function nonEmptyParam(name: string, hint: string) {
  return z.string().min(1, { error: `Query parameter "${name}" is empty; ${hint}.` });
}

/** Contract 4.2 `gf`: a flag id, case-insensitive; returned upper-case. */
export const flagIdParam = z
  .string()
  .regex(FLAG_ID_QUERY_PATTERN, { error: 'Query parameter "gf" must look like GF- followed by letters or digits, e.g. GF-P01.' })
  .transform((s) => s.toUpperCase())
  .meta({ description: 'Companies carrying this flag id (GF- then letters or digits, case-insensitive)' });

/** Contract 1.2 `q`: at most `max` characters; control characters cannot occur in a name or code. */
export function searchParam(name: string, max: number) {
  return (
    z
      .string()
      .refine((q) => [...q].length <= max, { error: `Query parameter "${name}" is longer than ${max} characters.` })
      // The search index separates fields with a control character, and no name or code holds one.
      .refine((q) => !/\p{Cc}/u.test(q), { error: `Query parameter "${name}" must not contain control characters.` })
      .transform((q) => (q === '' ? undefined : q))
      .meta({
        description: `Case-insensitive substring of ticker, company_name or company_name_norm; at most ${max} characters`,
        override: { maxLength: max },
      })
  );
}

const ACCEPTED_SECTIONS = `accepted names: ${SECTION_NAMES.join(', ')}`;

/**
 * Contract 4.1 `fields`: comma-separated section names, whitespace ignored, case-insensitive,
 * duplicates harmless; aliases resolve to their section.
 */
export const sectionsParam = z
  .string()
  .transform((raw, ctx): Set<CanonicalSection> => {
    const names = raw
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter((s) => s !== '');
    if (names.length === 0) ctx.addIssue({ code: 'custom', message: `Query parameter "fields" is empty; ${ACCEPTED_SECTIONS}.` });
    const sections = new Set<CanonicalSection>();
    for (const name of names) {
      const section = SECTION_ALIASES[name] ?? CANONICAL_SECTIONS.find((s) => s === name);
      if (!section) {
        ctx.addIssue({ code: 'custom', message: `Unknown section "${truncate(name)}" in "fields"; ${ACCEPTED_SECTIONS}.` });
        return z.NEVER;
      }
      sections.add(section);
    }
    return sections;
  })
  .meta({
    description: `Comma-separated sections: ${SECTION_NAMES.join(', ')} (${Object.entries(SECTION_ALIASES)
      .map(([a, s]) => `${a} = ${s}`)
      .join(', ')}); case-insensitive`,
  });

/** A code in a path or list: well-formed codes are returned upper-case (contract 1.1). */
export function parseCode(raw: string, what: 'ticker' | 'fund code'): string | { error: string } {
  if (!CODE_PATTERN.test(raw)) {
    const shown = raw.length > 24 ? `${raw.slice(0, 24)}…` : raw;
    return { error: raw === '' ? `Empty ${what}: a ${what} is ${CODE_RULE}.` : `Malformed ${what} "${shown}": a ${what} is ${CODE_RULE}.` };
  }
  return raw.toUpperCase();
}

/**
 * A path or query code as a zod schema: upper-cased, with the contract's message when malformed.
 * `inPath`: the code is a URL's last segment, where the router also takes it with `.json`; as a
 * query parameter or an MCP tool's argument it is the bare code, and its description says so.
 */
export function codeSchema(what: 'ticker' | 'fund code', inPath = true) {
  return z
    .string()
    .transform((raw, ctx) => {
      const code = parseCode(raw, what);
      if (typeof code === 'string') return code;
      ctx.addIssue({ code: 'custom', message: code.error });
      return z.NEVER;
    })
    .meta({
      description: `${CODE_RULE}, case-insensitive${inPath ? '; a `.json` suffix on the last path segment is also accepted' : ''}`,
      override: { pattern: CODE_PATTERN.source },
    });
}

/** Contract 4.4 `tickers`: comma-separated codes, duplicates removed in first-occurrence order, `min`–`max` distinct. */
export function tickerListParam(name: string, min: number, max: number) {
  return z
    .string({
      error: (iss) => (iss.input === undefined ? `Query parameter "${name}" is required: ${min} to ${max} comma-separated tickers.` : undefined),
    })
    .transform((raw, ctx) => {
      const tickers: string[] = [];
      for (const part of raw.split(',')) {
        const code = parseCode(part.trim(), 'ticker');
        if (typeof code !== 'string') {
          ctx.addIssue({ code: 'custom', message: `Query parameter "${name}": ${code.error}` });
          return z.NEVER;
        }
        if (!tickers.includes(code)) tickers.push(code);
      }
      if (tickers.length < min || tickers.length > max) {
        ctx.addIssue({ code: 'custom', message: `Query parameter "${name}" must name ${min} to ${max} distinct tickers; got ${tickers.length}.` });
        return z.NEVER;
      }
      return tickers;
    })
    .meta({
      description: `Comma-separated tickers, ${min}–${max} distinct (duplicates removed)`,
      override: { 'x-distinct-min': min, 'x-distinct-max': max },
    });
}

/** Contract 1.2 path integers follow the query rule: `/ranking/page/02` is page 2. */
export const pageSegmentSchema = z
  .string()
  .regex(/^\d{1,9}$/, { error: (iss) => `Malformed page "${truncate(String(iss.input), 12)}": a whole number from 1.` })
  .transform(Number)
  .refine((n) => n >= 1, { error: (iss) => `Malformed page "${String(iss.input)}": a whole number from 1.` })
  .meta({
    override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
      delete jsonSchema.pattern;
      Object.assign(jsonSchema, { type: 'integer', minimum: 1 });
    },
  });

import { UPPER_CODE_PATTERN } from '../../src/contract/vocabulary.js';
import { z } from 'zod';
import { parseDate, parseYear } from './dates.js';

/**
 * zod field parsers shared by the adapters: each takes the raw CSV string and yields the typed
 * value, or fails with a message that becomes the reject reason.
 */

export const text = z.string().transform((s) => s.trim());

export const requiredText = text.pipe(z.string().min(1, 'must not be empty'));

/** A publisher's date, ISO or ROC, as ISO `YYYY-MM-DD` (the contract's `isoDate` is the shape it leaves in). */
const toIsoDate = (s: string, ctx: z.RefinementCtx): string => {
  const d = parseDate(s);
  if (d === null) {
    ctx.addIssue({ code: 'custom', message: `not a date (ISO or ROC): "${s}"` });
    return z.NEVER;
  }
  return d;
};

export const publisherDate = z.string().transform(toIsoDate);

export const optionalPublisherDate = z.string().transform((s, ctx) => (s.trim() === '' ? null : toIsoDate(s, ctx)));

export const year = z.string().transform((s, ctx) => {
  const y = parseYear(s);
  if (y === null) {
    ctx.addIssue({ code: 'custom', message: `not a year (ROC or Gregorian): "${s}"` });
    return z.NEVER;
  }
  return y;
});

/**
 * A number as publishers print it: `1,234`, four decimals (`2196516.0000`), or an amount with a
 * currency prefix or suffix as scraped copies carry it (`NT$100,000`, `100,000元`). Empty (or `-`)
 * is absent; anything else that is not a plain decimal is NaN.
 */
function toNumber(s: string): number | null {
  const cleaned = s
    .trim()
    .replace(/^(?:NT\$|NTD|NT|\$)\s*/i, '')
    .replace(/\s*元$/, '')
    .replace(/,/g, '');
  if (cleaned === '' || cleaned === '-') return null;
  if (!/^-?\d+(\.\d+)?$/.test(cleaned)) return Number.NaN;
  return Number(cleaned);
}

/** A non-negative number (thousands separators allowed); empty means absent (null). */
export const optionalAmount = z.string().transform((s, ctx) => {
  const n = toNumber(s);
  if (n !== null && (Number.isNaN(n) || n < 0)) {
    ctx.addIssue({ code: 'custom', message: `not a non-negative number: "${s}"` });
    return z.NEVER;
  }
  return n;
});

export const amount = optionalAmount.transform((n, ctx) => {
  if (n === null) {
    ctx.addIssue({ code: 'custom', message: 'must not be empty' });
    return z.NEVER;
  }
  return n;
});

/** A percentage, `20.1000%` or `20.1`: the number of percent (not a fraction). Must not be empty. */
export const percent = z
  .string()
  .transform((s) => s.trim().replace(/\s*[%％]$/, ''))
  .pipe(amount);

const YES = new Set(['是', 'y', 'yes', 'true', '1', '有']);
const NO = new Set(['否', 'n', 'no', 'false', '0', '無', '']);

/** 是/否 (or Y/N, true/false, 1/0); empty counts as no. */
export const yesNo = z.string().transform((s, ctx) => {
  const v = s.trim().toLowerCase();
  if (YES.has(v)) return true;
  if (NO.has(v)) return false;
  ctx.addIssue({ code: 'custom', message: `not 是/否: "${s}"` });
  return z.NEVER;
});

/** Ticker-like codes as the API uses them: upper-case, 1–12 of [0-9A-Z]. */
export const code = z
  .string()
  .transform((s) => s.trim().toUpperCase())
  .pipe(z.string().regex(UPPER_CODE_PATTERN, 'must be 1–12 letters or digits'));

/**
 * Taiwan business ID (統一編號): 8 digits. Seven digits, all digits, are the eight-digit ID that lost
 * its leading zero on the way (GHG_P_01 serves 台電 as `3795904` in ROC 110 and `03795904` in 111):
 * padded back, and `padded` says so, for the summary's count.
 */
export const businessId = z
  .string()
  .transform((s) => s.trim())
  .pipe(z.string().regex(/^\d{7,8}$/, 'must be 8 digits (or 7, a lost leading zero)'))
  .transform((s) => ({ id: s.padStart(8, '0'), padded: s.length === 7 }));

/** A business ID that may be absent (a penalty on a vehicle or a person names none): empty is null. */
export const optionalBusinessId = z.string().transform((s, ctx) => {
  if (s.trim() === '') return null;
  const parsed = businessId.safeParse(s);
  if (!parsed.success) {
    ctx.addIssue({ code: 'custom', message: parsed.error.issues[0]!.message });
    return z.NEVER;
  }
  return parsed.data;
});

import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  amount,
  code,
  publisherDate,
  optionalAmount,
  optionalPublisherDate,
  percent,
  requiredText,
  text,
  businessId,
  optionalBusinessId,
  year,
  yesNo,
} from '../../../build-scripts/adapters/values.js';

const ok = <T>(schema: z.ZodType<T, string>, raw: string): T => {
  const r = schema.safeParse(raw);
  if (!r.success) throw new Error(`expected ${JSON.stringify(raw)} to parse: ${r.error.issues[0]?.message}`);
  return r.data;
};
const fail = (schema: z.ZodType<unknown, string>, raw: string): string => {
  const r = schema.safeParse(raw);
  if (r.success) throw new Error(`expected ${JSON.stringify(raw)} to be rejected, got ${JSON.stringify(r.data)}`);
  return r.error.issues[0]!.message;
};

describe('amounts', () => {
  it.each([
    ['1,234,567', 1_234_567],
    ['1234567', 1_234_567],
    ['  12,345.67 ', 12_345.67],
    ['0', 0],
    ['0.5', 0.5],
    ['100,000,000', 100_000_000],
    // As the publishers serve them: four decimals, and the prefixes of scraped copies.
    ['2196516.0000', 2_196_516],
    ['NT$100,000', 100_000],
    ['NT$ 1,234', 1_234],
    ['$500', 500],
    ['60,000元', 60_000],
  ])('amount %j → %d', (raw, n) => {
    expect(ok(amount, raw)).toBe(n);
    expect(ok(optionalAmount, raw)).toBe(n);
  });

  it('an empty optional amount is null; an empty required amount is rejected', () => {
    expect(ok(optionalAmount, '')).toBeNull();
    expect(ok(optionalAmount, '   ')).toBeNull();
    expect(ok(optionalAmount, '-')).toBeNull();
    expect(fail(amount, '')).toMatch(/must not be empty/);
  });

  it.each(['abc', '-5', '1.2.3', '12a', '1e5', 'NaN', '.5'])('rejects %j', (raw) => {
    expect(fail(optionalAmount, raw)).toMatch(/not a non-negative number/);
    expect(fail(amount, raw)).toMatch(/not a non-negative number/);
  });
});

describe('percent', () => {
  it.each([
    ['20.1000%', 20.1],
    ['20.1', 20.1],
    [' 0.4000 % ', 0.4],
    ['55％', 55],
  ])('%j → %d', (raw, n) => {
    expect(ok(percent, raw)).toBe(n);
  });
  it.each(['', '%', 'abc%', '-1%'])('%j is rejected', (raw) => {
    expect(() => ok(percent, raw)).toThrow();
  });
});

describe('yesNo', () => {
  it.each(['是', 'Y', 'y', 'yes', 'YES', 'true', '1', '有', ' 是 '])('%j → true', (raw) => {
    expect(ok(yesNo, raw)).toBe(true);
  });
  it.each(['否', 'N', 'n', 'no', 'false', '0', '無', ''])('%j → false', (raw) => {
    expect(ok(yesNo, raw)).toBe(false);
  });
  it.each(['maybe', '不詳', '2'])('%j is rejected', (raw) => {
    expect(fail(yesNo, raw)).toMatch(/是\/否/);
  });
});

describe('codes and 統一編號', () => {
  it('codes are trimmed and upper-cased', () => {
    expect(ok(code, ' d1101 ')).toBe('D1101');
    expect(ok(code, '00878')).toBe('00878');
    expect(ok(code, '00632r')).toBe('00632R');
  });
  it.each(['', 'D-1101', 'D 1101', 'ABCDEFGHIJKLM', '臺積'])('code %j is rejected', (raw) => {
    expect(fail(code, raw)).toBeTruthy();
  });
  it('統一編號 must be 8 digits (trimmed)', () => {
    expect(ok(businessId, '12345678')).toEqual({ id: '12345678', padded: false });
    expect(ok(businessId, ' 04541302 ')).toEqual({ id: '04541302', padded: false });
    // Seven digits: the eight-digit ID that lost its leading zero (GHG_P_01 serves 台電 as 3795904).
    expect(ok(businessId, '3795904')).toEqual({ id: '03795904', padded: true });
    for (const bad of ['123456', '123456789', '1234567a', '', '1234-5678']) expect(fail(businessId, bad)).toMatch(/8 digits/);
    expect(ok(optionalBusinessId, '')).toBeNull();
    expect(ok(optionalBusinessId, '  ')).toBeNull();
    expect(ok(optionalBusinessId, '3795904')).toEqual({ id: '03795904', padded: true });
    expect(fail(optionalBusinessId, '12ab5678')).toMatch(/8 digits/);
  });
});

describe('text, dates, years', () => {
  it('text trims; requiredText rejects empty', () => {
    expect(ok(text, '  甲  ')).toBe('甲');
    expect(ok(text, '')).toBe('');
    expect(fail(requiredText, '   ')).toMatch(/must not be empty/);
  });
  it('publisherDate parses ROC and ISO, rejects the rest', () => {
    expect(ok(publisherDate, '113/05/21')).toBe('2024-05-21');
    expect(fail(publisherDate, '113/02/30')).toMatch(/not a date/);
    expect(fail(publisherDate, '')).toMatch(/not a date/);
  });
  it('optionalPublisherDate: empty → null', () => {
    expect(ok(optionalPublisherDate, '')).toBeNull();
    expect(ok(optionalPublisherDate, '1130831')).toBe('2024-08-31');
    expect(fail(optionalPublisherDate, 'abc')).toMatch(/not a date/);
  });
  it('year: ROC 113 → 2024', () => {
    expect(ok(year, '113')).toBe(2024);
    expect(ok(year, '2024')).toBe(2024);
    expect(fail(year, 'abc')).toMatch(/not a year/);
  });
});

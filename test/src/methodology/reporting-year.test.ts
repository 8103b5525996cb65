import { describe, expect, it } from 'vitest';
import { dayOfYearText, expectedReportingYear, REPORT_DUE_BY } from '../../../src/methodology/reporting-year.js';
import { METHODOLOGY_VERSION, REPORT_DEADLINE } from '../../../src/methodology/rules.js';

describe('E(D), the expected reporting year (methodology 1.1)', () => {
  it('is methodology 1.2 (1.1’s reporting year kept), with reports due by 31 August and late from 1 September', () => {
    expect(METHODOLOGY_VERSION).toBe('1.2');
    expect(REPORT_DEADLINE).toEqual({ month: 9, day: 1 });
    expect(REPORT_DUE_BY).toEqual({ month: 8, day: 31 });
    expect(dayOfYearText(REPORT_DUE_BY)).toBe('31 August');
    expect(dayOfYearText(REPORT_DEADLINE)).toBe('1 September');
  });

  it.each([
    ['2026-08-31', 2024, 'the deadline itself: the year before is not due yet'],
    ['2026-09-01', 2025, 'the day after the deadline'],
    ['2027-01-15', 2025, 'a new calendar year does not move it'],
    ['2026-01-01', 2024, 'the first day of a year'],
    ['2026-12-31', 2025, 'the last day of a year'],
    ['2027-01-01', 2025, 'the next year’s first day'],
    ['2027-08-31', 2025, 'up to the next deadline'],
    ['2027-09-01', 2026, 'and past it'],
    ['2024-02-29', 2022, 'a leap day'],
    ['2026-09-30', 2025, 'the demo’s second month'],
  ])('E(%s) = %i (%s)', (asof, expected) => {
    expect(expectedReportingYear(asof)).toBe(expected);
  });

  it('is year(D) − 1 from 1 September to 31 December and year(D) − 2 from 1 January to 31 August, every day of a year', () => {
    for (let t = Date.UTC(2028, 0, 1); t < Date.UTC(2029, 0, 1); t += 86_400_000) {
      const asof = new Date(t).toISOString().slice(0, 10);
      expect(expectedReportingYear(asof), asof).toBe(asof >= '2028-09-01' ? 2027 : 2026);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { subtractMonths, withinLastMonths, yearOf } from '../../../src/methodology/months.js';

const D = '2026-10-31';

describe('subtractMonths: D − N months keeps the day, clamped to the month end', () => {
  it.each([
    ['2026-03-31', 1, '2026-02-28'],
    ['2024-03-31', 1, '2024-02-29'],
    ['2026-10-31', 36, '2023-10-31'],
    ['2026-10-31', 12, '2025-10-31'],
    ['2026-10-31', 1, '2026-09-30'],
    ['2026-10-15', 1, '2026-09-15'],
    ['2026-01-15', 1, '2025-12-15'],
    ['2026-01-31', 2, '2025-11-30'],
    ['2026-12-31', 12, '2025-12-31'],
    ['2024-02-29', 12, '2023-02-28'],
    ['2024-02-29', 48, '2020-02-29'],
    ['2026-05-31', 3, '2026-02-28'],
    ['2026-10-31', 0, '2026-10-31'],
    ['2026-10-01', 10, '2025-12-01'],
    ['2026-10-31', 120, '2016-10-31'],
  ])('%s − %i months = %s', (date, months, expected) => {
    expect(subtractMonths(date, months)).toBe(expected);
  });

  it('always returns a zero-padded ISO date', () => {
    expect(subtractMonths('2026-01-05', 1)).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(subtractMonths('2026-01-05', 1)).toBe('2025-12-05');
  });
});

describe('withinLastMonths: the window is (D − N months, D]', () => {
  it.each([
    // 36 months: start = 2023-10-31
    ['2023-10-31', 36, false, 'exactly 36 months old'],
    ['2023-11-01', 36, true, 'a day younger than 36 months'],
    ['2023-10-30', 36, false, 'older than 36 months'],
    ['2026-10-31', 36, true, 'dated D'],
    ['2026-11-01', 36, false, 'after D'],
    ['2025-06-15', 36, true, 'well inside'],
    // 12 months: start = 2025-10-31
    ['2025-10-31', 12, false, 'exactly 12 months old'],
    ['2025-11-01', 12, true, 'a day younger than 12 months'],
    ['2026-10-31', 12, true, 'dated D'],
    ['2026-11-01', 12, false, 'after D'],
    ['2027-01-01', 12, false, 'a year after D'],
  ])('%s in the last %i months of D: %s (%s)', (date, months, expected) => {
    expect(withinLastMonths(date, D, months)).toBe(expected);
  });

  it('uses the clamped start when D is a month end with no matching day', () => {
    // D = 2026-03-31, 1 month → start 2026-02-28
    expect(withinLastMonths('2026-02-28', '2026-03-31', 1)).toBe(false);
    expect(withinLastMonths('2026-03-01', '2026-03-31', 1)).toBe(true);
    // leap year: start 2024-02-29
    expect(withinLastMonths('2024-02-29', '2024-03-31', 1)).toBe(false);
    expect(withinLastMonths('2024-03-01', '2024-03-31', 1)).toBe(true);
  });
});

describe('yearOf', () => {
  it('reads the year of an ISO date', () => {
    expect(yearOf(D)).toBe(2026);
    expect(yearOf('2024-02-29')).toBe(2024);
  });
});

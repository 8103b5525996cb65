/**
 * E(D), the expected reporting year of methodology 1.1 (contract 7): reports for a year are due by
 * the deadline of the next year (31 August), so a company is never late before it has passed.
 */
import { REPORT_DEADLINE } from './rules.js';

/**
 * E(D) for the as-of date D (ISO `YYYY-MM-DD`): year(D) − 1 when D is on or after 1 September of
 * its year (REPORT_DEADLINE), else year(D) − 2. Pure: the same date, the same year.
 */
export function expectedReportingYear(asof: string): number {
  const year = Number(asof.slice(0, 4));
  const month = Number(asof.slice(5, 7));
  const day = Number(asof.slice(8, 10));
  const pastDeadline = month > REPORT_DEADLINE.month || (month === REPORT_DEADLINE.month && day >= REPORT_DEADLINE.day);
  return pastDeadline ? year - 1 : year - 2;
}

const dueBy = new Date(Date.UTC(2001, REPORT_DEADLINE.month - 1, REPORT_DEADLINE.day - 1));
/** The last day a report for the year before is on time: the day before REPORT_DEADLINE (31 August). */
export const REPORT_DUE_BY = { month: dueBy.getUTCMonth() + 1, day: dueBy.getUTCDate() } as const;

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
/** `31 August`. */
export const dayOfYearText = (d: { month: number; day: number }): string => `${d.day} ${MONTHS[d.month - 1]}`;

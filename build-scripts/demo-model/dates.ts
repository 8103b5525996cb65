/**
 * Calendar arithmetic on whole days (days since 1970-01-01, UTC) and the date styles the
 * publishers use: ISO `2024-05-21`, ROC slash `113/05/21`, ROC compact `1130521`.
 * Uses only Date.UTC and getUTC*, so the result never depends on the machine's time zone.
 */

export type Day = number;

const MS_PER_DAY = 86_400_000;

export function fromYmd(y: number, m: number, d: number): Day {
  return Math.round(Date.UTC(y, m - 1, d) / MS_PER_DAY);
}

export function toYmd(day: Day): { y: number; m: number; d: number } {
  const t = new Date(day * MS_PER_DAY);
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() };
}

function daysInMonth(y: number, m: number): number {
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/** Parses `YYYY-MM-DD`; throws on anything else or on an impossible date. */
export function parseIsoDay(s: string): Day {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) throw new RangeError(`asof must be YYYY-MM-DD, got ${JSON.stringify(s)}`);
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) throw new RangeError(`asof is not a real date: ${s}`);
  return fromYmd(y, mo, d);
}

/** The day `months` months later (negative: earlier), keeping the day of month, clamped to the month's end. */
export function addMonths(day: Day, months: number): Day {
  const { y, m, d } = toYmd(day);
  const idx = y * 12 + (m - 1) + months;
  const ny = Math.floor(idx / 12);
  const nm = idx - ny * 12 + 1;
  return fromYmd(ny, nm, Math.min(d, daysInMonth(ny, nm)));
}

export const yearOf = (day: Day): number => toYmd(day).y;

const p2 = (n: number) => (n < 10 ? `0${n}` : String(n));

/** `2024-05-21`. */
export function formatIsoDay(day: Day): string {
  const { y, m, d } = toYmd(day);
  return `${y}-${p2(m)}-${p2(d)}`;
}

/** ROC (民國) year of a Gregorian year. */
export const rocYear = (y: number): number => y - 1911;

/** `113/05/21`. */
export function rocSlash(day: Day): string {
  const { y, m, d } = toYmd(day);
  return `${rocYear(y)}/${p2(m)}/${p2(d)}`;
}

/** `1130521`. */
export function rocCompact(day: Day): string {
  const { y, m, d } = toYmd(day);
  return `${rocYear(y)}${p2(m)}${p2(d)}`;
}

export type DateStyle = 'iso' | 'rocSlash' | 'rocCompact';

/** Formats in the given style; ROC styles fall back to ISO before ROC year 100 (2011) to keep 3-digit years. */
export function formatDay(day: Day, style: DateStyle): string {
  if (style !== 'iso' && rocYear(yearOf(day)) < 100) return formatIsoDay(day);
  if (style === 'rocSlash') return rocSlash(day);
  if (style === 'rocCompact') return rocCompact(day);
  return formatIsoDay(day);
}

/** Date style of a penalty date from a uniform draw: about a third ROC slash, a sixth ROC compact, the rest ISO. */
export function randomDateStyle(r: number): DateStyle {
  return r < 1 / 3 ? 'rocSlash' : r < 1 / 2 ? 'rocCompact' : 'iso';
}

/**
 * "Last N months" as contract 7 defines it: penalty dates in (D − N months, D], where D − N months
 * keeps D's day of the month, clamped to that month's last day. Dates are ISO `YYYY-MM-DD` strings,
 * which compare correctly as strings.
 */
export function subtractMonths(isoDate: string, months: number): string {
  const key = `${isoDate}/${months}`;
  let out = cutoffs.get(key);
  if (out === undefined) {
    out = subtract(isoDate, months);
    if (cutoffs.size >= 1_000) cutoffs.clear();
    cutoffs.set(key, out);
  }
  return out;
}

/**
 * Window edges already worked out: the methodology asks for the same few (as-of date, months)
 * pairs for every penalty of every company, and building the date anew each time was most of
 * deciding whether a penalty leaves a window (measured in the history pass at 100k).
 */
const cutoffs = new Map<string, string>();

function subtract(isoDate: string, months: number): string {
  const [y, m, d] = isoDate.split('-').map(Number) as [number, number, number];
  const total = y * 12 + (m - 1) - months;
  const year = Math.floor(total / 12);
  const month = (total % 12) + 1;
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const day = Math.min(d, lastDay);
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

export function withinLastMonths(date: string, asof: string, months: number): boolean {
  return date > subtractMonths(asof, months) && date <= asof;
}

export function yearOf(isoDate: string): number {
  return Number(isoDate.slice(0, 4));
}

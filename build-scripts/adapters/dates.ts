/**
 * Date parsing for publisher files. Taiwanese government data often uses ROC (民國) dates:
 * year − 1911, written `113/05/21`, `113-05-21`, `113.05.21`, compact `1130521` or `113年5月21日`.
 * ISO dates and `2014/12/29` pass through. Every date leaving this module is ISO `YYYY-MM-DD`; none reaches the API in ROC form.
 */

const ROC_OFFSET = 1911;

function isoIfValid(year: number, month: number, day: number): string | null {
  if (year < 1900 || year > 2200 || month < 1 || month > 12 || day < 1) return null;
  const d = new Date(Date.UTC(year, month - 1, day));
  if (d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return null;
  return d.toISOString().slice(0, 10);
}

/** Parses an ISO or ROC date (optionally followed by a time, which is dropped). Null when invalid. */
export function parseDate(raw: string): string | null {
  const s = raw.trim().split(/[ T]/)[0] ?? '';
  let m = /^(\d{2,4})年(\d{1,2})月(\d{1,2})日$/.exec(s);
  if (m) {
    const y = Number(m[1]);
    return isoIfValid(y >= 1900 ? y : y + ROC_OFFSET, Number(m[2]), Number(m[3]));
  }
  m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(s);
  if (m) return isoIfValid(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{2,3})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(s);
  if (m) return isoIfValid(Number(m[1]) + ROC_OFFSET, Number(m[2]), Number(m[3]));
  m = /^(\d{8})$/.exec(s);
  if (m) return isoIfValid(Number(s.slice(0, 4)), Number(s.slice(4, 6)), Number(s.slice(6, 8)));
  m = /^(\d{2,3})(\d{2})(\d{2})$/.exec(s);
  if (m) return isoIfValid(Number(m[1]) + ROC_OFFSET, Number(m[2]), Number(m[3]));
  return null;
}

/** Parses a year given as ROC (`113`) or Gregorian (`2024`). Null when neither. */
export function parseYear(raw: string): number | null {
  const s = raw.trim();
  if (!/^\d{2,4}$/.test(s)) return null;
  const n = Number(s);
  if (n >= 1900 && n <= 2200) return n;
  if (n >= 1 && n < 300) return n + ROC_OFFSET;
  return null;
}

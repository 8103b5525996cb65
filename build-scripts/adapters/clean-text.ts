import { decodeHTMLStrict } from 'entities';

/**
 * Every text value a publisher serves, cleaned once, the same way for every source: HTML character
 * references decoded (TWSE and TPEx serve names such as `邁&#33834;科技股份有限公司`, and SITCA's HTML
 * cells carry `&amp;`), then whitespace trimmed at both ends. `String.prototype.trim` removes every
 * Unicode space, so the ideographic space U+3000 goes too: TPEx pads values with it at the end, and
 * TWSE's list of November 2025 at both ends (`\u3000ROUNDTOP\u3000`, 148 values).
 *
 * Strict decoding: a reference counts only with its `;`, so a URL's `&copy=1` stays as served. The
 * decoder is the maintained `entities` package (parse5's own), not a table of our own; the `&` test
 * first keeps the common case (no reference at all) at the cost of one scan.
 */
export function cleanText(value: string): string {
  return (value.includes('&') ? decodeHTMLStrict(value) : value).trim();
}

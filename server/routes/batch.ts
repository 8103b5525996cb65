import type { BatchResponse } from '../../src/contract/batch.js';
import { companySummary } from '../../src/views/company.js';
import { successEnvelope } from '../../src/views/envelope.js';
import { CODE_PATTERN } from '../codes.js';
import { helpersOf, type RouteContext } from '../context.js';
import { badRequest } from '../errors.js';
import { sendPostBody } from '../http.js';
import { parseQuery, truncate } from '../query.js';

export const MAX_BATCH = 100;

/** Validates the body shape (contract 4.6) and returns the distinct codes in request order. */
export function batchCodes(body: unknown, max = MAX_BATCH): string[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badRequest('The body must be a JSON object: {"tickers": ["D1101", …]}.');
  }
  const extra = Object.keys(body).filter((k) => k !== 'tickers');
  if (extra.length > 0) throw badRequest(`Unknown key "${truncate(extra[0]!)}" in the body; the only key is "tickers".`);
  const list = (body as { tickers?: unknown }).tickers;
  if (list === undefined) throw badRequest('The body lacks "tickers": an array of 1 to 100 codes.');
  if (!Array.isArray(list)) throw badRequest('"tickers" must be an array of strings.');
  const bad = list.findIndex((t) => typeof t !== 'string');
  if (bad >= 0) throw badRequest(`"tickers"[${bad}] is not a string.`);
  // Well-formed codes are case-insensitive; a malformed one is kept as given, to be reported back.
  const codes = [...new Set((list as string[]).map((t) => (CODE_PATTERN.test(t.trim()) ? t.trim().toUpperCase() : t)))];
  if (codes.length === 0) throw badRequest('"tickers" is empty; give 1 to 100 codes.');
  if (codes.length > max) throw badRequest(`"tickers" names ${codes.length} distinct codes; the most is ${max}.`);
  return codes;
}

const COMMA = Buffer.from(',');

/**
 * POST /batch: one item per distinct code, found or not; 200 even when some are unknown. A batch
 * is up to 100 summaries (~100 KB), so each found item is encoded to UTF-8 once per snapshot and
 * reused: the body is written straight from those bytes (no re-encoding, no copy of 100 KB per
 * request), byte for byte what JSON.stringify of the whole BatchResponse gives (the batch test
 * checks exactly that).
 */
export function batch(ctx: RouteContext): void {
  parseQuery(ctx.rawQuery, [], '/batch');
  const codes = batchCodes(ctx.req.body);
  const { store } = ctx;
  const meta = store.meta;
  const cached = helpersOf(store).batchItems;
  let found = 0;
  const items = codes.map((code): Buffer | string => {
    if (!CODE_PATTERN.test(code)) {
      return JSON.stringify({ ticker: code, ok: false, error: { code: 'BAD_REQUEST', message: `Malformed ticker "${truncate(code)}": 1 to 12 letters or digits.` } });
    }
    let item = cached.get(code);
    if (item === undefined) {
      const company = store.company(code);
      if (!company) return JSON.stringify({ ticker: code, ok: false, error: { code: 'NOT_FOUND', message: `Unknown ticker: ${code}` } });
      item = Buffer.from(JSON.stringify({ ticker: code, ok: true, company: companySummary(meta, company) }));
      cached.set(code, item);
    }
    found++;
    return item;
  });
  const counts: BatchResponse['meta'] = { requested: codes.length, found, not_found: codes.length - found };
  const envelope = JSON.stringify(successEnvelope(meta));
  const parts: Buffer[] = [Buffer.from(`${envelope.slice(0, -1)},"data":[`)];
  items.forEach((item, i) => {
    if (i > 0) parts.push(COMMA);
    parts.push(typeof item === 'string' ? Buffer.from(item) : item);
  });
  parts.push(Buffer.from(`],"meta":${JSON.stringify(counts)}}`));
  sendPostBody(ctx.res, parts);
}

import type { BatchResponse } from '../../src/contract/batch.js';
import { parseCode } from '../../src/contract/params.js';
import type { InputOf } from '../../src/contract/routes.js';
import { unknownTickers } from '../../src/contract/named-errors.js';
import { companySummary } from '../../src/views/company.js';
import { successEnvelope } from '../../src/views/envelope.js';
import { batchItems, type RouteContext } from './context.js';
import { sendPostBody } from '../kit/http.js';

const COMMA = Buffer.from(',');

/**
 * POST /batch: one item per distinct code, found or not; 200 even when some are unknown. A batch
 * is up to 100 summaries (~100 KB), so each found item is encoded to UTF-8 once per snapshot and
 * reused: the body is written straight from those bytes (no re-encoding, no copy of 100 KB per
 * request), byte for byte what JSON.stringify of the whole BatchResponse gives (the batch test
 * checks exactly that).
 */
export function batch(input: InputOf<'batch'>, ctx: RouteContext): void {
  void input.query; // takes none: a query string is a 400, before the body is looked at
  const codes = input.body;
  const { store } = ctx;
  const meta = store.meta;
  const cached = batchItems(store);
  let found = 0;
  const items = codes.map((code): Buffer | string => {
    const parsed = parseCode(code, 'ticker');
    if (typeof parsed !== 'string') return JSON.stringify({ ticker: code, ok: false, error: { code: 'BAD_REQUEST', message: parsed.error } });
    let item = cached.get(code);
    if (item === undefined) {
      const company = store.company(code);
      if (!company) return JSON.stringify({ ticker: code, ok: false, error: { code: 'NOT_FOUND', message: unknownTickers([code]).message } });
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

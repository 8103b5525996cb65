import type { ChangeItem, ChangesResponse } from '../../src/contract/changes.js';

/** A filtered /changes request: its query parameters as the contract names them. */
export interface ChangesCase {
  cause?: string;
  industry?: string;
  min_abs_delta?: number;
  limit?: number;
  page?: number;
}

/** The query string of a case (parameters in a fixed order, values encoded). */
export function queryOf(c: ChangesCase): string {
  return new URLSearchParams(
    Object.entries(c)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, String(v)]),
  ).toString();
}

/**
 * The body a filtered /changes must answer, as bytes, worked out from the whole list as contract 10
 * words the filter (at least one cause of the kind, the industry exactly, |score_delta| ≥ N) and
 * contract 4.2 the paging, apart from the shim's code: `template` is a static page of the same
 * snapshot (/changes), whose envelope and key order the answer keeps. `all` is the whole list in
 * order, each item with its company's industry; it is read once, keeping only the page.
 */
export function expectedBody(template: ChangesResponse, all: Iterable<{ industry: string; item: ChangeItem }>, c: ChangesCase): string {
  const limit = c.limit ?? 200;
  const page = c.page ?? 1;
  const first = (page - 1) * limit;
  const data: ChangeItem[] = [];
  let total = 0;
  for (const { industry, item } of all) {
    const matches =
      (c.cause === undefined || item.causes.some((x) => x.kind === c.cause)) &&
      (c.industry === undefined || industry === c.industry) &&
      (c.min_abs_delta === undefined || Math.abs(item.score_delta) >= c.min_abs_delta);
    if (!matches) continue;
    if (total >= first && data.length < limit) data.push(item);
    total++;
  }
  const pageCount = Math.ceil(total / limit);
  const meta = { ...template.meta, total, page, per_page: limit, page_count: pageCount, has_prev: page > 1, has_next: page < pageCount };
  return JSON.stringify({ ...template, data, meta });
}

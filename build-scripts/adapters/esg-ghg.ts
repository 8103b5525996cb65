import { z } from 'zod';
import { tpexGhgLayout, twseGhgLayout } from './layouts.js';
import { readLayout, type RejectLog } from './read-layout.js';
import { code, isoDate, optionalAmount, text, year, yesNo } from './values.js';
import type { Boundary } from '../../src/contract/vocabulary.js';
import type { DisclosureFacts } from '../../src/methodology/facts.js';

/** A company's own GHG disclosure for its latest reporting year (SRC-TWSE-ESG-GHG / SRC-TPEX-ESG-GHG). */
export interface GhgDisclosureRow extends DisclosureFacts {
  ticker: string;
  reportDate: string;
  boundary: Boundary;
}

/** 資料邊界: consolidated when it names the consolidated (合併) reporting boundary, else parent-only. */
const boundary = text.transform((s) => (/合併|consolidated/i.test(s) ? ('consolidated' as const) : ('parent' as const)));

const schema = z
  .object({
    reportDate: isoDate,
    reportYear: year,
    ticker: code,
    scope1: optionalAmount,
    scope1Boundary: boundary,
    scope1Verified: yesNo,
    scope2: optionalAmount,
    scope2Verified: yesNo,
    scope3: optionalAmount,
  })
  .refine((r) => r.scope1 !== null || r.scope2 !== null || r.scope3 !== null, {
    message: 'no emission figure at all',
    path: ['scope1'],
  });

function ghgAdapter(layout: typeof twseGhgLayout | typeof tpexGhgLayout) {
  return async function* (dir: string, rejects: RejectLog): AsyncGenerator<GhgDisclosureRow> {
    for await (const { row } of readLayout(dir, layout, schema, rejects)) {
      yield {
        ticker: row.ticker,
        reportDate: row.reportDate,
        year: row.reportYear,
        scope1: row.scope1,
        scope2: row.scope2,
        scope3: row.scope3,
        // A figure that is absent cannot have been verified.
        scope1Verified: row.scope1 !== null && row.scope1Verified,
        scope2Verified: row.scope2 !== null && row.scope2Verified,
        boundary: row.scope1Boundary,
        sourceId: layout.sourceId,
      };
    }
  };
}

export const readTwseGhg = ghgAdapter(twseGhgLayout);
export const readTpexGhg = ghgAdapter(tpexGhgLayout);

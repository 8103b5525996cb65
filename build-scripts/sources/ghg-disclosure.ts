import { z } from 'zod';
import type { FileLayout } from '../adapters/layouts.js';
import { opt, req } from '../adapters/layouts.js';
import { readLayout, type RejectLog } from '../adapters/read-layout.js';
import { code, isoDate, optionalAmount, text, year, yesNo } from '../adapters/values.js';
import type { GhgDisclosureRow } from './facts.js';

/**
 * The exchanges' GHG disclosure form (企業ESG資訊揭露彙總資料-溫室氣體排放), the same keys at TWSE
 * (t187ap46_L_1) and TPEx (t187ap46_O_1): Chinese labels, every value a string, figures with four
 * decimals, 是/否, boundary 合併/母公司.
 */
export const ghgColumns = {
  reportDate: req('出表日期'),
  reportYear: req('報告年度'),
  ticker: req('公司代號'),
  companyName: opt('公司名稱'),
  scope1: req('範疇一排放量(噸CO2e)'),
  scope1Boundary: opt('範疇一資料邊界'),
  scope1Verified: opt('範疇一取得驗證'),
  scope2: req('範疇二排放量(噸CO2e)'),
  scope2Boundary: opt('範疇二資料邊界'),
  scope2Verified: opt('範疇二取得驗證'),
  scope3: opt('範疇三排放量(噸CO2e)'),
  scope3Boundary: opt('範疇三資料邊界'),
  scope3Verified: opt('範疇三取得驗證'),
  intensity: opt('溫室氣體排放密集度(噸CO2e/單位)'),
} as const;
export type GhgKey = keyof typeof ghgColumns;

export type { GhgDisclosureRow };

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

export function ghgReader(layout: FileLayout<GhgKey>) {
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

import { z } from 'zod';
import type { Boundary } from '../../../src/contract/vocabulary.js';
import type { FileLayout } from '../../adapters/layouts.js';
import { opt, req } from '../../adapters/layouts.js';
import { readLayout, type RejectLog } from '../../adapters/read-layout.js';
import { code, publisherDate, optionalAmount, text, year, yesNo } from '../../adapters/values.js';
import type { GhgDisclosureRow } from '../kit/facts.js';
import type { SourceTally } from '../kit/tally.js';

/**
 * The exchanges' GHG disclosure form (企業ESG資訊揭露彙總資料-溫室氣體排放), the same Chinese keys at
 * TWSE (t187ap46_L_1) and TPEx (t187ap46_O_1), every value a string (shared/spec/sources.md, "Genuine
 * answers, part two"): figures with four decimals (`0.0000` a real zero), a missing figure written
 * `N/A` (never the empty string), 取得驗證 `是`/`否`, and 資料邊界 free text, most often `已完成母公司` or
 * `已完成合併財務報表之母子公司`. The MOPS CSV of the same dataset writes `公噸` where the JSON writes
 * `噸`; the intensity key differs by exchange (TPEx's has U+2082 and a revenue unit) and is read by
 * neither name as required. Rows join companies on 公司代號 alone: 公司名稱 is a short name that may
 * differ from the company list (a renamed company, a trailing `*`, `-創`).
 */
export const ghgColumns = {
  reportDate: req('出表日期'),
  reportYear: req('報告年度'),
  ticker: req('公司代號'),
  companyName: opt('公司名稱'),
  scope1: req('範疇一排放量(噸CO2e)', '範疇一排放量(公噸CO2e)'),
  scope1Boundary: opt('範疇一資料邊界'),
  scope1Verified: opt('範疇一取得驗證'),
  scope2: req('範疇二排放量(噸CO2e)', '範疇二排放量(公噸CO2e)'),
  scope2Boundary: opt('範疇二資料邊界'),
  scope2Verified: opt('範疇二取得驗證'),
  scope3: opt('範疇三排放量(噸CO2e)', '範疇三排放量(公噸CO2e)'),
  scope3Boundary: opt('範疇三資料邊界'),
  scope3Verified: opt('範疇三取得驗證'),
  intensity: opt('溫室氣體排放密集度(噸CO2e/單位)', '溫室氣體排放密集度(公噸CO₂e/百萬元營業額)', '溫室氣體排放密集度(公噸CO2e/百萬元營業額)'),
} as const;
export type GhgKey = keyof typeof ghgColumns;

export type { GhgDisclosureRow };

/** How the exchanges write a figure they do not have. */
const NOT_AVAILABLE = 'N/A';

/** A figure: `N/A` (or nothing at all) is null, a number otherwise; anything else is a reject. */
const figure = z
  .string()
  .transform((s) => (s === NOT_AVAILABLE ? '' : s))
  .pipe(optionalAmount);

/** The boundary's two standard texts (contract 3.2): the consolidated group, or the parent alone. */
const CONSOLIDATED = '已完成合併財務報表之母子公司';
const PARENT = '已完成母公司';

/**
 * 資料邊界 classified (contract 3.2): consolidated when the text names the consolidated group (also when
 * joined with the parent's, `已完成母公司,已完成合併財務報表之母子公司`), parent when it is exactly the
 * parent's, other for any other text (a plant list, `本公司為個別公司`), null for `N/A`. The text is
 * kept as served (cleaned: references decoded, ends trimmed), inner line breaks included.
 */
export function classifyBoundary(served: string): { boundary: Boundary | null; text: string | null } {
  if (served === NOT_AVAILABLE || served === '') return { boundary: null, text: null };
  if (served.includes(CONSOLIDATED)) return { boundary: 'consolidated', text: served };
  if (served === PARENT) return { boundary: 'parent', text: served };
  return { boundary: 'other', text: served };
}

const schema = z.object({
  reportDate: publisherDate,
  reportYear: year,
  ticker: code,
  scope1: figure,
  scope1Boundary: text,
  scope1Verified: yesNo,
  scope2: figure,
  scope2Verified: yesNo,
  scope3: figure,
  scope3Verified: yesNo,
});

/**
 * A reader of one exchange's form. Every row is a record, `N/A` figures null: a row whose three
 * figures are all `N/A` is yielded too (it is what the company filed), and the loader publishes no
 * disclosure for it. Each row's 出表日期 stamps the source's publisher_date.
 */
export function ghgReader(layout: FileLayout<GhgKey>) {
  return async function* (dir: string, rejects: RejectLog, tally?: SourceTally): AsyncGenerator<GhgDisclosureRow> {
    for await (const { row } of readLayout(dir, layout, schema, rejects)) {
      tally?.stamp(layout.sourceId, row.reportDate);
      const { boundary, text: boundaryText } = classifyBoundary(row.scope1Boundary);
      yield {
        ticker: row.ticker,
        reportDate: row.reportDate,
        year: row.reportYear,
        scope1: row.scope1,
        scope2: row.scope2,
        scope3: row.scope3,
        // A figure that is absent cannot have been verified (the exchanges write 否 beside every N/A).
        scope1Verified: row.scope1 !== null && row.scope1Verified,
        scope2Verified: row.scope2 !== null && row.scope2Verified,
        scope3Verified: row.scope3 !== null && row.scope3Verified,
        boundary,
        boundaryText,
        sourceId: layout.sourceId,
      };
    }
  };
}

/** Whether a row discloses anything: a row whose three figures are all `N/A` does not (contract 3.2). */
export const disclosesAny = (d: Pick<GhgDisclosureRow, 'scope1' | 'scope2' | 'scope3'>) =>
  d.scope1 !== null || d.scope2 !== null || d.scope3 !== null;

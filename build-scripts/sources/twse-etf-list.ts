import { z } from 'zod';
import type { FileLayout } from '../adapters/layouts.js';
import { req } from '../adapters/layouts.js';
import { readLayout, resolveLayoutFile, type RejectLog } from '../adapters/read-layout.js';
import { code, isoDate, optionalIsoDate, requiredText, text } from '../adapters/values.js';
import { singleGetPlan } from './single-get.js';
import { OGDL_TW, OWNERS } from './registry-info.js';
import type { SourceModule } from './source.js';

/**
 * SRC-TWSE-ETF-LIST: the TWSE fund list (基金基本資料彙總表, t187ap47_L), the one place where a
 * fund's full name (the name SITCA's holdings use) meets its code. A JSON array as the TWSE OpenAPI
 * serves it (every value a string, keys the Chinese labels); the same dataset as a UTF-8-with-BOM
 * CSV from mopsfin may be placed by hand. Every key of the form is required: a key the publisher
 * renames fails the file, naming the key. The list keeps liquidated funds; the join
 * (etf-funds.ts) keeps only codes SITCA's answer holds.
 */

const URL = 'https://openapi.twse.com.tw/v1/opendata/t187ap47_L';

export const twseEtfListLayout = {
  file: 't187ap47_L.json',
  alternatives: ['t187ap47_L.csv'],
  sourceId: 'SRC-TWSE-ETF-LIST',
  columns: {
    reportDate: req('出表日期'),
    code: req('基金代號'),
    shortName: req('基金簡稱'),
    fundType: req('基金類型'),
    fullName: req('基金中文名稱'),
    englishName: req('基金英文名稱'),
    index: req('標的指數/追蹤指數名稱'),
    established: req('成立日期'),
    listed: req('上市日期'),
    units: req('發行單位數/轉換數'),
  },
} as const satisfies FileLayout;

export const twseEtfListModule: SourceModule = {
  info: {
    source_id: 'SRC-TWSE-ETF-LIST',
    name: '基金基本資料彙總表 (TWSE fund list, t187ap47_L)',
    ...OWNERS.TWSE,
    licence: OGDL_TW,
    update_frequency: 'monthly',
    homepage_url: URL,
    description:
      'Every fund listed on TWSE with its code, short and full names, type and tracked index. Used to give SITCA’s ' +
      'holdings (which name funds, not codes) their fund codes, matching on the full name, and to tell ESG ETFs by ' +
      'the published rule. No record-level link is known: the row is the one with 基金代號 = the fund code.',
    record_link: null,
  },
  files: { answers: /^t187ap47_L\.json$/, placed: ['t187ap47_L.csv'] },
  plan: singleGetPlan(twseEtfListLayout.file, URL),
  // Read by the SITCA module, whose fund names it gives codes (sitca-etf-holdings.ts, `uses`).
  read: null,
  // About 250 funds (index, active, bond, leveraged, foreign).
  assertions: { minRecords: 150, maxRecords: 600 },
};

/** One fund of the list. Dates ISO; `index` is `不適用` for an active fund, as served. */
export interface FundListRow {
  code: string;
  shortName: string;
  fundType: string;
  /** 基金中文名稱: the full name SITCA uses. */
  fullName: string;
  englishName: string;
  /** 標的指數/追蹤指數名稱. */
  index: string;
  established: string | null;
  listed: string;
  /** 發行單位數/轉換數 as served. */
  units: string;
  reportDate: string | null;
}

const schema = z.object({
  reportDate: optionalIsoDate,
  code,
  shortName: text,
  fundType: requiredText,
  fullName: requiredText,
  englishName: text,
  index: text,
  established: optionalIsoDate,
  listed: isoDate,
  units: text,
});

export interface FundList {
  rows: FundListRow[];
  /** Records served again with the same content (one record each). */
  duplicates: number;
}

/**
 * The fund list in the folder (the OpenAPI answer, or the CSV placed by hand). A fund served twice
 * with the same content is one record (counted in `duplicates`); served again with other content it
 * is a reject naming both places, and the first is kept.
 */
export async function readFundList(dir: string, rejects: RejectLog): Promise<FundList> {
  const file = resolveLayoutFile(dir, twseEtfListLayout) ?? twseEtfListLayout.file;
  const unit = file.endsWith('.json') ? 'record' : 'line';
  const first = new Map<string, { line: number; content: string }>();
  const rows: FundListRow[] = [];
  let duplicates = 0;
  for await (const { line, row } of readLayout(dir, twseEtfListLayout, schema, rejects)) {
    const fund: FundListRow = {
      code: row.code,
      shortName: row.shortName,
      fundType: row.fundType,
      fullName: row.fullName,
      englishName: row.englishName,
      index: row.index,
      established: row.established,
      listed: row.listed,
      units: row.units,
      reportDate: row.reportDate,
    };
    const content = JSON.stringify(fund);
    const before = first.get(fund.code);
    if (before === undefined) {
      first.set(fund.code, { line, content });
      rows.push(fund);
    } else if (before.content === content) {
      duplicates++;
    } else {
      const at = unit === 'record' ? `record ${before.line}` : `line ${before.line}`;
      rejects.add(file, line, `基金代號: ${fund.code} served again with other content (the first, at ${at}, is kept)`, unit);
    }
  }
  return { rows, duplicates };
}

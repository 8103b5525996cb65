import { join } from 'node:path';
import { z } from 'zod';
import { CsvFormatError, readCsv } from '../../adapters/csv-reader.js';
import { sniffEncoding } from '../../adapters/decode.js';
import { JsonFormatError, readJsonRecords } from '../../adapters/json-records.js';
import type { FileLayout } from '../../adapters/layouts.js';
import { req } from '../../adapters/layouts.js';
import { MissingFileError, readLayoutFile, resolveLayoutFile, SourceFileError, type RejectLog } from '../../adapters/read-layout.js';
import { code, publisherDate, optionalPublisherDate, requiredText, text } from '../../adapters/values.js';
import { singleGetPlan } from '../kit/single-get.js';
import { OGDL_TW, OWNERS } from '../kit/registry-info.js';
import type { SourceModule } from '../kit/source.js';
import type { SourceTally } from '../kit/tally.js';

/**
 * SRC-TWSE-ETF-LIST: the TWSE fund list (基金基本資料彙總表, t187ap47_L), the one place where a
 * fund's full name (the name SITCA's holdings use) meets its code. A JSON array as the TWSE OpenAPI
 * serves it (every value a string, keys the Chinese labels); the same dataset as a UTF-8-with-BOM
 * CSV from mopsfin may be placed by hand.
 *
 * The list is served in two schemas, both genuine (shared/spec/sources.md, "Genuine answers, part
 * two"): a newer one of ten keys (基金簡稱, 基金中文名稱, `標的指數/追蹤指數名稱`, …) and an older one of
 * 24 keys (基金名稱, `標的指數|追蹤指數名稱` with a pipe, 英文名稱, 統一編號, 投資經理人, …, and no short
 * name). The first record (or the CSV header) must hold every key one schema reads; the file is then
 * read in that schema. Keys of neither (a renamed key, or a mixture of the two) fail the file naming
 * the keys seen: a column taken from each schema would read a third form nobody has confirmed. The
 * list keeps liquidated funds; the join (etf-funds.ts) keeps only codes SITCA's answer holds.
 */

const URL = 'https://openapi.twse.com.tw/v1/opendata/t187ap47_L';
const SOURCE_ID = 'SRC-TWSE-ETF-LIST';

/** Keys both schemas write the same way. */
const sharedColumns = {
  reportDate: req('出表日期'),
  code: req('基金代號'),
  fundType: req('基金類型'),
  established: req('成立日期'),
  listed: req('上市日期'),
};

/** The newer schema (ten keys), which the demo generator writes. */
export const twseEtfListLayout = {
  file: 't187ap47_L.json',
  alternatives: ['t187ap47_L.csv'],
  sourceId: SOURCE_ID,
  columns: {
    ...sharedColumns,
    shortName: req('基金簡稱'),
    fullName: req('基金中文名稱'),
    englishName: req('基金英文名稱'),
    index: req('標的指數/追蹤指數名稱'),
    units: req('發行單位數/轉換數'),
  },
} as const satisfies FileLayout;

/**
 * The older 24-key schema (the genuine answer of 2025-11-23, 出表日期 1131230). It has no short name;
 * its keys that the build does not use (統一編號, 投資經理人, 總代理人, 備註, …) are not read.
 */
export const twseEtfListOlderLayout = {
  ...twseEtfListLayout,
  columns: {
    ...sharedColumns,
    fullName: req('基金名稱'),
    englishName: req('英文名稱'),
    index: req('標的指數|追蹤指數名稱'),
    units: req('發行單位數|轉換數'),
  },
} as const satisfies FileLayout;

/** Either schema, typed by the keys both read (the newer adds shortName). */
type FundListLayout = FileLayout<keyof typeof twseEtfListOlderLayout.columns>;
/** Newer first: a record holding the keys of both is read in the newer, which also has the short name. */
const SCHEMAS: readonly { name: string; layout: FundListLayout }[] = [
  { name: 'newer', layout: twseEtfListLayout },
  { name: 'older', layout: twseEtfListOlderLayout },
];
const keysOf = (layout: FundListLayout) => Object.values(layout.columns).flatMap((c) => c.labels);

export const twseEtfListModule: SourceModule = {
  info: {
    source_id: SOURCE_ID,
    name: '基金基本資料彙總表 (TWSE fund list, t187ap47_L)',
    ...OWNERS.TWSE,
    licence: OGDL_TW,
    update_frequency: 'monthly',
    homepage_url: URL,
    description:
      'Every fund listed on TWSE with its code, full name (and short name, in the newer of the two schemas it is ' +
      'served in), type and tracked index. Used to give SITCA’s holdings (which name funds, not codes) their fund ' +
      'codes, matching on the full name, and to tell ESG ETFs by the published rule. No record-level link is known: the row is the one with 基金代號 = the fund code.',
    record_link: null,
  },
  files: { answers: /^t187ap47_L\.json$/, placed: ['t187ap47_L.csv'] },
  plan: singleGetPlan(twseEtfListLayout.file, URL),
  // Read by the SITCA module, whose fund names it gives codes (sitca-etf-holdings.ts, `uses`).
  read: null,
  // About 250 funds (index, active, bond, leveraged, foreign).
  assertions: { minRecords: 150, maxRecords: 600 },
};

/**
 * One fund of the list. Dates ISO. A placeholder (`無`, `NA`, `N/A`) is read as absent: `''` for a
 * text, null for a date. `index` is `不適用` for an active fund, as served.
 */
export interface FundListRow {
  code: string;
  /** 基金簡稱; `''` in the older schema, which has none. */
  shortName: string;
  fundType: string;
  /** 基金中文名稱 (newer schema) or 基金名稱 (older): the full name SITCA uses. */
  fullName: string;
  /** 基金英文名稱 or 英文名稱. */
  englishName: string;
  /** 標的指數/追蹤指數名稱 or 標的指數|追蹤指數名稱. */
  index: string;
  established: string | null;
  listed: string;
  /** 發行單位數/轉換數 or 發行單位數|轉換數, as served. */
  units: string;
  /** 出表日期: the date the publisher stamped on the list. */
  reportDate: string | null;
}

/**
 * What the list writes where it has no value (the genuine answer: `無`, `NA`, `N/A` and `""` in
 * 代理發言人, 總代理人, 備註). Read as absent, so a placeholder is never a name or index the ESG rule
 * reads, nor a date that fails.
 */
const PLACEHOLDER = /^(?:無|NA|N\/A)$/i;
const absent = z.string().transform((s) => (PLACEHOLDER.test(s.trim()) ? '' : s));
const optionalText = absent.pipe(text);

const schema = z.object({
  reportDate: absent.pipe(optionalPublisherDate),
  code,
  // Absent from the older schema's layout: no key, so no value.
  shortName: optionalText.default(''),
  fundType: absent.pipe(requiredText),
  fullName: absent.pipe(requiredText),
  englishName: optionalText,
  index: optionalText,
  established: absent.pipe(optionalPublisherDate),
  listed: publisherDate,
  units: optionalText,
});

export interface FundList {
  rows: FundListRow[];
  /** Records served again with the same content (one record each). */
  duplicates: number;
}

/**
 * The keys of the file's first record (the CSV header), trimmed as the readers trim them; null when
 * there is none to see (an empty list) or the file cannot be read as its name says, which the
 * layout reader then reports as it does for every source.
 */
async function firstKeys(path: string, isJson: boolean): Promise<string[] | null> {
  try {
    if (!isJson) {
      for await (const item of readCsv(path)) if ('fields' in item) return item.fields.map((f) => f.trim());
      return null;
    }
    if ((await sniffEncoding(path)) !== 'utf8') return null;
    for await (const item of readJsonRecords(path)) {
      const v = 'value' in item ? item.value : null;
      if (v !== null && typeof v === 'object' && !Array.isArray(v)) return Object.keys(v).map((k) => k.trim());
    }
    return null;
  } catch (e) {
    if (e instanceof JsonFormatError || e instanceof CsvFormatError) return null;
    throw e;
  }
}

/**
 * The schema the file is served in: the first whose every key the first record holds. Throws a
 * SourceFileError naming the keys seen, and what each schema lacks, when neither fits.
 */
export async function fundListSchema(dir: string, file: string): Promise<FundListLayout> {
  const keys = await firstKeys(join(dir, file), file.toLowerCase().endsWith('.json'));
  if (keys === null) return twseEtfListLayout;
  const seen = new Set(keys);
  const lacking = SCHEMAS.map((s) => ({ ...s, missing: keysOf(s.layout).filter((k) => !seen.has(k)) }));
  const fit = lacking.find((s) => s.missing.length === 0);
  if (fit) return fit.layout;
  throw new SourceFileError(
    `${SOURCE_ID} ${file}: neither fund-list schema; keys seen: ${keys.join(', ')} ` +
      `(${lacking.map((s) => `the ${s.name} schema lacks ${s.missing.join(', ')}`).join('; ')})`,
  );
}

/**
 * The fund list in the folder (the OpenAPI answer, or the CSV placed by hand), in either schema.
 * Every fund read is a record of SRC-TWSE-ETF-LIST in `tally`, and its 出表日期 the source's
 * publisher date (the newest), so a year-old list is shown as such. A fund served twice with the
 * same content is one record (counted in `duplicates`); served again with other content it is a
 * reject naming both places, and the first is kept.
 */
export async function readFundList(dir: string, rejects: RejectLog, tally: SourceTally): Promise<FundList> {
  const file = resolveLayoutFile(dir, twseEtfListLayout);
  if (file === null) throw new MissingFileError([twseEtfListLayout.file, ...twseEtfListLayout.alternatives].join(' or '));
  const layout = await fundListSchema(dir, file);
  const unit = file.endsWith('.json') ? 'record' : 'line';
  const first = new Map<string, { line: number; content: string }>();
  const rows: FundListRow[] = [];
  let duplicates = 0;
  for await (const { line, row } of readLayoutFile(dir, file, layout, schema, rejects)) {
    tally.stamp(SOURCE_ID, row.reportDate);
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
      tally.record(SOURCE_ID, null);
    } else if (before.content === content) {
      duplicates++;
    } else {
      const at = unit === 'record' ? `record ${before.line}` : `line ${before.line}`;
      rejects.add(file, line, `基金代號: ${fund.code} served again with other content (the first, at ${at}, is kept)`, unit);
    }
  }
  tally.of(SOURCE_ID).duplicates += duplicates;
  return { rows, duplicates };
}

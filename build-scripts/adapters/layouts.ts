/**
 * How a tabular publisher file is described: its columns and the header names accepted for each.
 * Each source module (build-scripts/sources/) declares its own layout beside its reader; the hand-
 * placed forms without a module of their own (the MOPS CSV exports, the project's CBAM list) are
 * here. The demo generator writes headers from the same layouts, so it cannot drift from what the
 * adapters accept.
 *
 * Each column lists its accepted header names: the publisher's Chinese label first, then the API
 * key where the publisher has a distinct one. Either is accepted (JSON keys and CSV headers alike,
 * trimmed); unknown columns are ignored. A file is read as JSON (an array, or `{records: [...]}`)
 * when its name ends in `.json`, else as CSV.
 */

import type { SourceEncoding } from './decode.js';

export interface ColumnSpec {
  /** Header names accepted for this column: Chinese label first, API key second (if any). */
  readonly labels: readonly string[];
  readonly required: boolean;
}

export interface FileLayout<K extends string = string> {
  /** File name inside a sources folder, in the form the publisher serves (what the fetch and the demo write). */
  readonly file: string;
  /** Other accepted names: the same dataset in another served form (CSV for JSON, say). One per folder. */
  readonly alternatives?: readonly string[];
  /** Declared encoding of a CSV form; detected from the bytes when absent (UTF-8 with or without BOM, else Big5). */
  readonly encoding?: SourceEncoding;
  readonly sourceId: string;
  readonly columns: Readonly<Record<K, ColumnSpec>>;
}

export const req = (...labels: string[]): ColumnSpec => ({ labels, required: true });
export const opt = (...labels: string[]): ColumnSpec => ({ labels, required: false });

/** MOPS sustainability-report filings with their assurance (永續報告書), as a CSV export an operator places by hand (SRC-MOPS-ESGREPORT). */
export const esgReportLayout = {
  file: 'esg_report.csv',
  alternatives: ['esg_report.json'],
  sourceId: 'SRC-MOPS-ESGREPORT',
  columns: {
    market: opt('市場別'),
    year: req('年份'),
    ticker: req('公司代號'),
    companyName: opt('公司名稱'),
    reason: opt('申報原因'),
    industry: opt('產業類別'),
    period: opt('報告書內容涵蓋期間'),
    standard: opt('編製依循準則'),
    thirdParty: req('第三方驗證單位名稱'),
    thirdPartyStandard: req('第三方驗證採用標準'),
    cpa: req('會計師確信驗證單位'),
    cpaStandard: opt('會計師確信採用標準'),
    cpaOpinion: req('會計師確信意見類型'),
    uploadDate: opt('上傳日期'),
    amended: opt('修正後報告書'),
  },
} as const satisfies FileLayout;

/** MOPS quarterly holdings of domestic-constituent ETFs. 基金名稱 is optional (not every copy has it). */
export const etfHoldingsLayout = {
  file: 'etf_holdings.csv',
  alternatives: ['etf_holdings.json'],
  sourceId: 'SRC-MOPS-ETF-HOLDINGS',
  columns: {
    fundCode: req('基金代號'),
    fundName: opt('基金名稱'),
    year: req('年度'),
    quarter: req('季別'),
    securityCode: req('證券代號'),
    securityName: req('證券簡稱'),
    weightPct: req('持股比率'),
  },
} as const satisfies FileLayout;

/**
 * Product-based CBAM exposure the industry code cannot show (aluminium and fertiliser makers).
 * A project-curated input, not a publisher's file; optional.
 */
export const cbamProductsLayout = {
  file: 'cbam_products.csv',
  sourceId: 'SRC-TWSE-COMPANY',
  columns: {
    ticker: req('公司代號'),
    sector: req('CBAM部門'),
    product: req('產品'),
  },
} as const satisfies FileLayout;

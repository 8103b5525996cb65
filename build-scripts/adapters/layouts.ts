/**
 * The publishers' file layouts, one per source file. This is the single description of every
 * column the project reads: the adapters map headers through it and the demo generator writes
 * headers from it, so the demo cannot drift from what the adapters accept.
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

const req = (...labels: string[]): ColumnSpec => ({ labels, required: true });
const opt = (...labels: string[]): ColumnSpec => ({ labels, required: false });

/** TWSE listed-company profiles (t187ap03_L). The TWSE open API uses the Chinese labels as keys. */
export const twseCompanyLayout = {
  file: 't187ap03_L.json',
  alternatives: ['t187ap03_L.csv'],
  sourceId: 'SRC-TWSE-COMPANY',
  columns: {
    reportDate: opt('出表日期'),
    ticker: req('公司代號'),
    legalName: req('公司名稱'),
    shortName: req('公司簡稱'),
    industryCode: req('產業別'),
    uniformNo: req('營利事業統一編號'),
    paidInCapital: opt('實收資本額'),
  },
} as const satisfies FileLayout;

/** TPEx OTC-company profiles (mopsfin_t187ap03_O): English API keys, Chinese labels also accepted. */
export const tpexCompanyLayout = {
  file: 'mopsfin_t187ap03_O.json',
  alternatives: ['mopsfin_t187ap03_O.csv'],
  sourceId: 'SRC-TPEX-COMPANY',
  columns: {
    reportDate: opt('出表日期', 'Date'),
    ticker: req('公司代號', 'SecuritiesCompanyCode'),
    legalName: req('公司名稱', 'CompanyName'),
    shortName: req('公司簡稱', 'CompanyAbbreviation'),
    industryCode: req('產業別', 'SecuritiesIndustryCode'),
    uniformNo: req('營利事業統一編號', 'UnifiedBusinessNo'),
    paidInCapital: opt('實收資本額', 'Paidin.Capital.NTDollars'),
  },
} as const satisfies FileLayout;

/** MOENV environmental penalties (EMS_P_46). Chinese label or API key; some clients of the API name the business ID `ban`. */
export const penaltyLayout = {
  file: 'EMS_P_46.json',
  alternatives: ['EMS_P_46.csv'],
  sourceId: 'SRC-MOENV-EMS_P_46',
  columns: {
    emsNo: opt('管制事業編號', 'ems_no'),
    facilityName: opt('事業名稱', 'fac_name'),
    uniformNo: req('統一編號', 'fac_uniformno', 'ban'),
    agencyName: req('裁處機關', 'county_name'),
    documentNo: req('裁處書字號', 'document_no'),
    transgressDate: opt('違反時間', 'transgress_date'),
    transgressLaw: opt('違反法令', 'transgress_law'),
    transgressType: opt('污染類別', 'transgress_type'),
    facts: opt('違反事實', 'openinfor'),
    penaltyDate: req('裁處時間', 'penalty_date'),
    penaltyMoney: req('裁處金額', 'penalty_money'),
    gist: opt('裁處理由及法令', 'gist_define'),
    subject: opt('主旨', 'subject'),
    otherPenalty: opt('其他處罰方式', 'penaltykind'),
    illegalGain: opt('不法利得', 'illegal_money'),
    serious: req('情節重大', 'isimportant'),
    improveDeadline: opt('限改日期', 'improve_deadline'),
    improved: opt('改善完妥與否', 'is_improve'),
    petition: opt('是否訴願訴訟', 'ispetition'),
    petitionResult: opt('訴願訴訟結果', 'petition_results'),
    paid: opt('罰鍰是否繳清', 'paymentstate'),
    facilityAddress: opt('fac_address'),
    transgressAddress: opt('transgress_address'),
    transgressor: opt('違規人名稱', 'transgress_name'),
  },
} as const satisfies FileLayout;

/** Columns shared by the TWSE and TPEx GHG disclosure files (t187ap46_L_1 / t187ap46_O_1). */
const ghgColumns = {
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

export const twseGhgLayout = {
  file: 't187ap46_L_1.json',
  alternatives: ['t187ap46_L_1.csv'],
  sourceId: 'SRC-TWSE-ESG-GHG',
  columns: ghgColumns,
} as const satisfies FileLayout;

export const tpexGhgLayout = {
  file: 't187ap46_O_1.json',
  alternatives: ['t187ap46_O_1.csv'],
  sourceId: 'SRC-TPEX-ESG-GHG',
  columns: ghgColumns,
} as const satisfies FileLayout;

/** MOENV facility GHG registry (GHG_P_01): API keys or the Chinese labels some copies use. */
export const registryLayout = {
  file: 'GHG_P_01.json',
  alternatives: ['GHG_P_01.csv'],
  sourceId: 'SRC-MOENV-GHG_P_01',
  columns: {
    year: req('年度', 'app_year'),
    uniformNo: req('統一編號', 'companyno'),
    companyName: opt('公司名稱', 'companyname'),
    city: opt('縣市', 'city'),
    town: opt('鄉鎮', 'town'),
    industryName: opt('行業名稱', 'sicname1'),
    industryCode: req('行業代碼', 'ccksicco1'),
    cause: opt('列管原因', 'cause'),
    co2: opt('co2'),
    ch4: opt('ch4'),
    n2o: opt('n2o'),
    /** Direct (scope 1) emissions of the site, t CO2e. */
    direct: req('直接排放', 'tot'),
    /** Energy-indirect (scope 2, electricity) emissions of the site, t CO2e. */
    indirect: req('能源間接排放', 'tot2'),
    total: opt('排放總量(公噸CO2e)'),
  },
} as const satisfies FileLayout;

/** MOPS sustainability-report filings with their assurance (永續報告書). */
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

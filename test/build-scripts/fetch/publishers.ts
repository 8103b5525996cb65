import iconv from 'iconv-lite';
import { csvQuote } from '../../../src/contract/csv.js';
import { jsonReply, type Handler, type Reply } from './replay-server.js';

/**
 * The publishers' answers as the replay server serves them, shaped as sources.md describes: TWSE and
 * TPEx OpenAPI JSON arrays (Chinese keys, one with a trailing space; TPEx profiles with English
 * keys), MOENV v2 pages of 1,000 behind a key (`{records}` for penalties, a bare array for the
 * registry), a MOPS CSV with a byte-order mark and a Big5 CSV.
 */

export const API_KEY = 'test-key-5f3a9c1e';
export const PENALTY_ROWS = 2345;
export const PAGE = 1000;

export const PATHS = {
  twseCompany: '/v1/opendata/t187ap03_L',
  tpexCompany: '/openapi/v1/mopsfin_t187ap03_O',
  twseGhg: '/v1/opendata/t187ap46_L_1',
  tpexGhg: '/openapi/v1/t187ap46_O_1',
  penalties: '/api/v2/EMS_P_46',
  registry: '/api/v2/GHG_P_01',
  esgReport: '/opendata/esg_report.csv',
  etfHoldings: '/opendata/etf_holdings.csv',
} as const;

/** Each source's URL override pointing at the replay server. */
export function replayEnv(base: string): Record<string, string> {
  return {
    FETCH_URL_SRC_TWSE_COMPANY: `${base}${PATHS.twseCompany}`,
    FETCH_URL_SRC_TPEX_COMPANY: `${base}${PATHS.tpexCompany}`,
    FETCH_URL_SRC_TWSE_ESG_GHG: `${base}${PATHS.twseGhg}`,
    FETCH_URL_SRC_TPEX_ESG_GHG: `${base}${PATHS.tpexGhg}`,
    FETCH_URL_SRC_MOENV_EMS_P_46: `${base}${PATHS.penalties}`,
    FETCH_URL_SRC_MOENV_GHG_P_01: `${base}${PATHS.registry}`,
    FETCH_URL_SRC_MOPS_ESGREPORT: `${base}${PATHS.esgReport}`,
    FETCH_URL_SRC_MOPS_ETF_HOLDINGS: `${base}${PATHS.etfHoldings}`,
  };
}

const twseCompanies = [
  ['2330', '台灣積體電路製造股份有限公司', '台積電', '24', '22099131', '259325245210'],
  ['1101', '臺灣水泥股份有限公司', '台泥', '01', '11913502', '75118782160'],
].map(([code, name, short, industry, ubn, capital]) => ({
  出表日期: '1150731', 公司代號: code, 公司名稱: name, 公司簡稱: short, 外國企業註冊地國: '－ ', 產業別: industry,
  住址: '新竹科學園區', 營利事業統一編號: ubn, 成立日期: '19870221', 上市日期: '19940905', 實收資本額: capital, 英文簡稱: 'X', 網址: 'https://example.com',
}));

const tpexCompanies = [
  { Date: '1150731', SecuritiesCompanyCode: '6488', CompanyName: '環球晶圓股份有限公司', CompanyAbbreviation: '環球晶', SecuritiesIndustryCode: '24', UnifiedBusinessNo: '24591271', 'Paidin.Capital.NTDollars': '4780823000' },
];

/** The sample record of sources.md, with the boundary key served with a trailing space. */
export const SAMPLE_GHG = {
  出表日期: '1150731', 報告年度: '114', 公司代號: '2330', 公司名稱: '台積電',
  '範疇一排放量(噸CO2e)': '2196516.0000', '範疇一資料邊界 ': '合併', 範疇一取得驗證: '是',
  '範疇二排放量(噸CO2e)': '11130571.0000', 範疇二資料邊界: '合併', 範疇二取得驗證: '是',
  '範疇三排放量(噸CO2e)': '', 範疇三資料邊界: '', 範疇三取得驗證: '',
  '溫室氣體排放密集度(噸CO2e/單位)': '0.5123',
};

const twseGhg = [
  SAMPLE_GHG,
  { ...SAMPLE_GHG, 公司代號: '1101', 公司名稱: '台泥', '範疇一排放量(噸CO2e)': '6,812,345.0000', '範疇一資料邊界 ': '母公司', 範疇一取得驗證: '否', '範疇二排放量(噸CO2e)': '512,000.0000', 範疇二取得驗證: '否' },
];
const tpexGhg = [{ ...SAMPLE_GHG, 公司代號: '6488', 公司名稱: '環球晶', '範疇一排放量(噸CO2e)': '12345.6000', '範疇二排放量(噸CO2e)': '', 範疇二取得驗證: '' }];

/** Penalty records, as one third-party parser reads them: the business ID under `ban`. */
function penalty(i: number): Record<string, string> {
  const ours = i < 3;
  const forms = ['113年5月21日', '2014/12/29', '1130521'];
  return {
    ems_no: `E${String(i).padStart(7, '0')}`,
    fac_name: ours ? '台灣積體電路製造股份有限公司' : `測試事業${i}`,
    ban: ours ? '22099131' : String(90_000_000 + i),
    county_name: i % 2 === 0 ? '新竹市政府環境保護局' : '環境部',
    document_no: `${i % 2 === 0 ? '竹市環' : '環部'}字第${1130000 + i}號`,
    transgress_date: '',
    transgress_law: '空氣污染防制法第24條',
    transgress_type: '空氣',
    openinfor: ours ? `違反事實 ${i}` : '',
    penalty_date: forms[i % 3]!,
    penalty_money: ours ? ['NT$100,000', '1,234', '60000'][i]! : String(1000 + i),
    gist_define: '',
    subject: '',
    penaltykind: '',
    illegal_money: '',
    isimportant: i === 0 ? '是' : '否',
  };
}
export const PENALTIES = Array.from({ length: PENALTY_ROWS }, (_, i) => penalty(i));

const registry = [
  { app_year: '113', companyno: '22099131', companyname: '台灣積體電路製造股份有限公司', ccksicco1: '2611', tot: '1,800,000.0000', tot2: '10,500,000.0000' },
  { app_year: '113', companyno: '11913502', companyname: '臺灣水泥股份有限公司', ccksicco1: '2331', tot: '6800000', tot2: '500000' },
];

const ESG_HEADER = ['市場別', '年份', '公司代號', '公司名稱', '第三方驗證單位名稱', '第三方驗證採用標準', '會計師確信驗證單位', '會計師確信採用標準', '會計師確信意見類型', '上傳日期'];
const esgRows = [
  ['上市', '113', '2330', '台積電', '', '', '安侯建業聯合會計師事務所', '確信準則3000號', '合理確信', '113/06/28'],
  ['上市', '113', '1101', '台泥', '英國標準協會', 'AA1000 中度保證', '', '', '', '113/08/30'],
];
const ETF_HEADER = ['基金代號', '基金名稱', '年度', '季別', '證券代號', '證券簡稱', '持股比率'];
const etfRows = [
  ['0050', '元大台灣50', '115', '2', '2330', '台積電', '55.1000%'],
  ['0050', '元大台灣50', '115', '2', '1101', '台泥', '0.4000%'],
];

const csvText = (header: string[], rows: string[][]) => [header, ...rows].map((r) => r.map(csvQuote).join(',')).join('\r\n') + '\r\n';

/** Every publisher path's normal answer. MOENV paths check the key (401 without) and page by offset/limit. */
export function publisherHandlers(): Record<string, Handler> {
  const moenv = (records: Record<string, string>[], wrapped: boolean): Handler => (url) => {
    if (url.searchParams.get('api_key') !== API_KEY) return { status: 401, type: 'application/json', body: Buffer.from('{"error":"invalid api_key"}') };
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const limit = Math.min(PAGE, Number(url.searchParams.get('limit') ?? PAGE));
    const page = records.slice(offset, offset + limit);
    return jsonReply(wrapped ? { fields: [{ id: 'ban', type: 'text' }], resource_id: 'x', records: page, total: String(records.length) } : page);
  };
  const csv = (bytes: Buffer): Handler => () => ({ type: 'text/csv', body: bytes }) satisfies Reply;
  return {
    [PATHS.twseCompany]: () => jsonReply(twseCompanies),
    [PATHS.tpexCompany]: () => jsonReply(tpexCompanies),
    [PATHS.twseGhg]: () => jsonReply(twseGhg),
    [PATHS.tpexGhg]: () => jsonReply(tpexGhg),
    [PATHS.penalties]: moenv(PENALTIES, true),
    [PATHS.registry]: moenv(registry, false),
    [PATHS.esgReport]: csv(Buffer.from(`\ufeff${csvText(ESG_HEADER, esgRows)}`, 'utf8')),
    [PATHS.etfHoldings]: csv(iconv.encode(csvText(ETF_HEADER, etfRows), 'cp950')),
  };
}

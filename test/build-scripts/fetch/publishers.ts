import { jsonReply, type Handler, type Received, type Reply } from './replay-server.js';

/**
 * The publishers' answers as the replay server serves them, built from the field names and value
 * forms of shared/spec/sources.md (not from the project's own demo): TWSE and TPEx OpenAPI JSON
 * arrays (Chinese keys, one with a trailing space; TPEx profiles with English keys, `UnifiedBusinessNo.`
 * with its full stop), MOENV v2 pages of 1,000 behind a key (`{records}` for penalties, a bare array
 * for the registry; one decision served on two pages), ESG GenPlus's JSON POST API (new years at
 * `/data`, old at `/data/old`, 405 to a GET, 400 to a POST without the antiforgery token and cookie
 * its token endpoint issued; `data: null` for a year with no reports), SITCA's ASP.NET form page
 * (hidden state that each POST must carry from the previous answer, a session cookie, an empty table
 * without the radio value) and the TWSE fund list.
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
  genplus: '/api/api/MopsSustainReport/data',
  genplusOld: '/api/api/MopsSustainReport/data/old',
  genplusToken: '/api/api/Antiforgery/token',
  sitca: '/ROC/Industry/IN2630.aspx',
  fundList: '/v1/opendata/t187ap47_L',
  twseBreaches: '/v1/opendata/t187ap23_L',
  tpexBreaches: '/openapi/v1/mopsfin_t187ap23_O',
  twseSanctions: '/v1/opendata/t187ap22_L',
  tpexSanctions: '/openapi/v1/mopsfin_t187ap22_O',
} as const;

/** Each source's URL override pointing at the replay server (sources.md's URL with the replay's origin). */
export function replayEnv(base: string): Record<string, string> {
  return {
    FETCH_URL_SRC_TWSE_COMPANY: `${base}${PATHS.twseCompany}`,
    FETCH_URL_SRC_TPEX_COMPANY: `${base}${PATHS.tpexCompany}`,
    FETCH_URL_SRC_TWSE_ESG_GHG: `${base}${PATHS.twseGhg}`,
    FETCH_URL_SRC_TPEX_ESG_GHG: `${base}${PATHS.tpexGhg}`,
    FETCH_URL_SRC_MOENV_EMS_P_46: `${base}${PATHS.penalties}`,
    FETCH_URL_SRC_MOENV_GHG_P_01: `${base}${PATHS.registry}`,
    FETCH_URL_SRC_MOPS_ESGREPORT: `${base}${PATHS.genplus}`,
    FETCH_URL_SRC_SITCA_ETF_HOLDINGS: `${base}${PATHS.sitca}?pid=IN22601_05`,
    FETCH_URL_SRC_TWSE_ETF_LIST: `${base}${PATHS.fundList}`,
    FETCH_URL_SRC_TWSE_DISCLOSURE_BREACHES: `${base}${PATHS.twseBreaches}`,
    FETCH_URL_SRC_TPEX_DISCLOSURE_BREACHES: `${base}${PATHS.tpexBreaches}`,
    FETCH_URL_SRC_TWSE_SANCTIONS: `${base}${PATHS.twseSanctions}`,
    FETCH_URL_SRC_TPEX_SANCTIONS: `${base}${PATHS.tpexSanctions}`,
    // The replay is tiny: the absolute minima of the sources' assertions scaled down (an empty answer still fails).
    ASSERT_MIN_SCALE: '0.001',
  };
}

const twseCompanies = [
  ['2330', '台灣積體電路製造股份有限公司', '台積電', '24', '22099131', '259325245210'],
  ['1101', '臺灣水泥股份有限公司', '台泥', '01', '11913502', '75118782160'],
].map(([code, name, short, industry, ubn, capital]) => ({
  出表日期: '1150731',
  公司代號: code,
  公司名稱: name,
  公司簡稱: short,
  外國企業註冊地國: '－ ',
  產業別: industry,
  住址: '新竹科學園區',
  營利事業統一編號: ubn,
  成立日期: '19870221',
  上市日期: '19940905',
  實收資本額: capital,
  英文簡稱: 'X',
  網址: 'https://example.com',
}));

/** TPEx's English keys exactly as served (sources.md), the full stop of `UnifiedBusinessNo.` included. */
export const TPEX_COMPANY = {
  Date: '1150731',
  SecuritiesCompanyCode: '6488',
  CompanyName: '環球晶圓股份有限公司',
  CompanyAbbreviation: '環球晶',
  SecuritiesIndustryCode: '24',
  Address: '新竹科學工業園區',
  'UnifiedBusinessNo.': '24591271',
  Chairman: '徐秀蘭',
  'Paidin.Capital.NTDollars': '4780823000',
  Symbol: 'GWC',
  WebAddress: 'https://www.sas-globalwafers.com',
  DateOfListing: '20110926',
};

/**
 * The genuine record of sources.md (2330, report year 114, served 2026-07-31), with the boundary key
 * served with a trailing space as some TWSE keys are.
 */
export const SAMPLE_GHG = {
  出表日期: '1150731',
  報告年度: '114',
  公司代號: '2330',
  公司名稱: '台積電',
  '範疇一排放量(噸CO2e)': '2196493.0000',
  '範疇一資料邊界 ': '已完成合併財務報表之母子公司',
  範疇一取得驗證: '是',
  '範疇二排放量(噸CO2e)': '11130568.0000',
  範疇二資料邊界: '已完成合併財務報表之母子公司',
  範疇二取得驗證: '是',
  '範疇三排放量(噸CO2e)': '36298970.0000',
  範疇三資料邊界: '已完成合併財務報表之母子公司',
  範疇三取得驗證: '是',
  '溫室氣體排放密集度(噸CO2e/單位)': '0.5123',
};

const twseGhg = [
  SAMPLE_GHG,
  {
    ...SAMPLE_GHG,
    公司代號: '1101',
    公司名稱: '台泥',
    '範疇一排放量(噸CO2e)': '6,812,345.0000',
    '範疇一資料邊界 ': '已完成母公司',
    範疇一取得驗證: '否',
    '範疇二排放量(噸CO2e)': '512,000.0000',
    範疇二取得驗證: '否',
    // A figure the company did not disclose, as the exchanges write it.
    '範疇三排放量(噸CO2e)': 'N/A',
    範疇三資料邊界: 'N/A',
    範疇三取得驗證: '否',
  },
];
const tpexGhg = [
  {
    ...SAMPLE_GHG,
    公司代號: '6488',
    公司名稱: '環球晶',
    '範疇一排放量(噸CO2e)': '12345.6000',
    '範疇二排放量(噸CO2e)': '67890.1000',
    範疇二取得驗證: '否',
  },
];

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
/** The first decision is served again as the first record of the second page (the same 裁處書字號): one decision, one counted duplicate. */
export const PENALTIES = Array.from({ length: PENALTY_ROWS }, (_, i) => (i === PAGE ? penalty(0) : penalty(i)));

const registry = [
  // As GHG_P_01 serves it: `tot` is the site total, the gases plus `tot2` (the genuine answer's form).
  {
    app_year: '113',
    companyno: '22099131',
    companyname: '台灣積體電路製造股份有限公司',
    ccksicco1: '2611',
    co2: '1,750,000.0000',
    ch4: '50,000.0000',
    tot2: '10,500,000.0000',
    tot: '12,300,000.0000',
  },
  {
    app_year: '113',
    companyno: '11913502',
    companyname: '臺灣水泥股份有限公司',
    ccksicco1: '2331',
    co2: '6300000',
    ch4: '0',
    tot2: '500000',
    tot: '6800000',
  },
];

const NO_FILE = '00000000-0000-0000-0000-000000000000';
/** A GenPlus record in the new form: every key of sources.md, values as seen (null and '' where empty). */
function genplus(over: Record<string, string | null>): Record<string, string | null> {
  return {
    code: '',
    name: '',
    shortName: '',
    enName: null,
    enShortName: '',
    sector: '',
    reason: '屬自願確信/保證者',
    reportingInterval: '2025/01/01~2025/12/31',
    complianceNotes: 'GRI準則',
    partnerOrganization: '',
    stdCompliance: '',
    accOptionType: '',
    aConfirmTarget: null,
    valiProvider: '',
    thirdStd: '',
    thirdPartyVerify: null,
    twDocLink: '',
    twFirstReportDownloadId: NO_FILE,
    twEditReportDownloadId: NO_FILE,
    twCommencementDate: '2026/08/28',
    twRevisionDate: null,
    enDocLink: null,
    enFirstReportDownloadId: NO_FILE,
    enEditReportDownloadId: NO_FILE,
    enCommencementDate: null,
    enRevisionDate: null,
    contactInfo: null,
    note: null,
    // Keys some answers carry beside the ids (sources.md, "Genuine answers"); their form is not confirmed, so the reader ignores them.
    twFirstReportDownloadUrl: null,
    twEditReportDownloadUrl: null,
    enFirstReportDownloadUrl: null,
    ...over,
  };
}
export const GENPLUS_2330_FILE = '3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b';
/** Report year 2025: 2330 with a CPA's limited assurance and a verifier beside it; 1101 with a verifier alone (ISAE 3000); 6488 (OTC) with a CPA's reasonable assurance. */
const GENPLUS_2025: Record<number, Record<string, string | null>[]> = {
  0: [
    genplus({
      code: '2330',
      name: '台灣積體電路製造股份有限公司',
      shortName: '台積電',
      sector: '半導體業',
      partnerOrganization: '資誠聯合會計師事務所',
      stdCompliance: '確信準則3000號',
      accOptionType: '有限確信',
      valiProvider: '台灣檢驗科技股份有限公司',
      thirdStd: 'AA1000',
      twFirstReportDownloadId: GENPLUS_2330_FILE,
      twFirstReportDownloadUrl: `https://esggenplus.twse.com.tw/api/api/MopsSustainReport/data/FileStream?id=${GENPLUS_2330_FILE}`,
      twEditReportDownloadUrl: '',
      enFirstReportDownloadUrl: '',
    }),
    genplus({
      code: '1101',
      name: '臺灣水泥股份有限公司',
      shortName: '台泥',
      sector: '水泥工業',
      valiProvider: '英國標準協會',
      thirdStd: 'ISAE 3000',
    }),
  ],
  1: [
    genplus({
      code: '6488',
      name: '環球晶圓股份有限公司',
      shortName: '環球晶',
      sector: '半導體業',
      partnerOrganization: '安侯建業聯合會計師事務所',
      stdCompliance: '確信準則3000號',
      accOptionType: '合理確信',
    }),
  ],
};
/** Report year 2024: no reports, served as `data: null` (not `[]`). */
export const GENPLUS_NULL_YEAR = 2024;
/** Report year 2021 (old form): 1101 assured by a CPA. */
const GENPLUS_OLD_2021 = [
  {
    companY_ID: '1101',
    companY_ABBR_NAME: '台泥',
    englisH_ABBR_NAME: 'TCC',
    sub: '依規定申報',
    duratioN_B: '110/01/01',
    duratioN_E: '110/12/31',
    cS_A1: 'GRI準則',
    surE_A: '',
    acC_S: '',
    acC_A: '勤業眾信聯合會計師事務所',
    filE_NAME: '1101_110.pdf',
    useR_DATE1: '111/08/30',
    weB_INFO: null,
    memo: null,
  },
];

/**
 * SITCA's funds in the genuine answer's form: names as SITCA writes them (without 證券投資信託, one with
 * its distribution note after `<br>`), a security marked `*` (台泥*), holdings as 標的種類, 標的代號,
 * 標的名稱, 金額, weight (%).
 */
const sitcaFunds: { name: string; note?: string; holdings: string[][] }[] = [
  {
    name: '元大台灣ESG永續ETF基金',
    note: '(基金之配息來源可能為收益平準金)',
    holdings: [
      ['國內上市', '2330', '台積電', '1,450,950,000', '32.82'],
      ['國內上市', '1101', '台泥*', '16,500,000', '1.25'],
      ['國外', 'US0378331005', 'APPLE INC', '7,000,000', '1.02'],
    ],
  },
  { name: '元大台灣卓越50基金', holdings: [['國內上市', '2330', '台積電', '9,900,000,000', '55.10']] },
  { name: '示範不存在永續ETF證券投資信託基金', holdings: [['國內上市', '2330', '台積電', '1,100,000', '10.00']] },
];
/** The TWSE fund list: the ESG fund, a non-ESG fund, a liquidated one; full names with 證券投資信託 (and 臺) where SITCA writes neither. */
const fundList = [
  ['00850', '元大臺灣ESG永續', '國內成分證券指數股票型基金', '元大臺灣ESG永續ETF證券投資信託基金', '臺灣永續指數'],
  ['0050', '元大台灣50', '國內成分證券指數股票型基金', '元大台灣卓越50證券投資信託基金', '臺灣50指數'],
  ['00692', '富邦公司治理', '國內成分證券指數股票型基金', '富邦臺灣公司治理100證券投資信託基金', '臺灣公司治理100指數'],
].map(([code, short, type, full, index]) => ({
  出表日期: '1150731',
  基金代號: code,
  基金簡稱: short,
  基金類型: type,
  基金中文名稱: full,
  基金英文名稱: 'X',
  '標的指數/追蹤指數名稱': index,
  成立日期: '0920630',
  上市日期: '0920630',
  '發行單位數/轉換數': '1000',
}));

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
export const SITCA_PERIODS = ['202503', '202506', '202509'];

/** SITCA's page: the hidden ASP.NET state (a new value each answer), the selectors, and for a query its table. */
function sitcaPage(state: string, selected: { period: string; klass: string } | null, table: string): string {
  const options = (name: string, values: string[], chosen?: string, label = (v: string) => v) =>
    `<select name="${name}" id="${name.replace(/\$/g, '_')}">${values.map((v) => `<option${v === chosen ? ' selected="selected"' : ''} value="${v}">${label(v)}</option>`).join('')}</select>`;
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>境內基金持股明細</title></head><body><form method="post" action="./IN2630.aspx?pid=IN22601_05" id="form1">
<input type="hidden" name="__EVENTTARGET" id="__EVENTTARGET" value="" /><input type="hidden" name="__EVENTARGUMENT" id="__EVENTARGUMENT" value="" />
<input type="hidden" name="__VIEWSTATE" id="__VIEWSTATE" value="${esc(state)}" /><input type="hidden" name="__VIEWSTATEGENERATOR" id="__VIEWSTATEGENERATOR" value="A1B2C3D4" /><input type="hidden" name="__EVENTVALIDATION" id="__EVENTVALIDATION" value="${esc(`ev-${state}`)}" />
<input type="radio" name="ctl00$ContentPlaceHolder1$rdo1" value="rbComid" />依公司 <input type="radio" name="ctl00$ContentPlaceHolder1$rdo1" value="rbClass"${selected ? ' checked="checked"' : ''} />依類型
${options('ctl00$ContentPlaceHolder1$ddlQ_YM', SITCA_PERIODS, selected?.period, (p) => `${p.slice(0, 4)} 年 ${p.slice(4)} 月`)}
${options('ctl00$ContentPlaceHolder1$ddlQ_Class', ['AH11', 'AL11', 'AA11'], selected?.klass)}
<input type="submit" name="ctl00$ContentPlaceHolder1$BtnQuery" value="查詢" />
${table}</form></body></html>`;
}

/** The genuine table: ten columns, the fund cell spanning its rows, `合計` spanning nine columns before the total. */
function sitcaTable(funds: typeof sitcaFunds): string {
  const rows = funds.flatMap((f) => [
    ...f.holdings.map(([kind, code, name, amount, weight], i) => {
      const fund = i === 0 ? `<td rowspan="${f.holdings.length}">${f.name}${f.note ? `<br>${f.note}` : ''}</td>` : '';
      return `<tr>${fund}${[String(i + 1), kind, code, name, amount, '', '', '0', weight].map((c) => `<td>${c}</td>`).join('')}</tr>`;
    }),
    `<tr><td colspan="9">合計</td><td>${f.holdings.reduce((s, h) => s + Number(h[4]), 0).toFixed(2)}</td></tr>`,
  ]);
  const header = [
    '基金名稱',
    '名次',
    '標的種類',
    '標的代號',
    '標的名稱',
    '金額',
    '擔保機構**',
    '次順位債券**',
    '受益權單位數***',
    '占基金淨資產價值之比例(%)',
  ];
  return `<table id="ctl00_ContentPlaceHolder1_GridView1"><tr>${header.map((h) => `<td>${h}</td>`).join('')}</tr>${rows.join('')}</table>`;
}

/**
 * SITCA's form page: GET gives the form and a session cookie; a POST must carry the session cookie and
 * the hidden state of the answer before it (else the page comes back with no table), and the radio
 * value (else the table is empty). AH11 holds the index ETFs; AL11 (active ETFs) none of ours here.
 */
function sitcaHandler(): Handler {
  let serial = 0;
  let expected = '';
  return (url: URL, req: Received): Reply => {
    const state = `vs-${++serial}`;
    const html = (s: string): Reply => ({
      type: 'text/html; charset=utf-8',
      body: Buffer.from(s),
      headers: { 'set-cookie': `ASP.NET_SessionId=sess${serial}; path=/; HttpOnly` },
    });
    if (url.searchParams.get('pid') !== 'IN22601_05') return { status: 404, type: 'text/html', body: Buffer.from('<html>not found</html>') };
    if (req.method === 'GET') {
      expected = state;
      return html(sitcaPage(state, null, ''));
    }
    const form = new URLSearchParams(req.body);
    const carried =
      form.get('__VIEWSTATE') === expected &&
      form.get('__EVENTVALIDATION') === `ev-${expected}` &&
      /ASP\.NET_SessionId=sess\d+/.test(String(req.headers.cookie ?? ''));
    expected = state;
    if (!carried) return html(sitcaPage(state, null, '<p>查詢逾時，請重新查詢</p>'));
    const period = form.get('ctl00$ContentPlaceHolder1$ddlQ_YM') ?? '';
    const klass = form.get('ctl00$ContentPlaceHolder1$ddlQ_Class') ?? '';
    const byClass = form.get('ctl00$ContentPlaceHolder1$rdo1') === 'rbClass';
    const funds = !byClass ? [] : klass === 'AH11' ? sitcaFunds : [];
    return html(sitcaPage(state, { period, klass }, sitcaTable(funds)));
  };
}

/** Every publisher path's normal answer. MOENV paths check the key (401 without) and page by offset/limit; GenPlus takes POST only. */
export function publisherHandlers(): Record<string, Handler> {
  const moenv =
    (records: Record<string, string>[], wrapped: boolean): Handler =>
    (url) => {
      if (url.searchParams.get('api_key') !== API_KEY)
        return { status: 401, type: 'application/json', body: Buffer.from('{"error":"invalid api_key"}') };
      const offset = Number(url.searchParams.get('offset') ?? 0);
      const limit = Math.min(PAGE, Number(url.searchParams.get('limit') ?? PAGE));
      const page = records.slice(offset, offset + limit);
      return jsonReply(wrapped ? { fields: [{ id: 'ban', type: 'text' }], resource_id: 'x', records: page, total: String(records.length) } : page);
    };
  return {
    [PATHS.twseCompany]: () => jsonReply(twseCompanies),
    [PATHS.tpexCompany]: () => jsonReply([TPEX_COMPANY]),
    [PATHS.twseGhg]: () => jsonReply(twseGhg),
    [PATHS.tpexGhg]: () => jsonReply(tpexGhg),
    [PATHS.penalties]: moenv(PENALTIES, true),
    [PATHS.registry]: moenv(registry, false),
    ...genplusHandlers(),
    [PATHS.sitca]: sitcaHandler(),
    [PATHS.fundList]: () => jsonReply(fundList),
    [PATHS.twseBreaches]: () => jsonReply(twseBreaches),
    [PATHS.tpexBreaches]: () => jsonReply(tpexBreaches),
    [PATHS.twseSanctions]: () => jsonReply(twseSanctions),
    [PATHS.tpexSanctions]: () => jsonReply(tpexSanctions),
  };
}

/**
 * The exchanges' disclosure-conduct datasets in their served form (sources.md, "SRC-TWSE-SANCTIONS and
 * the three sources beside it"): TWSE's Chinese keys, TPEx's `Date`/`SecuritiesCompanyCode`/
 * `CompanyName` beside Chinese ones; ROC compact dates, amounts in NT$10,000, CRLF inside 違規事由,
 * article fields ending in `\n`, a `&#8194;`, and a company with two rows.
 */
const twseBreaches = [
  ['1141113', '2330', '該公司延遲發布重大訊息，已違反前述處理程序之規定，\r\n故處以違約金新臺幣 3 萬元。', '', '4條1項31款\n', '3.0'],
  ['1140520', '2330', '該公司代子公司TSMC&#8194;Arizona取得資產，\r\n延遲發布重大訊息。', '', '4條1項20款\n', '5.0'],
  ['1140103', '1101', '該公司延遲申報\r\n財務報告。', '3條1項\n', '', '1.0'],
].map(([date, code, summary, filing, material, fine]) => ({
  出表日期: '1150731',
  發函日期: date,
  股票代號: code,
  公司名稱: code === '2330' ? '台積電' : '台泥',
  違規事由: summary,
  違反資訊申報作業辦法條款: filing,
  違反重大訊息之查證暨公開處理程序條款: material,
  '裁罰金額(萬)': fine,
}));
const tpexBreaches = [
  {
    Date: '1150731',
    發函日期: '1140915',
    SecuritiesCompanyCode: '6488',
    CompanyName: '環球晶',
    違規事由: '該公司延遲發布\r\n重大訊息。',
    違反資訊申報作業辦法條款: '',
    違反重大訊息之查證暨公開處理程序條款: '4條1項31款\n',
    裁罰金額: '3.0',
  },
];
const twseSanctions = [
  {
    出表日期: '1150731',
    發函日期: '1141030',
    股票代號: '2330',
    公司名稱: '台積電',
    違規事由: '內部人事前申報持股異常案件',
    違反法規: '證券交易法第22條之2',
    裁處情形: '處陳○○罰鍰8萬元',
  },
];
const tpexSanctions = [
  {
    Date: '1150731',
    發函日期: '1140610',
    SecuritiesCompanyCode: '6488',
    CompanyName: '環球晶',
    違規事由: '財務報告\r\n未依規定編製',
    違反法規: '證券交易法第14條',
    裁處情形: '處該公司罰鍰24萬元',
  },
];

/** The antiforgery cookie's name, as ASP.NET Core names it (`.AspNetCore.Antiforgery.` and a suffix). */
export const GENPLUS_COOKIE = '.AspNetCore.Antiforgery.k3Zq9PvL1wE';

/**
 * ESG GenPlus's paths. With `antiforgery` (the default) each GET of the token endpoint issues a new
 * request token in GenPlus's envelope (`data`, as its callers read it) and sets the cookie token it
 * pairs with; a POST must carry both (the `RequestVerificationToken` header and the cookie), else it
 * answers 400 with an empty body, as ASP.NET Core's antiforgery filter does. Without it the token
 * endpoint does not exist (404) and the POSTs are not checked. Each token given out is pushed onto
 * `issued` when given.
 */
export function genplusHandlers(o: { antiforgery?: boolean; issued?: string[] } = {}): Record<string, Handler> {
  const antiforgery = o.antiforgery ?? true;
  const issued = o.issued ?? [];
  const pairs = new Map<string, string>();
  const token: Handler = (_url, req) => {
    if (!antiforgery) return { status: 404, type: 'text/plain', body: Buffer.alloc(0) };
    if (req.method !== 'GET') return { status: 405, type: 'application/json', body: Buffer.from('{"message":"method not allowed"}') };
    const n = issued.length + 1;
    const requestToken = `CfDJ8Replay-request-${n}-${'Qx7_vB2-'.repeat(12)}`;
    const cookieToken = `CfDJ8Replay-cookie-${n}-${'Lm4-kT9_'.repeat(12)}`;
    issued.push(requestToken);
    pairs.set(requestToken, cookieToken);
    const reply = jsonReply({ code: 200, success: true, data: requestToken, message: null });
    return { ...reply, headers: { 'set-cookie': `${GENPLUS_COOKIE}=${cookieToken}; path=/; samesite=strict; httponly` } };
  };
  const api =
    (old: boolean): Handler =>
    (_url, req) => {
      if (req.method !== 'POST')
        return {
          status: 405,
          type: 'application/json',
          body: Buffer.from('{"message":"The requested resource does not support http method \'GET\'."}'),
        };
      if (antiforgery) {
        const sent = String(req.headers.requestverificationtoken ?? '');
        const cookie = String(req.headers.cookie ?? '')
          .split(/;\s*/)
          .find((c) => c.startsWith(`${GENPLUS_COOKIE}=`))
          ?.slice(GENPLUS_COOKIE.length + 1);
        if (!pairs.has(sent) || pairs.get(sent) !== cookie) return { status: 400, type: 'text/plain', body: Buffer.alloc(0) };
      }
      const body = JSON.parse(req.body) as { year: number; marketType: number };
      if (old !== body.year <= 2022) return jsonReply({ code: 400, success: false, data: null, message: 'year out of range' });
      if (!old && body.year === GENPLUS_NULL_YEAR) return jsonReply({ code: 200, success: true, data: null, message: null });
      const data = old
        ? body.year === 2021 && body.marketType === 0
          ? GENPLUS_OLD_2021
          : []
        : body.year === 2025
          ? (GENPLUS_2025[body.marketType] ?? [])
          : [];
      return jsonReply({ code: 200, success: true, data, message: null });
    };
  return { [PATHS.genplusToken]: token, [PATHS.genplus]: api(false), [PATHS.genplusOld]: api(true) };
}

/** SITCA's answer for another period than the one asked (the known fault): a table, but the wrong one. */
export function sitcaWrongPeriod(): Reply {
  return { type: 'text/html; charset=utf-8', body: Buffer.from(sitcaPage('vs-wrong', { period: '202503', klass: 'AH11' }, sitcaTable(sitcaFunds))) };
}

/**
 * 繁體中文 (Traditional Chinese, Taiwan): every string of the pages, the same keys as the English
 * catalogue (`Messages`). Terms follow the publishers' own vocabulary, kept in glossary.ts
 * (`zhTerm`). Texts the API gives only in English (a breakdown's `detail`, a cause's `detail`,
 * the carbon-fee basis, the methodology's paragraphs) are written here from their ids and fields.
 */
import type { Cause } from '../../contract/changes.js';
import { NO_OPEN_DATA_LICENCE } from '../../contract/registry.js';
import { LIMITS, type ScoreComponent } from '../../contract/vocabulary.js';
import type { OperationId } from '../../contract/routes.js';
import { DOMESTIC_EQUITY_FUND_TYPES, ESG_ETF_KEYWORDS } from '../../methodology/esg-etfs.js';
import { REPORT_DUE_BY } from '../../methodology/reporting-year.js';
import {
  ASSURANCE,
  CARBON_FEE_THRESHOLD_TCO2E,
  COMPLIANCE,
  CONSISTENCY,
  DISCLOSURE,
  RECENT_PENALTY_MONTHS,
  REGISTRY_TOLERANCE,
  REPEAT_PENALTY_COUNT,
  REPORT_DEADLINE,
  type FlagId,
} from '../../methodology/rules.js';
import type { ScoreReason } from '../../methodology/score.js';
import type { Messages } from './en.js';
import { zhTerm } from './glossary.js';
import { SOURCE_DESCRIPTIONS_ZH } from './source-descriptions.zh-TW.js';
import { urls } from '../../contract/urls.js';

const n = (x: number) => x.toLocaleString('zh-TW');
const md = (d: { month: number; day: number }) => `${d.month} 月 ${d.day} 日`;
const ASSURED = { limited: zhTerm('limited assurance'), reasonable: zhTerm('reasonable assurance') } as const;

const flag: Record<FlagId, { label: string; raisedWhen: string; sourceOf: string }> = {
  'GF-F01': {
    label: '須繳碳費但無近期排放揭露',
    raisedWhen: `須繳納${zhTerm('carbon fee')}，且沒有${zhTerm('reporting year')}不早於 E(D) 的排放揭露`,
    sourceOf: '碳費事實',
  },
  'GF-P02': {
    label: '多次或情節重大之環保裁處',
    raisedWhen: `近 ${COMPLIANCE.windowMonths} 個月內有 ${REPEAT_PENALTY_COUNT} 件以上${zhTerm('penalty')}，或有一件情節重大`,
    sourceOf: `近 ${COMPLIANCE.windowMonths} 個月內最新的一件${zhTerm('penalty')}`,
  },
  'GF-A01': {
    label: `揭露排放量但未經外部${zhTerm('assurance')}`,
    raisedWhen: `有至少一項數字的排放揭露，而公司沒有任何${zhTerm('assurance')}`,
    sourceOf: '該揭露',
  },
  'GF-P01': {
    label: `近 ${RECENT_PENALTY_MONTHS} 個月內有${zhTerm('environmental penalty')}`,
    raisedWhen: `近 ${RECENT_PENALTY_MONTHS} 個月內有一件${zhTerm('penalty')}`,
    sourceOf: `該件${zhTerm('penalty')}`,
  },
  'GF-D01': { label: '排放揭露已過時', raisedWhen: `有排放揭露，但其${zhTerm('reporting year')}早於 E(D)`, sourceOf: '該揭露' },
  'GF-C01': { label: '受 CBAM 影響但未揭露範疇一', raisedWhen: '受 CBAM 影響，卻沒有範疇一排放數字', sourceOf: '公司基本資料來源' },
  'GF-S01': {
    label: '近 24 個月內曾因資訊揭露違規遭交易所處以違約金',
    raisedWhen: `近 24 個月內有一筆${zhTerm('disclosure breach')}（${zhTerm('exchange penalty')}）（1.2 新增）`,
    sourceOf: '最新的一筆',
  },
  'GF-V01': {
    label: `揭露排放量與政府${zhTerm('GHG registry')}不符`,
    raisedWhen: `揭露的範疇一＋範疇二，與同年度政府${zhTerm('GHG registry')}總量相差超過 ${REGISTRY_TOLERANCE * 100}%`,
    sourceOf: '登錄資料事實',
  },
  'GF-D02': { label: '未揭露範疇三排放', raisedWhen: '有排放揭露，但範疇三為空', sourceOf: '該揭露' },
  'GF-S02': {
    label: '近 24 個月內有金管會對該公司案件的裁罰',
    raisedWhen: `近 24 個月內有一筆${zhTerm('FSC sanction')}（1.2 新增）`,
    sourceOf: '最新的一筆',
  },
};

const component: Record<ScoreComponent, string> = { disclosure: '揭露', assurance: zhTerm('assurance'), compliance: '法遵', consistency: '一致性' };

function reason(r: ScoreReason): string {
  switch (r.component) {
    case 'disclosure':
      if (r.kind === 'none') return '沒有碳排放揭露';
      return [
        `範疇一與範疇二${r.scope12 ? '皆已揭露' : '未皆揭露'}（${r.scope12} 分）`,
        `範疇三${r.scope3 ? '已揭露' : '未揭露'}（${r.scope3} 分）`,
        `${zhTerm('reporting year')} ${r.year} 年，應為 ${r.expected} 年（${r.timely} 分）`,
      ].join('；');
    case 'assurance':
      if (r.kind === 'none') return `沒有${zhTerm('assurance')}`;
      if (r.kind === 'stale') return `${r.year} 年的${ASSURED[r.level]}，早於 ${r.disclosureYear} 年的揭露：減半`;
      return `${ASSURED[r.level]}（${r.year} 年）`;
    case 'compliance':
      if (r.kind === 'clean') return `${r.since} 之後沒有${zhTerm('penalty')}`;
      return `${r.since} 之後有 ${r.count} 件${zhTerm('penalty')}（−${r.countPoints}），${zhTerm('fine')}合計新臺幣 ${n(r.fines)} 元（−${r.tier}）${r.serious ? `，情節重大（−${r.serious}）` : ''}`;
    case 'consistency':
      return {
        cbam_no_scope1: '受 CBAM 影響但沒有範疇一數字',
        not_obligated: `無須繳納${zhTerm('carbon fee')}`,
        obligated_no_disclosure: `須繳納${zhTerm('carbon fee')}，但沒有排放揭露`,
        obligated_verified: `須繳納${zhTerm('carbon fee')}；範疇一與範疇二皆已揭露並經查證`,
        obligated_unverified: `須繳納${zhTerm('carbon fee')}；範疇一與範疇二未皆揭露並經查證`,
      }[r.kind];
  }
}

/** Why a source was carried forward, from the opening words of the fetch's reason (build-scripts/fetch/carry-forward.ts). */
function carriedWhy(reason: string): string {
  if (/^blocked/.test(reason)) return '拒絕了本服務的連線';
  if (/^a not-found page/.test(reason)) return '是一頁「找不到網頁」而非資料';
  if (/^unavailable/.test(reason)) return '在多次重試後仍無法取得';
  return '是空的（兩次揭露期之間常見）';
}

export const zhTW: Messages = {
  languageName: '繁體中文',
  switchLabel: '以繁體中文閱讀本頁',
  site: {
    name: 'ESG 揭露可信度（台灣）',
    brandHtml: 'ESG 揭露可信度 <span>台灣</span>',
    demoPrefix: '［示範］',
    skip: '跳至主要內容',
    demoBanner: '示範資料快照。',
    disclaimer: {
      demo: '示範資料：本資料快照中的所有公司、數字與紀錄皆為虛構，僅用於測試本服務，不描述任何真實公司。',
      production: `彙整自政府、證券交易所與產業公會的公開資料集（每項事實皆註明其來源代碼，見 ${urls.registry}）。資料依現狀提供；引用任何事實前，請先查核原始紀錄。`,
    },
    navLabel: '網站',
    nav: {
      home: '首頁',
      ranking: '排名',
      etf: 'ETF',
      methodology: '評分方法',
      sources: '資料來源',
      downloads: '下載',
      research: '研究者指南',
      docs: 'API 文件',
      keys: 'API 金鑰',
    },
    footerHtml: (id: string, asof: string, version: string) => `資料快照 <code>${id}</code>，資料日期 ${asof}，評分方法 ${version} 版。`,
    footerSources: '資料來源與授權',
    footerApi: 'API',
    footerDownloads: '下載',
  },
  verdict: { credible: '可信', decent: '尚可', questionable: '存疑', poor: '不佳' },
  market: { listed: zhTerm('listed (TWSE)'), otc: zhTerm('OTC (TPEx)') },
  assurance: { none: `無${zhTerm('assurance')}`, limited: ASSURED.limited, reasonable: ASSURED.reasonable },
  assuredLevel: ASSURED,
  assuranceKind: { cpa: `會計師${zhTerm('assurance')}`, third_party: zhTerm('third-party verification') },
  assuranceKindLong: {
    cpa: `會計師事務所依金管會規定出具之${zhTerm('assurance')}`,
    third_party: `僅有查證機構之聲明，無會計師${zhTerm('assurance')}`,
  },
  severity: { critical: '嚴重', warning: '警示', info: '提示' },
  component,
  boundary: { parent: `僅${zhTerm('parent company only')}`, consolidated: zhTerm('consolidated'), other: '依公司所載' },
  frequency: { daily: '每日', weekly: '每週', monthly: '每月', quarterly: '每季', annual: '每年', irregular: '不定期' },
  cause: {
    penalty_new: `新增${zhTerm('penalty')}`,
    penalty_aged_out: `${zhTerm('penalty')}已超出計算期間`,
    disclosure_new: '新增排放揭露',
    disclosure_changed: '排放揭露有所更正',
    assurance_changed: `${zhTerm('assurance')}有所變動`,
    carbon_fee_changed: `${zhTerm('carbon fee')}義務有所變動`,
    conduct_new: '新增資訊揭露違規或金管會裁罰',
    timeliness: '揭露已逾申報期限',
    flag_raised: '新增風險旗標',
    flag_cleared: '風險旗標解除',
    methodology_changed: '評分方法變更',
    company_added: '新納入評分範圍',
    company_removed: '移出評分範圍',
  },
  causeDetail: (c: Cause) => {
    // A flag's cause names its flag id first in the API's detail (`GF-A01 raised: …`): the id, not the words, is read.
    const id = /^(GF-[A-Z0-9]+) /.exec(c.detail)?.[1] as FlagId | undefined;
    if ((c.kind === 'flag_raised' || c.kind === 'flag_cleared') && id && flag[id]) return `${id}：${flag[id].label}`;
    return c.component ? `影響「${component[c.component]}」分項` : '不影響分數';
  },
  flag,
  flagMeaning: (id: FlagId) => `標示條件：${flag[id].raisedWhen}。`,
  reason,
  // The site's figure (`basis_tco2e`) is written in when the basis states one: a manufacturing site over the threshold.
  feeBasisHtml: (fee: { obligated: boolean; year: number | null }, site: { text: string; html: string } | null) =>
    fee.year === null
      ? `本資料快照中沒有此公司在${zhTerm('GHG registry')}的資料。`
      : !fee.obligated
        ? `依 ${fee.year} 年${zhTerm('GHG registry')}，此公司沒有場址達到 ${n(CARBON_FEE_THRESHOLD_TCO2E)} 公噸二氧化碳當量的門檻。`
        : site
          ? `依 ${fee.year} 年${zhTerm('GHG registry')}，此公司有一處製造業場址排放 ${site.html} 公噸二氧化碳當量（直接與能源間接排放），達 ${n(CARBON_FEE_THRESHOLD_TCO2E)} 公噸以上的門檻。`
          : `依 ${fee.year} 年${zhTerm('GHG registry')}，此公司有場址為電力或燃氣供應業。`,
  source: '來源：',
  sourceHtml: (named: string, idLink: string) => `來源：${named}（${idLink}）`,
  breadcrumb: '導覽路徑',
  // The Chinese name alone: the English gloss in parentheses is for English readers.
  dataName: (name: string) => name.replace(/\s*\([^()]*\)\s*$/, ''),
  licenceName: (id: string, name: string) =>
    id === NO_OPEN_DATA_LICENCE ? '無開放資料授權：僅為公開揭露資訊，再利用依發布機關之規定' : name.replace(/\s*\([^()]*\)\s*$/, ''),
  quarter: (period: string) => period.replace(/^(\d{4})Q([1-4])$/, '$1 年第 $2 季'),
  tCO2e: '公噸二氧化碳當量',
  none: '—',
  pack: {
    heading: '證據包',
    introHtml: (max: number) =>
      `需要出示資料來源時，可將最多 ${max} 家公司打包成一個 zip 檔：每家公司的摘要、附來源的事實與歷史紀錄（JSON）、摘要的 CSV、所引用每個來源的登錄項目與檔案檢查碼、評分方法、引用格式及 <code>SHA256SUMS</code>。下載證據包需要開發者或商業方案的 API 金鑰。`,
    tickers: '公司：以空格或逗號分隔的代號',
    key: 'API 金鑰',
    keyNote: '只保存在此分頁的工作階段儲存空間，且只隨證據包請求傳送至本網站。',
    submit: '下載證據包',
    curl: '使用 curl：',
  },
  script: {
    search: {
      empty: '請輸入公司名稱或代號。',
      loading: '正在載入索引…',
      none: '沒有符合的公司。',
      many: '共 {n} 筆符合，以下為前 {limit} 筆：',
      one: '1 筆符合：',
      some: '{n} 筆符合：',
    },
    pack: {
      noneChosen: '尚未選擇公司。',
      chosen: '已選 {n} 家。',
      chosenTooMany: '已選 {n} 家：最多 {max} 家。',
      column: '證據包',
      add: '將 {ticker} 加入證據包',
      chooseOne: '請至少選擇一家公司。',
      tooMany: '一個證據包最多 {max} 家公司，目前已選 {n} 家。',
      noKey: '請輸入 API 金鑰：證據包需要開發者或商業方案的金鑰。',
      preparing: '正在準備證據包…',
      refused: '無法產生證據包（{status} {code}）：{message}',
      failed: '無法產生證據包（{status}）。',
      downloadedOne: '已下載 {name}：1 家公司，{kb} KB。',
      downloaded: '已下載 {name}：{n} 家公司，{kb} KB。',
      network: '無法取得證據包：網路連線失敗。',
    },
    copy: { copy: '複製', copied: '已複製', selected: '已選取：請按 Ctrl+C' },
  },
  pager: { label: '分頁', previous: '← 上一頁', next: '下一頁 →', page: (p: number) => `第 ${p} 頁` },
  ranking: {
    all: '排名',
    rank: '名次',
    code: '代號',
    company: '公司',
    score: '分數',
    verdict: '評等',
    industry: (name: string) => `排名：${name}`,
    market: (text: string) => `排名：${text}`,
    assurance: (text: string) => `排名：${text}`,
    flag: (id: string) => `排名：有 ${id} 旗標的公司`,
    paged: (heading: string, page: number) => `${heading}（第 ${page} 頁）`,
    noMatch: '沒有符合此篩選條件的公司。',
    rangeHtml: (first: string, last: string, total: string) => `共 ${total} 家公司中的第 ${first}–${last} 家，依分數由高至低排列（同分者依代號）。`,
    sameAsJson: '同一份清單的 JSON：',
    caption: (heading: string, first: number, last: number) => `${heading}：第 ${first}–${last} 名`,
  },
  filters: {
    summary: '篩選排名',
    byIndustry: '依產業',
    industry: '產業',
    byMarket: '依市場',
    market: '市場',
    byAssurance: `依${zhTerm('assurance')}等級`,
    assurance: zhTerm('assurance'),
    byFlag: '依風險旗標',
    flag: '風險旗標',
  },
  histogram: {
    summary: (total: string, buckets: string) => `${total} 家公司分數的分布：${buckets}`,
    table: (total: string) => `全部 ${total} 家公司的分數，每 10 分一級（表格）`,
    score: '分數',
    companies: '公司數',
  },
  home: {
    title: '首頁',
    description: '台灣上市櫃公司的 ESG 與碳揭露有多可信？分數、風險旗標與資料來源。',
    heading: '台灣上市櫃公司的 ESG 揭露有多可信？',
    lede: `每家上市與上櫃公司依其碳排放揭露、${zhTerm('sustainability report')}的${zhTerm('assurance')}、${zhTerm('environmental penalty')}，以及其說法與政府紀錄是否一致，評為 0–100 分。每項事實都連結到其來源的政府或證券交易所資料集。`,
    searchHeading: '搜尋公司',
    searchLabel: '公司名稱或代號',
    searchPlaceholder: '例如 台灣水泥 或 1101',
    searchHint: '請輸入公司名稱或代號。未啟用 JavaScript 時，可由下方產業瀏覽。',
    factsHeading: '本資料快照',
    snapshot: zhTerm('snapshot'),
    kind: { demo: '示範', production: '正式' },
    asof: '資料日期',
    methodology: '評分方法',
    companies: '公司數',
    penalties: `${zhTerm('penalty')}紀錄`,
    etfs: 'ETF',
    sources: '資料來源',
    download: '下載整份資料快照',
    downloadFormats: '（CSV、SQLite、Data Package）',
    useApi: '使用 API',
    apiIndex: 'API 索引（JSON）',
    spreadHeading: '分數分布',
    topHeading: '最高分',
    topCaption: '排名前段',
    whole: '完整排名',
    bottomHeading: '最低分',
    bottomCaption: '排名後段',
    browseHeading: '瀏覽所有公司',
    browse: `每個產業、市場、${zhTerm('assurance')}等級與風險旗標都有各自的排名頁。`,
  },
  company: {
    description: (name: string, ticker: string, score: number, verdict: string) =>
      `${name} ${ticker}：${zhTerm('credibility score')} ${score} 分，${verdict}。`,
    feeTag: `須繳${zhTerm('carbon fee')}`,
    cbamTag: '受 CBAM 影響',
    scoreHeading: zhTerm('credibility score'),
    outOf: '/ 100',
    rankHtml: (rank: string, percentile: string) => `在本資料快照中排名第 ${rank}；高於 ${percentile} 的公司。`,
    percentSuffix: '%',
    howComputed: '分數如何計算',
    breakdownSummary: (score: number, parts: string) => `分數 ${score} / 100：${parts}`,
    breakdownPart: (name: string, points: number, max: number) => `${name} ${points} / ${max}`,
    breakdownItemHtml: (points: string, max: string) => `${points} / ${max} 分。`,
    historyHeading: '歷史紀錄',
    firstSnapshot: (ticker: string) => `這是第一個收錄 ${ticker} 的資料快照：其歷史紀錄由此開始。`,
    historyIntro: (shown: number, total: number, from: string) =>
      `${shown === total ? `收錄此公司的全部 ${total} 個` : `收錄此公司的 ${total} 個資料快照中最近 ${shown} 個`}已發布資料快照中的分數，從 ${from} 到本快照。`,
    historyJsonHtml: (href: string) => `完整歷史紀錄的 JSON：<a href="${href}">歷史紀錄</a>，每個資料快照一筆，含分數明細與風險旗標。`,
    flagsHeading: (k: number) => `風險旗標（${k}）`,
    noFlags: `沒有任何${zhTerm('greenwashing')}風險旗標。`,
    penaltiesHeading: (k: number) => `${zhTerm('environmental penalty')}（${k}）`,
    noPenalties: `沒有${zhTerm('penalty')}紀錄。`,
    penaltiesCaption: `${zhTerm('penalty')}紀錄，由新至舊；每筆皆連結至政府原始紀錄`,
    date: '日期',
    agency: '機關',
    fine: zhTerm('fine'),
    what: '事由',
    record: '裁處書字號',
    serious: '情節重大',
    conductHeading: (k: number) => `資訊揭露紀錄（${k}）`,
    noConduct: `沒有${zhTerm('disclosure breach')}或${zhTerm('FSC sanction')}紀錄。`,
    conductCaption: `${zhTerm('exchange penalty')}與${zhTerm('FSC sanction')}紀錄，由新至舊；每筆皆註明其資料集`,
    conductKind: { breach: `${zhTerm('disclosure breach')}（${zhTerm('exchange penalty')}）`, sanction: zhTerm('FSC sanction') },
    conductRule: '違反法規',
    conductFine: '處分內容',
    noRule: '未載明',
    noFine: '無',
    carbonHeading: '碳排放揭露',
    noDisclosure: '沒有排放揭露紀錄。',
    reportingYear: zhTerm('reporting year'),
    scope: (k: 1 | 2 | 3) => ['範疇一', '範疇二', '範疇三'][k - 1]!,
    notDisclosed: '未揭露',
    verified: '（已查證）',
    boundaryNotStated: '未載明（N/A）',
    boundary: zhTerm('boundary'),
    fileDate: '交易所出表日期',
    feeHeading: zhTerm('carbon fee'),
    obligated: `須繳納${zhTerm('carbon fee')}。`,
    notObligated: `無須繳納${zhTerm('carbon fee')}。`,
    thresholdHtml: (t: string) => `門檻：每年 ${t} 公噸二氧化碳當量。`,
    assuranceHeading: `${zhTerm('sustainability report')}的${zhTerm('assurance')}`,
    noAssurance: `沒有經${zhTerm('assurance')}的${zhTerm('sustainability report')}紀錄。`,
    assuredByHtml: (kind: string, provider: string, year: string) => `由 ${provider} 對 ${year} 年${zhTerm('sustainability report')}出具的${kind}。`,
    kind: '類型',
    level: '等級',
    standard: '準則',
    alsoVerified: '另經查證',
    thirdPartyLevel: `（查證聲明視為${zhTerm('limited assurance')}，除非其準則載明高度或${zhTerm('reasonable assurance')}）`,
    noStandard: '申報資料未載明',
    jsonHeading: '資料與引用',
    jsonHtml: (summary: string, canonical: string, history: string) =>
      `同一份事實的 JSON：<a href="${summary}">摘要</a> · <a href="${canonical}">附來源的完整檢視</a> · <a href="${history}">歷史紀錄</a>。`,
    citeAs: '引用格式：',
  },
  history: {
    summary: (k: number, entries: string) =>
      `${k === 1 ? '1 個資料快照' : `${k} 個資料快照（由舊至新）`}的${zhTerm('credibility score')}：${entries}`,
    tableSummary: (k: number, total: number) => `以表格檢視歷史紀錄（${k === total ? `${k} 個資料快照` : `${total} 個資料快照中最近 ${k} 個`}）`,
    caption: '各資料快照的分數、評等與名次，由舊至新',
    snapshot: zhTerm('snapshot'),
    score: '分數',
    verdict: '評等',
    rank: '名次',
    dataAsOf: '資料日期',
  },
  changes: {
    heading: '最近變動',
    first: '這是第一個發布的資料快照：沒有更早的快照可比較。',
    none: (from: string) => `自資料快照 ${from} 以來沒有變動：分數、評等、風險旗標與事實皆相同（只有名次可能隨其他公司變動）。`,
    newHtml: (from: string, ticker: string, scored: string | null) =>
      `資料快照 ${from} 未收錄 ${ticker}，此為新納入${scored === null ? '' : `：目前 ${scored} 分`}。`,
    moveHtml: (from: string, before: string, after: string, delta: string, verdicts: [string, string] | null) =>
      `自資料快照 ${from} 以來：分數 ${before} → ${after}（${delta} 分）${verdicts ? `，評等 ${verdicts[0]} → ${verdicts[1]}` : ''}。`,
    noPoints: '不計分',
    asJsonHtml: (changes: string, from: string | null, ticker: string, page: { href: string; n: number } | null) =>
      `JSON：${from === null ? `<a href="${changes}">變動清單</a>（尚無）` : `<a href="${changes}">自 ${from} 以來的變動</a>`}${page ? `，${ticker} 在<a href="${page.href}">第 ${page.n} 頁</a>` : ''}。`,
  },
  etfList: {
    title: 'ESG ETF',
    intro: '依成分股分數評比的各檔 ETF。JSON：',
    holdings: (k: number) => `（${k} 檔成分股）`,
  },
  etf: {
    holdings: '成分股',
    holdingsListedHtml: (k: string, period: string, asof: string) => `${period} 公布 ${k} 檔（資料日期 ${asof}）`,
    listedWeight: '公布權重合計',
    ofNetAssetsHtml: (w: string) => `占基金淨資產 ${w}`,
    covered: '本資料快照涵蓋',
    average: '涵蓋成分股平均分數',
    lowest: '最低分數',
    assured: `經${zhTerm('assurance')}的成分股`,
    cutOffHtml: (min: string, total: number, listed: string) =>
      `僅公布占淨資產 ${min} 以上的成分股，因此下列${total === 1 ? '' : ' ' + total + ' 檔'}成分股合計占基金的 ${listed}，上方分數只描述這一部分。`,
    everyHolding: (listed: string) => `公布了全部成分股；其權重合計占淨資產 ${listed}。`,
    holdingsFrom: '成分股資料來源：',
    asJson: 'JSON：',
    caption: (period: string) => `${period} 成分股，依公布資料（權重：占淨資產比例）`,
    code: '代號',
    name: '名稱',
    weight: '權重',
    score: '分數',
    verdict: '評等',
    notCovered: '未涵蓋',
    notCompanies: (k: string) => `其中 ${k} 檔成分股不是本資料快照收錄的公司。`,
  },
  sources: {
    description: (sourceId: string): string | undefined => SOURCE_DESCRIPTIONS_ZH[sourceId],
    title: '資料來源',
    intro: '本網站的每項事實都註明出自以下哪個資料集。JSON：',
    government: '政府資料',
    nonGovernment: '非政府資料',
    updated: (f: string) => `${f}更新`,
    owner: '提供機關',
    licence: '授權',
    homepage: '網站',
    records: '本資料快照中的筆數',
    retrieved: '擷取日期',
    publisherDate: '發布者標示日期',
    publisherDateNone: '資料未標示',
    publisherDateOld: (days: number) => `（早於擷取日 ${days} 天：發布者以舊資料作為最新資料提供）`,
    carried: '沿用前次資料',
    carriedText: (attempted: string, reason: string, retrieved: string) =>
      `發布機關最近一次的回應（${attempted} 擷取）${carriedWhy(reason)}，本資料快照沿用 ${retrieved} 擷取的前次資料。`,
  },
  downloads: {
    title: '下載',
    introHtml: (json: string) =>
      `每個資料快照的檔案：每個資料表一個 CSV、一份 Data Package（<code>datapackage.json</code>）、SQLite 資料庫、引用檔、JSON 樹的封存檔及 <code>SHA256SUMS</code>。已發布的資料快照永不變更。JSON：${json}`,
    foldersHtml: (guide: string) =>
      `每個資料快照的資料夾都有自己的頁面，列出其檔案，並可用一行 <code>wget</code> 指令下載整個資料夾。如何驗證檔案、以 <code>sqlite3</code>、Datasette、DuckDB、pandas 或 R 開啟、跨快照追蹤公司並引用分數：請見<a href="${guide}">研究者指南</a>。`,
    snapshot: (id: string) => `資料快照 ${id}`,
    current: '（目前）',
    kind: { demo: '示範（虛構）資料', production: '正式資料' },
    facts: (asof: string, published: string, version: string, companies: string, penalties: string) =>
      `，資料日期 ${asof}，發布於 ${published}，評分方法 ${version} 版：${companies} 家公司，${penalties} 筆${zhTerm('penalty')}。`,
    folder: '資料夾：',
    filesCaption: (id: string) => `資料快照 ${id} 的檔案`,
    file: '檔案',
    type: '類型',
    bytes: '位元組',
    sha256: 'SHA-256',
  },
  folder: {
    title: (id: string) => `資料快照 ${id}：下載資料夾`,
    never: '已發布資料快照的檔案永不變更。',
    fetchHeading: '下載整個資料夾',
    fetchHtml: (id: string) => `第一行指令把下列所有檔案下載到名為 <code>${id}</code> 的資料夾；第二行依 <code>SHA256SUMS</code> 逐一檢查。`,
    guideHtml: (guide: string, downloads: string, json: string) =>
      `各檔案的內容，以及如何以 <code>sqlite3</code>、DuckDB、pandas 或 R 開啟：請見<a href="${guide}">研究者指南</a>。所有資料快照：<a href="${downloads}">下載</a>；JSON：${json}。`,
    filesHeading: '檔案',
  },
  docs: {
    title: 'API 參考文件',
    introHtml: (openapi: string) =>
      `唯讀的 JSON API，對所有人開放（CORS），版本路徑為 <code>/api/v1</code>。機器可讀的描述：${openapi}（OpenAPI 3.1）。每個回應都註明其資料快照與評分方法版本。`,
    opsHeading: '操作與範例',
    operation: (id: string) => {
      const text = OPERATIONS[id as OperationId];
      if (text === undefined) throw new Error(`zh-TW: no summary for operation ${id}`);
      return text;
    },
    copy: '複製',
    refHeading: '互動式參考文件',
    noScriptHtml: (openapi: string) => `互動式參考文件需要 JavaScript；上方清單與 <a href="${openapi}">OpenAPI 文件</a>內容相同。`,
    refNote: '互動式參考文件由第三方元件產生，介面為英文。',
  },
  research: {
    description: '如何列出、下載、驗證、開啟、追蹤與引用資料快照：sqlite3、Datasette、DuckDB、pandas、R。',
  },
  keys: {
    title: 'API 金鑰',
    description: '以電子郵件地址申請開發者或學術 API 金鑰；透過寄來的連結查看用量、更換或撤銷金鑰。',
    introHtml: (docs: string) =>
      `頁面與 API 的 JSON 檔案不需要金鑰。需計算的呼叫（含查詢字串或 POST）在免費方案中依網路位址計次；金鑰可提高上限（<a href="${docs}">API 文件</a>）。請以 <code>X-API-Key</code> 標頭送出。`,
    tiersHeading: '各方案的額度',
    tiersCaption: '各方案的呼叫次數（商業金鑰由營運者核發）',
    tierColumn: '方案',
    bucketNames: {
      'calls/day': '每日呼叫',
      'calls/min': '每分鐘呼叫',
      'batch/day': '每日批次呼叫',
      'csv/day': '每日 CSV 下載',
      'packs/day': '每日證據包',
    },
    unlimited: '不限',
    none: '無',
    tierNames: { free: '免費（無金鑰）', academic: '學術', developer: '開發者', commercial: '商業' },
    askHeading: '申請金鑰',
    askText: '我們會寄一個連結到您的信箱；開啟後金鑰只顯示一次。不需要密碼：電子郵件地址就是您取回金鑰的方式。',
    tierLegend: '方案',
    tierDeveloper: '開發者：確認電子郵件地址後立即核發。',
    tierAcademic: '學術：確認後由營運者審核（會參考您電子郵件地址的網域），核准後我們寄送領取連結。',
    emailLabel: '電子郵件地址',
    useLabel: '用途（一行）',
    ask: '寄送連結給我',
    manageHeading: '您的金鑰：用量、更換、撤銷',
    manageText: '我們會寄一個連結到金鑰登記的電子郵件地址，開啟後可查看用量，並可更換或撤銷金鑰。',
    manage: '寄送管理金鑰的連結',
    limitsText: (perAddress: number, perEmail: number, hours: number) =>
      `每個電子郵件地址每日最多收到 ${perEmail} 封，每個網路位址每日最多寄往 ${perAddress} 個電子郵件地址；每個連結僅能使用一次，效期 ${hours} 小時。`,
    noMailTitle: '金鑰由營運者核發',
    operatorHtml:
      '本伺服器不寄送電子郵件，因此無法在此頁核發金鑰。金鑰由營運者建立：<code>npm run keys -- create --tier developer --owner "you@example.org"</code>，再交給您。請洽本伺服器的營運者。',
    sentTitle: '請查看您的信箱',
    sentTextHtml: (email: string) => `我們已寄送連結至 ${email}。連結僅能使用一次，效期 24 小時。若未收到，請查看垃圾郵件匣。`,
    manageSentTextHtml: (email: string) =>
      `我們正寄信至 ${email}：若此地址持有金鑰，信中附管理連結（僅能使用一次，效期 24 小時）；若無，則說明如何取得金鑰。`,
    limitTitle: '今日請求次數已達上限',
    limitAddress: '此網路位址今日寄往的電子郵件地址數已達上限，請明天再試。',
    limitEmail: '此電子郵件地址今日收到的郵件已達上限，請明天再試。',
    badFormTitle: '請檢查表單',
    badEmail: '這不是我們能寄送的電子郵件地址。',
    badEmailControl: '此電子郵件地址含有控制字元或不可見字元，請重新輸入。',
    formProblem: {
      tooManyFields: '表單欄位數超過我們任何表單所有（最多讀取 1,000 個）：請從頁面送出。',
      tooLarge: '表單大於我們任何表單（最多 4 KB）：請從頁面送出。',
      unreadable: '無法讀取表單：請從頁面送出。',
    },
    crossSiteTitle: '由其他網站送出',
    crossSiteText: '此表單由其他網站送出，我們未做任何處理。若確實要送出，請開啟我們的頁面並從該頁送出。',
    badUse: '請以一行（最多 300 字）說明金鑰的用途。',
    badTier: '請選擇開發者或學術。',
    mailFailedTitle: '無法寄出郵件',
    mailFailed: '我們的郵件伺服器未接受此郵件，請稍後再試。',
    back: '回到金鑰頁面',
    linkInvalidTitle: '此連結已失效',
    linkWhy: { unknown: '我們不認得這個連結。', expired: '連結已過期。', used: '連結已使用過：每個連結僅能使用一次。' },
    askAgain: '請在金鑰頁面重新申請連結。',
    linkTitle: { confirm: '確認您的申請', collect: '領取您的金鑰', manage: '您的金鑰', act: '您的金鑰' },
    linkText: '此連結僅能使用一次。請按下按鈕繼續（僅開啟連結不會有任何動作，因此郵件掃描程式不會用掉它）。',
    linkButton: { confirm: '確認並繼續', collect: '顯示我的金鑰', manage: '顯示我的金鑰', act: '繼續' },
    keyTitle: '您的 API 金鑰',
    keyOnce: '金鑰只在此時顯示：我們只保存其 SHA-256。請妥善保存。',
    keyLabel: '金鑰',
    keyUseHtml: (curl: string) => `使用方式：<code>${curl}</code>`,
    pendingTitle: '申請已確認',
    pendingText: '學術金鑰需由營運者核准。核准後，我們會寄送領取連結給您。',
    manageTitle: '您的金鑰',
    noKeys: '此電子郵件地址沒有有效的金鑰。',
    keyHeading: (id: string, tier: string) => `金鑰 ${id}（${tier}）`,
    createdAt: (date: string) => `核發於 ${date}。`,
    usageCaption: '用量',
    bucket: '額度',
    limit: '上限',
    used: '已用',
    remaining: '剩餘',
    resets: '重設時間',
    unknownUsage: '不明',
    rotate: '更換：產生新金鑰，此金鑰停用',
    revoke: '撤銷此金鑰',
    buttonsExpire: '這些按鈕在 15 分鐘內有效，且僅能按其中一個一次。',
    rotatedTitle: '您的新 API 金鑰',
    rotatedText: (id: string) => `金鑰 ${id} 已撤銷：此後使用它的呼叫都會被拒絕。`,
    revokedTitle: '金鑰已撤銷',
    revokedText: (id: string) => `金鑰 ${id} 已撤銷：此後使用它的呼叫都會被拒絕。`,
    revokeAskTitle: (id: string) => `要撤銷金鑰 ${id} 嗎？`,
    revokeAskText: (id: string, assistants: number) =>
      `按下按鈕後，所有使用金鑰 ${id} 的呼叫都會被拒絕。此動作無法復原：您需要另外申請新金鑰。` +
      (assistants === 0 ? '' : `以此金鑰連結的 ${assistants} 個助理也會中斷連結。`),
    revokeYes: '是，撤銷此金鑰',
    revokeNo: '否，回到我的金鑰',
    keyNotLiveTitle: '此金鑰無效',
    keyNotLive: '它已被撤銷，或並非本伺服器核發。',
    connectedHeading: '以此金鑰連接的 AI 助理',
    connectedSince: (client: string, date: string) => `${client}，自 ${date} 起`,
    disconnect: '中斷連接',
    disconnected: (client: string) => `${client} 已中斷連接：從現在起其權杖一律被拒絕。`,
    noSuchKey: '此電子郵件地址沒有這個編號的有效金鑰。',
    mail: {
      confirm: {
        subject: '請確認您的 API 金鑰申請',
        text: (url: string) =>
          `有人（應該是您）以此電子郵件地址申請了 ESG 揭露可信度服務的 API 金鑰。\n\n請開啟以下連結並按下按鈕以確認（僅能使用一次，效期 24 小時）：\n\n${url}\n\n若不是您本人申請，請忽略此信：不按按鈕就不會有任何動作。\n`,
      },
      collect: {
        subject: '您的學術 API 金鑰已核准',
        text: (url: string) =>
          `營運者已核准您的學術 API 金鑰申請。\n\n請開啟以下連結並按下按鈕查看金鑰（只顯示一次；連結僅能使用一次，效期 7 天）：\n\n${url}\n`,
      },
      manage: {
        subject: '您的 API 金鑰',
        text: (url: string) =>
          `請開啟以下連結並按下按鈕，查看金鑰用量、更換或撤銷金鑰（僅能使用一次，效期 24 小時）：\n\n${url}\n\n若不是您本人申請，請忽略此信。\n`,
      },
      noKeys: {
        subject: '您的 API 金鑰',
        text: (url: string) =>
          `有人（應該是您）索取此電子郵件地址的 API 金鑰管理連結，但此地址沒有任何金鑰。如需金鑰，請至金鑰頁面申請：\n\n${url}\n\n若不是您本人申請，請忽略此信。\n`,
      },
    },
  },
  oauth: {
    signInTitle: '登入以連接 AI 助理',
    signInTextHtml: (client: string, origin: string) =>
      `<strong>${client}</strong> 要求以您的一把 API 金鑰呼叫本服務的 MCP 工具。您同意後，它的呼叫計入該金鑰的配額，連接它的授權碼會送往 <code>${origin}</code>。`,
    signInHow: '請輸入您金鑰所屬的電子郵件地址：我們會寄出一個連結，開啟後可選擇金鑰或拒絕。不需要密碼。',
    emailLabel: '電子郵件地址',
    signIn: '寄送連結給我',
    noKeyHtml: (keys: string) => `還沒有金鑰？請先<a href="${keys}">申請一把</a>，再從 AI 助理重新連接。`,
    sentTitle: '請查看您的信箱',
    sentTextHtml: (email: string, minutes: number) => `我們已寄送連結至 ${email}。請在 ${minutes} 分鐘內開啟並選擇金鑰，AI 助理即完成連接。`,
    consentTitle: '連接 AI 助理',
    consentTextHtml: (client: string, origin: string) =>
      `<strong>${client}</strong> 將以您選擇的金鑰呼叫 MCP 工具：連接它的授權碼會送往 <code>${origin}</code>。若那不是您的 AI 助理執行之處，請拒絕。它的呼叫計入該金鑰的配額。撤銷金鑰（在金鑰頁面）即中斷連接。`,
    loopbackWarningHtml: (client: string, origin: string) =>
      `<strong>請確認這是您本人的操作。</strong>授權碼會送往 <code>${origin}</code>，這是發起登入的那台電腦上的本機位址，不是網站：` +
      `那台電腦上執行的任何程式都可能在此位址等候接收，不論它自稱什麼名稱。請只在您本人剛於該電腦上開始連接 <strong>${client}</strong> 時才繼續。`,
    keyLegend: 'AI 助理可使用的金鑰',
    keyOption: (id: string, tier: string) => `金鑰 ${id}（${tier}）`,
    allow: '允許',
    deny: '拒絕',
    noKeysHtml: (keys: string) => `此地址沒有有效的金鑰。請先<a href="${keys}">申請一把</a>，再從 AI 助理重新連接。`,
    requestGoneTitle: '此登入已失效',
    requestWhy: {
      unknown: '我們不認得這次登入。',
      expired: '等待時間已過：請從 AI 助理重新開始。',
      used: '這次登入已經回覆過了。',
    },
    badEmail: '這不是我們能寄送的電子郵件地址。',
    badRequestTitle: '此登入要求無效',
    badRequest:
      '將您帶到這裡的 AI 助理送出了我們無法回覆的要求，因此沒有任何東西送回給它。請從 AI 助理重新開始；若仍出現此頁，請將下方內容告知其開發者。',
    mail: {
      subject: '將 AI 助理連接到 ESG API',
      text: (url: string, client: string, sentTo: string, minutes: number, loopback: boolean) =>
        `一個自稱「${client}」的應用程式要求使用您在 ESG 揭露可信度服務的一把 API 金鑰。\n\n請開啟以下連結選擇金鑰或拒絕（僅能使用一次，效期 ${minutes} 分鐘）：\n\n${url}\n\n若您同意，連接此應用程式的授權碼會送往 ${sentTo} 。若不是您本人，或那不是您的 AI 助理執行之處，請忽略此信：未經您選擇不會連接任何東西。\n` +
        (loopback
          ? `\n請確認這是您本人的操作：${sentTo} 是發起登入的那台電腦上的本機位址，不是網站。那台電腦上執行的任何程式都可能在此位址等候接收，不論它自稱什麼名稱。請只在您本人剛於該電腦上開始連接此應用程式時才允許。\n`
          : ''),
    },
  },
  notFound: {
    title: '找不到頁面',
    textHtml: (home: string, ranking: string) => `此網址沒有頁面。請<a href="${home}">搜尋公司</a>或瀏覽<a href="${ranking}">排名</a>。`,
  },
  methodology: {
    title: '評分方法',
    heading: (name: string, version: string) => `${name}：評分方法 ${version} 版`,
    scoreName: `ESG 揭露${zhTerm('credibility score')}`,
    intro: '0 到 100 分，為四個分項之和。JSON：',
    deadlineHeading: '申報期限',
    deadline: (e: string) => `${e}。時效分數、GF-F01 與 GF-D01 都以最新${zhTerm('reporting year')}與 E(D) 比較。`,
    componentsHeading: '分項',
    componentHeading: (name: string, max: number) => `${name}（最高 ${max} 分）`,
    verdictsHeading: '評等',
    verdictsCaption: '分數對應的評等',
    from: '自',
    to: '至',
    rankLine: (rank: string, percentile: string) => `名次：${rank}。百分位：${percentile}。`,
    flagsHeading: '風險旗標',
    flagLine: (raisedWhen: string, sourceOf: string) => `標示條件：${raisedWhen}。其來源為${sourceOf}。`,
    flagCompanies: '有此旗標的公司',
    definitionsHeading: '定義',
    feeHeading: zhTerm('carbon fee'),
    etfHeading: '評比哪些 ETF',
    examplesHeading: '本資料快照的計算實例',
    examplesIntro: '每個評等中排名最前的公司，以及其分數如何加總。',
    examplePoints: (score: number) => `：${score} 分，`,
    exampleCaption: (ticker: string) => `${ticker} 各分項分數`,
    component: '分項',
    points: '分數',
    why: '理由',
    total: '合計',
    citeAs: '引用格式：',
    glossaryHeading: '中英用語對照',
    glossaryIntro: '本網站使用的用語，依資料發布機關的用法（英文頁面使用左欄）。',
    glossaryCaption: '用語對照表',
    term: 'English',
    termZh: '中文',
    texts: {
      definitions: () => ({
        D: '資料快照的資料日期（data_asof）',
        E:
          `E(D)，應申報的${zhTerm('reporting year')}：${zhTerm('sustainability report')}及其中的${zhTerm('greenhouse gas (GHG)')}` +
          `數字須於次年 ${md(REPORT_DUE_BY)} 前申報，因此 D 在當年 ${md(REPORT_DEADLINE)}（含）之後時，E(D) 為 D 的前一年，否則為 D 的前兩年；期限未過之前，` +
          `公司不會被視為逾期`,
        last_n_months: `${zhTerm('penalty')}日期落在 (D − N 個月, D] 之間；D − N 個月保留 D 的日，若該月沒有這一天則取該月最後一天`,
        disclosed: '數字不為空值即視為已揭露；一份揭露可能缺少三個數字中的任何一個',
        latest_reporting_year: `公司碳排放揭露的年度（其證券交易所公布的最新年度）`,
        assurance: `公司最近一份經會計師或第三方${zhTerm('assurance')}的${zhTerm('sustainability report')}；等級依意見類型判定`,
        registry_total:
          `政府${zhTerm('GHG registry')}中，公司各登錄場址在揭露年度的直接排放＋能源間接排放合計；完整檢視以 carbon_disclosure.registry 提供（年度、total_tco2e、` +
          `source_id），因此只用 API 即可重算 GF-V01：當 |範疇一 + 範疇二 − 登錄總量| ÷ 登錄總量大於容許差異時標示`,
      }),
      rules: () => ({
        disclosure: [
          `最新${zhTerm('reporting year')}的範疇一與範疇二皆已揭露：${DISCLOSURE.scope12} 分`,
          `範疇三已揭露：${DISCLOSURE.scope3} 分`,
          `時效：最新${zhTerm('reporting year')} ≥ E(D)：${DISCLOSURE.timelyRecent} 分；= E(D) − 1：${DISCLOSURE.timelyTwoYears} 分；更早或沒有：0 分`,
        ],
        assurance: [
          `${zhTerm('reasonable assurance')} ${ASSURANCE.reasonable} 分，${zhTerm('limited assurance')} ${ASSURANCE.limited} 分，無${zhTerm('assurance')} ${ASSURANCE.none} 分`,
          `${zhTerm('assurance')}的年度早於最新揭露年度時減半（無條件捨去）`,
        ],
        compliance: [
          `${COMPLIANCE.max} − ${COMPLIANCE.perPenalty} × 近 ${COMPLIANCE.windowMonths} 個月的${zhTerm('penalty')}件數 − ${zhTerm('fine')}級距扣分 − 其中有情節重大者再扣 ${COMPLIANCE.serious}；最低 0 分`,
          `依這些${zhTerm('fine')}合計的級距扣分：${COMPLIANCE.fineTiers.map((t) => `≥ 新臺幣 ${n(t.atLeast)} 元：${t.points}`).join('，')}；其餘 0`,
        ],
        consistency: [
          '依第一條符合的規則：',
          `(1) 受 CBAM 影響但沒有範疇一數字：${CONSISTENCY.none} 分`,
          `(2) 無須繳納${zhTerm('carbon fee')}：${CONSISTENCY.full} 分`,
          `(3) 須繳納但沒有揭露：${CONSISTENCY.none} 分`,
          `(4) 須繳納，且範疇一與範疇二皆有數字並皆經查證：${CONSISTENCY.full} 分`,
          `(5) 其他：${CONSISTENCY.partial} 分`,
        ],
      }),
      rank: () => '1 為全體資料快照中最佳；同分者名次相同（競賽排名法：1, 2, 2, 4）',
      percentile: () => '100 × 分數嚴格較低的公司數 ÷ 資料快照中的公司數，四捨五入至小數一位',
      feeRule: () =>
        `公司統一編號下的場址，在最新一年的${zhTerm('GHG registry')}中為電力或燃氣供應業（行業別 35），或為製造業（行業別 08–34）且直接排放＋電力間接排放 ≥ ` +
        `${n(CARBON_FEE_THRESHOLD_TCO2E)} 公噸二氧化碳當量時，須繳納${zhTerm('carbon fee')}。GF-V01 容許揭露的範疇一＋範疇二與登錄總量相差 ` +
        `${REGISTRY_TOLERANCE * 100}%。`,
      legalBasis: () => `氣候變遷因應法（2023 年）；${zhTerm('carbon fee')}相關規定自 2025 年 1 月 1 日施行`,
      etfRule: () =>
        `ESG ETF 指國內成分股票型 ETF（臺灣證券交易所基金類型為 ${DOMESTIC_EQUITY_FUND_TYPES.join(' 或 ')}；類型後的括號註記如「(股票)」不計，但註明債券、貨幣、期貨、商品、` +
        `平衡或多重資產者不屬之），且其名稱或追蹤指數（標的指數/追蹤指數名稱）含有 ${ESG_ETF_KEYWORDS.join('、')} 之一（比較前將全形字元轉為半形、臺轉為台）；` +
        `其成分股以投信投顧公會公布者為準（占淨資產 1% 以上）。`,
    },
  },
};

/** Each operation of the route table (src/contract/routes.ts), by its id: a new operation without one is a type error. */
const OPERATIONS: Record<OperationId, string> = {
  index: '本索引：每個端點及可直接執行的範例',
  company: '公司摘要：分數、評等、名次、旗標與分項',
  canonical: '完整檢視：五個附來源的區塊，可只選取其中幾個（即時計算）',
  history: '公司在每個收錄它的已發布資料快照中的紀錄，由新至舊：依 data_asof，再依發布時間（含已刪除的快照）',
  ranking: '市場排名；可用查詢參數篩選與分頁（即時計算）',
  rankingPage: '預設排名的第 N 頁（/ranking?page=N 的靜態別名）',
  compare: `並列比較 ${LIMITS.compareMin}–${LIMITS.compareMax} 家公司的完整檢視（即時計算）`,
  etfList: '涵蓋的 ESG ETF',
  etf: 'ETF 成分股評分',
  registry: '每項事實背後的資料來源；可只列政府來源或依發布機關篩選（即時計算）',
  methodology: '評分方法（資料形式）',
  snapshots: '已發布的資料快照與下載，由新至舊（依 data_asof，再依發布時間）',
  pinned: '固定快照讀取：指定資料快照當時提供的靜態路徑，逐位元組相同（路徑可含斜線；刪除後回應 410）',
  changes: '與前一個資料快照相比的變動，逐一列出原因；可依原因、產業與分數變動幅度篩選（即時計算）',
  changesPage: '變動清單的第 N 頁（/changes?page=N 的靜態別名）',
  feed: 'Atom 1.0 訊息來源：最近 12 個資料快照各一則，含最大的變動與其原因',
  download: '資料快照下載資料夾中的檔案；/snapshots 列出其大小與 SHA-256',
  downloadFolder: '下載資料夾（網址缺少結尾斜線時轉至資料夾頁面）',
  openapi: '本文件',
  batch: `1–${LIMITS.batchMax} 個代號的摘要（即時計算）`,
  packs: `證據包：1–${LIMITS.packMax} 家公司附來源、歷史、評分方法與檢查碼的 zip 檔（即時計算；開發者與商業金鑰）`,
  usage: '你的額度：方案，以及每個額度桶的上限、已用、剩餘與重設時間（本呼叫不計入）',
};

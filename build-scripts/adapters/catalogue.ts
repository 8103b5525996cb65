import type { UpdateFrequency } from '../../src/contract/vocabulary.js';
/**
 * What the project knows about each data source before reading it: owner, licence, cadence,
 * where a person can check a fact. The builder copies this into the snapshot's registry, adding
 * record counts and retrieval times. Record-link templates are expanded when the snapshot is built
 * (no `{…}` marker ever reaches a response).
 */

export interface Licence {
  readonly id: string;
  readonly name: string;
  readonly url: string;
}

/**
 * A URL form that names one record of a source, as the publisher serves it. `confirmed` says when and
 * how the form was checked; a source without one links every fact to its dataset, and its registry
 * description says so instead of pretending.
 */
export interface RecordLink {
  /** `{…}` markers are filled in per fact at build time. */
  readonly template: string;
  /** Only facts of reporting years up to this one have a record at this form. */
  readonly until_year?: number;
  readonly confirmed: string;
  readonly how: string;
}

export interface SourceInfo {
  readonly source_id: string;
  readonly name: string;
  readonly owner_org: string;
  readonly owner_org_name: string;
  readonly is_government: boolean;
  readonly licence: Licence;
  readonly update_frequency: UpdateFrequency;
  /** The dataset: where every fact of a source without a record form links. */
  readonly homepage_url: string;
  readonly description: string;
  readonly record_link: RecordLink | null;
}

export const OGDL_TW: Licence = {
  id: 'OGDL-Taiwan-1.0',
  name: '政府資料開放授權條款－第1版 (Open Government Data License, version 1.0; compatible with CC BY 4.0)',
  url: 'https://data.gov.tw/license',
};

const MOENV = { owner_org: 'MOENV', owner_org_name: '環境部 (Ministry of Environment)', is_government: true } as const;
const TWSE = { owner_org: 'TWSE', owner_org_name: '臺灣證券交易所 (Taiwan Stock Exchange)', is_government: false } as const;
const TPEX = { owner_org: 'TPEX', owner_org_name: '證券櫃檯買賣中心 (Taipei Exchange)', is_government: false } as const;
const MOPS = { owner_org: 'MOPS', owner_org_name: '公開資訊觀測站 (Market Observation Post System, run by TWSE)', is_government: false } as const;

export const SOURCES: readonly SourceInfo[] = [
  {
    source_id: 'SRC-MOENV-EMS_P_46',
    name: '列管事業污染源裁處資料 (environmental penalties on regulated businesses)',
    ...MOENV,
    licence: OGDL_TW,
    update_frequency: 'monthly',
    homepage_url: 'https://data.moenv.gov.tw/dataset/detail/EMS_P_46',
    description: 'Penalty decisions by the Ministry of Environment and local environmental protection bureaus, by business ID (統一編號). Each penalty links to its record in MOENV’s public penalty query (prtr.moenv.gov.tw): the company’s business ID with the penalty date as both bounds.',
    record_link: {
      template: 'https://prtr.moenv.gov.tw/api/v1/Penalty?UniformNo={uniform_no}&StartDate={date}&EndDate={date}&PageNumber=1&PageSize=-1',
      confirmed: '2026-11-23',
      how: 'third-party code calling the query behind prtr.moenv.gov.tw/sanctions.html (records under Result.Data with COUNTY and DOCUMENTNO); see shared/spec/sources.md, record-level links',
    },
  },
  {
    source_id: 'SRC-MOENV-GHG_P_01',
    name: '溫室氣體年排放量 (facility GHG emissions registry)',
    ...MOENV,
    licence: OGDL_TW,
    update_frequency: 'annual',
    homepage_url: 'https://data.moenv.gov.tw/dataset/detail/GHG_P_01',
    description: 'Registered annual direct and energy-indirect emissions per site; the basis of carbon-fee liability (Climate Change Response Act, fee rules from 2025-01-01). No record-level link is known: facts link to the dataset, where the rows are found by business ID (companyno) and year (app_year, ROC).',
    record_link: null,
  },
  {
    source_id: 'SRC-TWSE-ESG-GHG',
    name: '企業ESG資訊揭露彙總資料-溫室氣體排放 (listed companies, t187ap46_L_1)',
    ...TWSE,
    licence: OGDL_TW,
    update_frequency: 'annual',
    homepage_url: 'https://openapi.twse.com.tw/v1/opendata/t187ap46_L_1',
    description: 'Scope 1, 2 and 3 emissions as disclosed by TWSE-listed companies for their latest reporting year. No record-level link is known: facts link to the dataset (one JSON array), where the row is the one with 公司代號 = the ticker.',
    record_link: null,
  },
  {
    source_id: 'SRC-TPEX-ESG-GHG',
    name: '企業ESG資訊揭露彙總資料-溫室氣體排放 (OTC companies, t187ap46_O_1)',
    ...TPEX,
    licence: OGDL_TW,
    update_frequency: 'annual',
    homepage_url: 'https://www.tpex.org.tw/openapi/v1/t187ap46_O_1',
    description: 'Scope 1, 2 and 3 emissions as disclosed by TPEx-listed (OTC) companies for their latest reporting year. No record-level link is known: facts link to the dataset (one JSON array), where the row is the one with 公司代號 = the ticker.',
    record_link: null,
  },
  {
    source_id: 'SRC-MOPS-ESGREPORT',
    name: '永續報告書 (sustainability report filings and assurance)',
    ...MOPS,
    licence: OGDL_TW,
    update_frequency: 'annual',
    homepage_url: 'https://esggenplus.twse.com.tw/inquiry/report',
    description: 'Sustainability report filings with the CPA or third-party body that assured them and the assurance level. A report of 2021 or earlier links to its file on MOPS (ROC year, e.g. year=110); reports filed from 2023 on sit on esggenplus.twse.com.tw, for which no record-level link is known: they link to its report inquiry, searched by company code and year.',
    record_link: {
      template: 'https://mopsov.twse.com.tw/mops/web/ajax_t100sb11?step=2&co_id={ticker}&year={roc_year}&filename={ticker}_{roc_year}.pdf',
      until_year: 2021,
      confirmed: '2026-11-23',
      how: 'third-party code downloading MOPS t100sb11 report files (ROC years); see shared/spec/sources.md, record-level links',
    },
  },
  {
    source_id: 'SRC-TWSE-COMPANY',
    name: '上市公司基本資料 (listed company profiles, t187ap03_L)',
    ...TWSE,
    licence: OGDL_TW,
    update_frequency: 'daily',
    homepage_url: 'https://openapi.twse.com.tw/v1/opendata/t187ap03_L',
    description: 'Names, industry, business ID and capital of TWSE-listed companies. No record-level link is known: the row is the one with 公司代號 = the ticker.',
    record_link: null,
  },
  {
    source_id: 'SRC-TPEX-COMPANY',
    name: '上櫃公司基本資料 (OTC company profiles, mopsfin_t187ap03_O)',
    ...TPEX,
    licence: OGDL_TW,
    update_frequency: 'daily',
    homepage_url: 'https://www.tpex.org.tw/openapi/v1/mopsfin_t187ap03_O',
    description: 'Names, industry, business ID and capital of TPEx-listed (OTC) companies. No record-level link is known: the row is the one with SecuritiesCompanyCode = the ticker.',
    record_link: null,
  },
  {
    source_id: 'SRC-MOPS-ETF-HOLDINGS',
    name: '國內成分股ETF每季持股明細表 (quarterly ETF holdings)',
    ...MOPS,
    licence: OGDL_TW,
    update_frequency: 'quarterly',
    homepage_url: 'https://mops.twse.com.tw/mops/web/t78sb39_new',
    description: 'Quarterly holdings and weights of domestic-constituent ETFs. No record-level link is known: the rows are those with 基金代號 = the fund code.',
    record_link: null,
  },
];

export function sourceInfo(id: string): SourceInfo {
  const s = SOURCES.find((x) => x.source_id === id);
  if (!s) throw new Error(`unknown source id ${id}`);
  return s;
}

/**
 * The link of one fact: its record where the source has a record form that covers it, else the
 * dataset. `{name}` markers are filled from `values`; a marker without a value is a bug, not a
 * silent gap.
 */
export function factLink(sourceId: string, values: Record<string, string | number>): string {
  const { record_link: form, homepage_url } = sourceInfo(sourceId);
  if (!form || (form.until_year !== undefined && Number(values.year) > form.until_year)) return homepage_url;
  return form.template.replace(/\{(\w+)\}/g, (_, key: string) => {
    const v = values[key];
    if (v === undefined) throw new Error(`template ${form.template}: no value for {${key}}`);
    return encodeURIComponent(String(v));
  });
}

import type { UpdateFrequency } from '../../src/contract/vocabulary.js';
/**
 * What the project knows about each data source before reading it: owner, licence, cadence,
 * where a person can check a fact. The builder copies this into the snapshot's registry, adding
 * record counts and retrieval times. Deep-link templates are expanded when the snapshot is built
 * (no `{…}` marker ever reaches a response).
 */

export interface Licence {
  readonly id: string;
  readonly name: string;
  readonly url: string;
}

export interface SourceInfo {
  readonly source_id: string;
  readonly name: string;
  readonly owner_org: string;
  readonly owner_org_name: string;
  readonly is_government: boolean;
  readonly licence: Licence;
  readonly update_frequency: UpdateFrequency;
  readonly homepage_url: string;
  readonly description: string;
  /** Link to one record; `{…}` markers are filled in per fact at build time. */
  readonly record_url_template: string;
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
    description: 'Penalty decisions by the Ministry of Environment and local environmental protection bureaus, by business ID (統一編號).',
    record_url_template: 'https://data.moenv.gov.tw/dataset/detail/EMS_P_46?fac_uniformno={uniform_no}&document_no={record_id}',
  },
  {
    source_id: 'SRC-MOENV-GHG_P_01',
    name: '溫室氣體年排放量 (facility GHG emissions registry)',
    ...MOENV,
    licence: OGDL_TW,
    update_frequency: 'annual',
    homepage_url: 'https://data.moenv.gov.tw/dataset/detail/GHG_P_01',
    description: 'Registered annual direct and energy-indirect emissions per site; the basis of carbon-fee liability (Climate Change Response Act, fee rules from 2025-01-01).',
    record_url_template: 'https://data.moenv.gov.tw/dataset/detail/GHG_P_01?companyno={uniform_no}&app_year={year}',
  },
  {
    source_id: 'SRC-TWSE-ESG-GHG',
    name: '企業ESG資訊揭露彙總資料-溫室氣體排放 (listed companies, t187ap46_L_1)',
    ...TWSE,
    licence: OGDL_TW,
    update_frequency: 'annual',
    homepage_url: 'https://openapi.twse.com.tw/v1/opendata/t187ap46_L_1',
    description: 'Scope 1, 2 and 3 emissions as disclosed by TWSE-listed companies for their latest reporting year.',
    record_url_template: 'https://openapi.twse.com.tw/v1/opendata/t187ap46_L_1#{ticker}',
  },
  {
    source_id: 'SRC-TPEX-ESG-GHG',
    name: '企業ESG資訊揭露彙總資料-溫室氣體排放 (OTC companies, t187ap46_O_1)',
    ...TPEX,
    licence: OGDL_TW,
    update_frequency: 'annual',
    homepage_url: 'https://www.tpex.org.tw/openapi/v1/t187ap46_O_1',
    description: 'Scope 1, 2 and 3 emissions as disclosed by TPEx-listed (OTC) companies for their latest reporting year.',
    record_url_template: 'https://www.tpex.org.tw/openapi/v1/t187ap46_O_1#{ticker}',
  },
  {
    source_id: 'SRC-MOPS-ESGREPORT',
    name: '永續報告書 (sustainability report filings and assurance)',
    ...MOPS,
    licence: OGDL_TW,
    update_frequency: 'annual',
    homepage_url: 'https://mops.twse.com.tw/mops/web/t100sb11',
    description: 'Sustainability report filings with the CPA or third-party body that assured them and the assurance level.',
    record_url_template: 'https://mops.twse.com.tw/mops/web/t100sb11?co_id={ticker}&year={year}',
  },
  {
    source_id: 'SRC-TWSE-COMPANY',
    name: '上市公司基本資料 (listed company profiles, t187ap03_L)',
    ...TWSE,
    licence: OGDL_TW,
    update_frequency: 'daily',
    homepage_url: 'https://openapi.twse.com.tw/v1/opendata/t187ap03_L',
    description: 'Names, industry, business ID and capital of TWSE-listed companies.',
    record_url_template: 'https://openapi.twse.com.tw/v1/opendata/t187ap03_L#{ticker}',
  },
  {
    source_id: 'SRC-TPEX-COMPANY',
    name: '上櫃公司基本資料 (OTC company profiles, mopsfin_t187ap03_O)',
    ...TPEX,
    licence: OGDL_TW,
    update_frequency: 'daily',
    homepage_url: 'https://www.tpex.org.tw/openapi/v1/mopsfin_t187ap03_O',
    description: 'Names, industry, business ID and capital of TPEx-listed (OTC) companies.',
    record_url_template: 'https://www.tpex.org.tw/openapi/v1/mopsfin_t187ap03_O#{ticker}',
  },
  {
    source_id: 'SRC-MOPS-ETF-HOLDINGS',
    name: '國內成分股ETF每季持股明細表 (quarterly ETF holdings)',
    ...MOPS,
    licence: OGDL_TW,
    update_frequency: 'quarterly',
    homepage_url: 'https://mops.twse.com.tw/mops/web/t78sb39_new',
    description: 'Quarterly holdings and weights of domestic-constituent ETFs.',
    record_url_template: 'https://mops.twse.com.tw/mops/web/t78sb39_new?fund={fund_code}',
  },
];

export function sourceInfo(id: string): SourceInfo {
  const s = SOURCES.find((x) => x.source_id === id);
  if (!s) throw new Error(`unknown source id ${id}`);
  return s;
}

/** Fills `{name}` markers; a marker without a value is a bug, not a silent gap. */
export function expandTemplate(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (_, key: string) => {
    const v = values[key];
    if (v === undefined) throw new Error(`template ${template}: no value for {${key}}`);
    return encodeURIComponent(String(v));
  });
}

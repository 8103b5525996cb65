import type { UpdateFrequency } from '../../../src/contract/vocabulary.js';

/**
 * What the registry says of a source before reading it: owner, licence, cadence, where a person can
 * check a fact. The builder copies this into the snapshot's registry, adding record counts,
 * retrieval times and the exact files read. Record-link templates are expanded when the snapshot is
 * built (no `{…}` marker ever reaches a response).
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

export const OWNERS = {
  MOENV: { owner_org: 'MOENV', owner_org_name: '環境部 (Ministry of Environment)', is_government: true },
  TWSE: { owner_org: 'TWSE', owner_org_name: '臺灣證券交易所 (Taiwan Stock Exchange)', is_government: false },
  TPEX: { owner_org: 'TPEX', owner_org_name: '證券櫃檯買賣中心 (Taipei Exchange)', is_government: false },
  MOPS: { owner_org: 'MOPS', owner_org_name: '公開資訊觀測站 (Market Observation Post System, run by TWSE)', is_government: false },
  SITCA: {
    owner_org: 'SITCA',
    owner_org_name: '中華民國證券投資信託暨顧問商業同業公會 (Securities Investment Trust & Consulting Association)',
    is_government: false,
  },
} as const;

import type { FileLayout } from '../../adapters/layouts.js';
import { opt, req } from '../../adapters/layouts.js';
import { profileReader, type ProfileKey } from './company-profile.js';
import { singleFile } from '../kit/files.js';
import { singleGetPlan } from '../kit/single-get.js';
import { OGDL_TW, OWNERS } from '../kit/registry-info.js';
import type { SourceModule } from '../kit/source.js';

/**
 * SRC-TPEX-COMPANY: TPEx OTC-company profiles (mopsfin_t187ap03_O). Unlike TWSE, English keys, read
 * exactly as served, punctuation included (`UnifiedBusinessNo.` ends in a full stop); the Chinese
 * labels are accepted for a CSV copy placed by hand.
 */
const URL = 'https://www.tpex.org.tw/openapi/v1/mopsfin_t187ap03_O';

export const tpexCompanyLayout = {
  file: 'mopsfin_t187ap03_O.json',
  alternatives: ['mopsfin_t187ap03_O.csv'],
  sourceId: 'SRC-TPEX-COMPANY',
  columns: {
    reportDate: opt('Date', '出表日期'),
    ticker: req('SecuritiesCompanyCode', '公司代號'),
    legalName: req('CompanyName', '公司名稱'),
    shortName: req('CompanyAbbreviation', '公司簡稱'),
    industryCode: req('SecuritiesIndustryCode', '產業別'),
    uniformNo: req('UnifiedBusinessNo.', '營利事業統一編號'),
    paidInCapital: opt('Paidin.Capital.NTDollars', '實收資本額'),
    // AD compact (`20260122`): which listing is newer when both exchanges list a company.
    listedOn: opt('DateOfListing', '上櫃日期'),
  },
} as const satisfies FileLayout<ProfileKey>;

export const tpexCompanyModule: SourceModule = {
  info: {
    source_id: 'SRC-TPEX-COMPANY',
    name: '上櫃公司基本資料 (OTC company profiles, mopsfin_t187ap03_O)',
    ...OWNERS.TPEX,
    licence: OGDL_TW,
    update_frequency: 'daily',
    homepage_url: URL,
    description:
      'Names, industry, business ID and capital of TPEx-listed (OTC) companies. No record-level link is known: the row is the one with SecuritiesCompanyCode = the ticker.',
    record_link: null,
  },
  files: singleFile(tpexCompanyLayout),
  read: { kind: 'companies', read: (c) => readTpexCompanies(c.dir, c.rejects, c.tally) },
  plan: singleGetPlan(tpexCompanyLayout.file, URL),
  assertions: { minRecords: 600, maxRecords: 1200, minOfPrevious: 0.9 },
};

export const readTpexCompanies = profileReader(tpexCompanyLayout, 'otc');

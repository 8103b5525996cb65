import type { FileLayout } from '../../adapters/layouts.js';
import { opt, req } from '../../adapters/layouts.js';
import { profileReader, type ProfileKey } from './company-profile.js';
import { singleFile } from '../kit/files.js';
import { singleGetPlan } from '../kit/single-get.js';
import { OGDL_TW, OWNERS } from '../kit/registry-info.js';
import type { SourceModule } from '../kit/source.js';

/** SRC-TWSE-COMPANY: TWSE listed-company profiles (t187ap03_L). The TWSE OpenAPI keys are the Chinese labels. */
const URL = 'https://openapi.twse.com.tw/v1/opendata/t187ap03_L';

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
    // Gregorian compact (`19620209`), unlike 出表日期: which listing is newer when both exchanges list a company.
    listedOn: opt('上市日期'),
  },
} as const satisfies FileLayout<ProfileKey>;

export const twseCompanyModule: SourceModule = {
  info: {
    source_id: 'SRC-TWSE-COMPANY',
    name: '上市公司基本資料 (listed company profiles, t187ap03_L)',
    ...OWNERS.TWSE,
    licence: OGDL_TW,
    update_frequency: 'daily',
    homepage_url: URL,
    description:
      'Names, industry, business ID and capital of TWSE-listed companies. No record-level link is known: the row is the one with 公司代號 = the ticker.',
    record_link: null,
  },
  files: singleFile(twseCompanyLayout),
  read: { kind: 'companies', read: (c) => readTwseCompanies(c.dir, c.rejects, c.tally) },
  plan: singleGetPlan(twseCompanyLayout.file, URL),
  // About 1,000 listed companies; every one must carry its business ID (the penalty and registry join).
  assertions: { minRecords: 800, maxRecords: 1500, minOfPrevious: 0.9 },
};

export const readTwseCompanies = profileReader(twseCompanyLayout, 'listed');

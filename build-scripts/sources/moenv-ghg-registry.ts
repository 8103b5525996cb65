import { z } from 'zod';
import type { FileLayout } from '../adapters/layouts.js';
import { opt, req } from '../adapters/layouts.js';
import { readLayoutFile, type RejectLog } from '../adapters/read-layout.js';
import { amount, text, uniformNo, year } from '../adapters/values.js';
import { filesOf } from './files.js';
import { moenvPageFiles, moenvPlan } from './moenv-v2.js';
import { OGDL_TW, OWNERS } from './registry-info.js';
import type { SourceModule } from './source.js';

/** SRC-MOENV-GHG_P_01: the facility GHG registry (溫室氣體年排放量), MOENV open data v2: API keys, or the Chinese labels some copies use. */
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

export const moenvRegistryModule: SourceModule = {
  info: {
    source_id: 'SRC-MOENV-GHG_P_01',
    name: '溫室氣體年排放量 (facility GHG emissions registry)',
    ...OWNERS.MOENV,
    licence: OGDL_TW,
    update_frequency: 'annual',
    homepage_url: 'https://data.moenv.gov.tw/dataset/detail/GHG_P_01',
    description: 'Registered annual direct and energy-indirect emissions per site; the basis of carbon-fee liability (Climate Change Response Act, fee rules from 2025-01-01). No record-level link is known: facts link to the dataset, where the rows are found by business ID (companyno) and year (app_year, ROC).',
    record_link: null,
  },
  files: { answers: moenvPageFiles('GHG_P_01'), placed: [registryLayout.file, ...registryLayout.alternatives] },
  plan: moenvPlan('GHG_P_01', 'https://data.moenv.gov.tw/api/v2/GHG_P_01'),
  // About 500 liable sites a year, several years served; about 130 listed companies among their owners.
  assertions: { minRecords: 300, maxRecords: 50_000, minOfPrevious: 0.8, minLinkedCompanies: 20 },
};

/** One site's registered emissions for one year. */
export interface RegistrySiteRow {
  year: number;
  uniformNo: string;
  industryCode: string;
  direct: number;
  indirect: number;
}

const schema = z.object({
  year,
  uniformNo,
  industryCode: text.pipe(z.string().regex(/^[A-Z]?\d{2,6}$/, 'not an industry code')),
  direct: amount,
  indirect: amount,
});

/**
 * Every page in order. The registry has no record id (two sites of one company may state the same
 * figures), so no row is taken for a copy of another.
 */
export async function* readRegistry(dir: string, rejects: RejectLog): AsyncGenerator<RegistrySiteRow> {
  for (const file of filesOf(dir, moenvRegistryModule)) {
    for await (const { row } of readLayoutFile(dir, file, registryLayout, schema, rejects)) {
      yield { ...row, industryCode: row.industryCode.replace(/^[A-Z]/, '') };
    }
  }
}

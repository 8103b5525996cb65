import { z } from 'zod';
import type { FileLayout } from '../../adapters/layouts.js';
import { opt, req } from '../../adapters/layouts.js';
import { readLayoutFile, type RejectLog } from '../../adapters/read-layout.js';
import { amount, businessId, optionalAmount, text, year } from '../../adapters/values.js';
import type { RegistrySiteRow } from '../kit/facts.js';
import { filesOf } from '../kit/files.js';
import { moenvDatasetPage, moenvPageFiles, moenvPlan } from './moenv-v2.js';
import { OGDL_TW, OWNERS } from '../kit/registry-info.js';
import type { SourceModule } from '../kit/source.js';
import type { SourceTally } from '../kit/tally.js';

const DATASET = 'GHG_P_01';

/** SRC-MOENV-GHG_P_01: the facility GHG registry (溫室氣體年排放量), MOENV open data v2: API keys, or the Chinese labels some copies use. */
export const registryLayout = {
  file: `${DATASET}.json`,
  alternatives: [`${DATASET}.csv`],
  sourceId: 'SRC-MOENV-GHG_P_01',
  // Copies of 2021 head their columns `App_year`, `CO2`, `Tot2`; lower case from 2022-08 (sources.md).
  caseInsensitive: true,
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
    hfcs: opt('hfcs'),
    pfcs: opt('pfcs'),
    sf6: opt('sf6'),
    nf3: opt('nf3'),
    /** Energy-indirect (scope 2, electricity) emissions of the site, t CO2e. */
    indirect: req('能源間接排放量', 'tot2'),
    /**
     * The site's total, t CO2e: the seven gases (direct) plus `tot2` (energy-indirect), as every one of
     * 3,140 genuine rows shows (shared/spec/sources.md, "Genuine answers"). Direct = total − indirect.
     */
    total: req('合計排放量(公噸CO2e)', 'tot'),
  },
} as const satisfies FileLayout;

export const moenvRegistryModule: SourceModule = {
  info: {
    source_id: 'SRC-MOENV-GHG_P_01',
    name: '溫室氣體年排放量 (facility GHG emissions registry)',
    ...OWNERS.MOENV,
    licence: OGDL_TW,
    update_frequency: 'annual',
    homepage_url: moenvDatasetPage(DATASET),
    description:
      'Registered annual direct and energy-indirect emissions per site; the basis of carbon-fee liability (Climate ' +
      'Change Response Act, fee rules from 2025-01-01). No record-level link is known: facts link to the dataset, ' +
      'where the rows are found by business ID (companyno) and year (app_year, ROC).',
    record_link: null,
  },
  files: { answers: moenvPageFiles(DATASET), placed: [registryLayout.file, ...registryLayout.alternatives] },
  plan: moenvPlan(DATASET),
  read: { kind: 'registry-sites', read: (c) => readRegistry(c.dir, c.rejects, c.tally) },
  // About 500 liable sites a year, several years served; about 130 listed companies among their owners.
  assertions: { minRecords: 300, maxRecords: 50_000, minOfPrevious: 0.8, minLinkedCompanies: 20 },
};

export type { RegistrySiteRow };

export const GASES = ['co2', 'ch4', 'n2o', 'hfcs', 'pfcs', 'sf6', 'nf3'] as const;
/**
 * A gas figure: copies of 2021 and 2022 serve `nf3` as the string `None` where later ones leave it
 * empty (182 rows); both mean none of that gas. `None` is read as 0 here only, so no other amount
 * takes a word for a number; empty stays absent, which the check below also counts as 0.
 */
const gasAmount = z
  .string()
  .transform((s) => (s === 'None' ? '0' : s))
  .pipe(optionalAmount);

/** The publisher rounds each figure (to 0.0001 t, `tot` to 0.001 t): the sum of seven may drift by hundredths. */
const GAS_TOLERANCE = (total: number) => 0.5 + total * 1e-6;

const schema = z
  .object({
    year,
    uniformNo: businessId,
    industryCode: text.pipe(z.string().regex(/^[A-Z]?\d{2,6}$/, 'not an industry code')),
    indirect: amount,
    total: amount,
    ...(Object.fromEntries(GASES.map((g) => [g, gasAmount])) as Record<(typeof GASES)[number], typeof gasAmount>),
  })
  .superRefine((r, ctx) => {
    if (r.total < r.indirect) {
      ctx.addIssue({
        code: 'custom',
        path: ['total'],
        message: `total ${r.total} is below the energy-indirect ${r.indirect}: is tot still the site total (gases + tot2)?`,
      });
      return;
    }
    // Where the gases are served, they must make up the direct part: a publisher that changed what
    // `tot` means fails here, naming the row, instead of publishing doubled or halved totals.
    const gases = GASES.map((g) => r[g]).filter((v): v is number => v !== null);
    if (gases.length === 0) return;
    const direct = gases.reduce((a, b) => a + b, 0);
    if (Math.abs(direct + r.indirect - r.total) > GAS_TOLERANCE(r.total)) {
      ctx.addIssue({
        code: 'custom',
        path: ['total'],
        message: `tot ${r.total} is not the gases (${Math.round(direct * 1000) / 1000}) plus tot2 (${r.indirect}): has the publisher changed what tot means?`,
      });
    }
  });

/**
 * Every page in order. The registry has no record id (two sites of one company may state the same
 * figures), so no row is taken for a copy of another. Business IDs that lost their leading zero are
 * padded back and counted.
 */
export async function* readRegistry(dir: string, rejects: RejectLog, tally: SourceTally): AsyncGenerator<RegistrySiteRow> {
  for (const file of filesOf(dir, moenvRegistryModule)) {
    for await (const { row } of readLayoutFile(dir, file, registryLayout, schema, rejects)) {
      if (row.uniformNo.padded) tally.paddedId(registryLayout.sourceId);
      yield {
        year: row.year,
        uniformNo: row.uniformNo.id,
        industryCode: row.industryCode.replace(/^[A-Z]/, ''),
        direct: row.total - row.indirect,
        indirect: row.indirect,
        total: row.total,
      };
    }
  }
}

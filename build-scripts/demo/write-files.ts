/**
 * Serialises the universe into the publishers' files through each source's demo writer (its
 * `demo-files.ts`, beside the source's reader, so the two read and write one form):
 * - TWSE and TPEx OpenAPI: JSON arrays of objects, every value a string (company lists, GHG
 *   disclosures, disclosure conduct);
 * - MOENV open data v2: a JSON array (penalties) and the `{records: [...]}` answer (registry), paged;
 * - the project-curated CBAM list: plain UTF-8 CSV;
 * - TWSE ESG GenPlus: the sustainability-report answers;
 * - SITCA's holdings pages (HTML) and the TWSE fund list.
 */
import type { Universe } from '../demo-model/model.js';
import { cbamProductsDemo } from '../sources/cbam-products/demo-files.js';
import { tpexCompanyDemo, twseCompanyDemo } from '../sources/company-lists/demo-files.js';
import { tpexBreachDemo, tpexSanctionDemo, twseBreachDemo, twseSanctionDemo } from '../sources/disclosure-conduct/demo-files.js';
import { writeGenplusDemoFiles } from '../sources/esg-reports/demo-files.js';
import { writeSitcaDemoFiles } from '../sources/etfs/demo-files.js';
import { tpexGhgDemo, twseGhgDemo } from '../sources/ghg-disclosures/demo-files.js';
import { writeDemoTable, type DemoTable } from '../sources/kit/demo-tables.js';
import { penaltyDemo, registryDemo } from '../sources/moenv/demo-files.js';

/** Every tabular file of the demo, in the order written. */
const DEMO_TABLES: readonly DemoTable<Universe>[] = [
  twseCompanyDemo,
  tpexCompanyDemo,
  penaltyDemo,
  twseGhgDemo,
  tpexGhgDemo,
  registryDemo,
  cbamProductsDemo,
  twseBreachDemo,
  tpexBreachDemo,
  twseSanctionDemo,
  tpexSanctionDemo,
];

/** Writes every demo file into `dir`; returns data-row counts by file name, in the order written. */
export async function writeLayoutFiles(dir: string, u: Universe): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const t of DEMO_TABLES) Object.assign(counts, await writeDemoTable(dir, u, t));
  Object.assign(counts, await writeGenplusDemoFiles(dir, u));
  Object.assign(counts, await writeSitcaDemoFiles(dir, u));
  return counts;
}

/**
 * Serialises the universe into the publishers' layouts (build-scripts/adapters/layouts.ts), each in
 * the form its publisher serves, every column in layout order:
 * - TWSE and TPEx OpenAPI: JSON arrays of objects, every value a string (one TPEx key carries the
 *   trailing space some real keys have);
 * - MOENV open data v2: a JSON array (penalties) and the `{records: [...]}` answer (registry);
 * - MOPS open data: CSV with a UTF-8 byte-order mark (reports), Big5 as older MOPS downloads (ETF holdings);
 * - the project-curated CBAM list: plain UTF-8 CSV.
 *
 * Header styles: the TPEx company file, the penalty file and the registry use each column's API key
 * (its second label) where it has one; the other files use the Chinese label (the first). A column
 * with a single label is written with that label.
 */
import { join } from 'node:path';
import type { FileLayout } from '../adapters/layouts.js';
import { cbamProductsLayout } from '../sources/cbam-products.js';
import { MOENV_PAGE } from '../sources/moenv/moenv-v2.js';
import { penaltyLayout } from '../sources/moenv/moenv-penalties.js';
import { registryLayout } from '../sources/moenv/moenv-ghg-registry.js';
import { tpexCompanyLayout } from '../sources/company-lists/tpex-company.js';
import { tpexGhgLayout } from '../sources/ghg-disclosures/tpex-esg-ghg.js';
import { twseCompanyLayout } from '../sources/company-lists/twse-company.js';
import { twseGhgLayout } from '../sources/ghg-disclosures/twse-esg-ghg.js';
import { writeGenplusDemoFiles } from './genplus-files.js';
import { writeSitcaDemoFiles } from './sitca-files.js';
import { CsvWriter, JsonRecordsWriter, type FileEncoding, type TableWriter } from './table-writers.js';
import type { Universe } from './model.js';
import { penaltyRows } from './penalty-rows.js';
import { breachRows, cbamRows, companyRows, ghgRows, registryRows, sanctionRows, type RowOf } from './rows.js';
import { tpexBreachLayout } from '../sources/disclosure-conduct/tpex-disclosure-breaches.js';
import { tpexSanctionLayout } from '../sources/disclosure-conduct/tpex-sanctions.js';
import { twseBreachLayout } from '../sources/disclosure-conduct/twse-disclosure-breaches.js';
import { twseSanctionLayout } from '../sources/disclosure-conduct/twse-sanctions.js';

export type HeaderStyle = 'label' | 'key';

/** The header a layout implies in a style. */
function headerFor(layout: FileLayout, style: HeaderStyle): string[] {
  return Object.values(layout.columns).map((c) => {
    const label = style === 'key' && c.labels.length > 1 ? c.labels[1] : c.labels[0];
    if (label === undefined) throw new Error(`layout ${layout.file} has a column without labels`);
    return label;
  });
}

/** How a file is served: JSON (an array, or wrapped in `{records}`; MOENV in pages of 1,000 as a fetch keeps them) or CSV in an encoding. */
export type ServedForm = { kind: 'json'; wrapped?: boolean; pagesOf?: string } | { kind: 'csv'; encoding: FileEncoding };

interface Job<L extends FileLayout> {
  layout: L;
  style: HeaderStyle;
  form: ServedForm;
  rows: (u: Universe) => Iterable<RowOf<L>>;
  /** A header name written with a trailing space, as some real OpenAPI keys are. */
  spacedKey?: string;
}

const job = <L extends FileLayout>(
  layout: L,
  style: HeaderStyle,
  form: ServedForm,
  rows: (u: Universe) => Iterable<RowOf<L>>,
  spacedKey?: string,
): Job<L> => ({ layout, style, form, rows, spacedKey });

const JSON_ARRAY: ServedForm = { kind: 'json' };

/**
 * Every tabular file of the demo, in the order written, with its header style and served form. The
 * reports (GenPlus JSON) and ETF holdings (SITCA HTML and the TWSE fund list) have writers of their
 * own (genplus-files.ts, sitca-files.ts).
 */
export const DEMO_FILES = [
  job(twseCompanyLayout, 'label', JSON_ARRAY, (u) => companyRows(u, 'listed')),
  job(tpexCompanyLayout, 'label', JSON_ARRAY, (u) => companyRows(u, 'otc')),
  job(penaltyLayout, 'key', { kind: 'json', pagesOf: 'EMS_P_46' }, penaltyRows),
  job(twseGhgLayout, 'label', JSON_ARRAY, (u) => ghgRows(u, 'listed')),
  job(tpexGhgLayout, 'label', JSON_ARRAY, (u) => ghgRows(u, 'otc'), '範疇一排放量(噸CO2e)'),
  job(registryLayout, 'key', { kind: 'json', wrapped: true, pagesOf: 'GHG_P_01' }, registryRows),
  job(cbamProductsLayout, 'label', { kind: 'csv', encoding: 'utf8' }, cbamRows),
  // Disclosure conduct: TWSE's Chinese keys, TPEx's `Date`/`SecuritiesCompanyCode`/`CompanyName` beside Chinese ones.
  job(twseBreachLayout, 'label', JSON_ARRAY, (u) => breachRows(u, 'listed')),
  job(tpexBreachLayout, 'key', JSON_ARRAY, (u) => breachRows(u, 'otc')),
  job(twseSanctionLayout, 'label', JSON_ARRAY, (u) => sanctionRows(u, 'listed')),
  job(tpexSanctionLayout, 'key', JSON_ARRAY, (u) => sanctionRows(u, 'otc')),
] as const;

function writerFor(path: string, form: ServedForm): TableWriter {
  return form.kind === 'json' ? new JsonRecordsWriter(path, form.wrapped) : new CsvWriter(path, form.encoding);
}

/** Writes one job's rows; a paged MOENV form rolls over to the next page file every 1,000 rows (a last, short page always exists). */
async function writeOne<L extends FileLayout>(dir: string, u: Universe, j: Job<L>, counts: Record<string, number>): Promise<void> {
  const keys = Object.keys(j.layout.columns) as (keyof L['columns'] & string)[];
  const header = headerFor(j.layout, j.style).map((h) => (h === j.spacedKey ? `${h} ` : h));
  const pagesOf = j.form.kind === 'json' ? j.form.pagesOf : undefined;
  let page = 0;
  let file = '';
  let writer: TableWriter | null = null;
  const open = async () => {
    page++;
    file = pagesOf ? `${pagesOf}.${String(page).padStart(4, '0')}.json` : j.layout.file;
    writer = writerFor(join(dir, file), j.form);
    await writer.write(header);
  };
  const close = async () => {
    await writer!.close();
    counts[file] = writer!.rows;
  };
  await open();
  try {
    for (const row of j.rows(u)) {
      if (pagesOf && writer!.rows === MOENV_PAGE) {
        await close();
        await open();
      }
      await writer!.write(keys.map((k) => row[k]));
    }
    // MOENV's last page is short: a full last page is followed by an empty one, as the fetch stops only on a short page.
    if (pagesOf && writer!.rows === MOENV_PAGE) {
      await close();
      await open();
    }
  } finally {
    await close();
  }
}

/** Writes every demo file into `dir`; returns data-row counts by file name, in the order written. */
export async function writeLayoutFiles(dir: string, u: Universe): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const j of DEMO_FILES) await writeOne(dir, u, j as Job<FileLayout>, counts);
  Object.assign(counts, await writeGenplusDemoFiles(dir, u));
  Object.assign(counts, await writeSitcaDemoFiles(dir, u));
  return counts;
}

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
import {
  cbamProductsLayout,
  esgReportLayout,
  etfHoldingsLayout,
  type FileLayout,
  penaltyLayout,
  registryLayout,
  tpexCompanyLayout,
  tpexGhgLayout,
  twseCompanyLayout,
  twseGhgLayout,
} from '../adapters/layouts.js';
import { CsvWriter, JsonRecordsWriter, type FileEncoding, type TableWriter } from './table-writers.js';
import type { Universe } from './model.js';
import { penaltyRows } from './penalty-rows.js';
import { cbamRows, companyRows, esgReportRows, etfRows, ghgRows, registryRows, type RowOf } from './rows.js';

export type HeaderStyle = 'label' | 'key';

/** The header a layout implies in a style. */
function headerFor(layout: FileLayout, style: HeaderStyle): string[] {
  return Object.values(layout.columns).map((c) => {
    const label = style === 'key' && c.labels.length > 1 ? c.labels[1] : c.labels[0];
    if (label === undefined) throw new Error(`layout ${layout.file} has a column without labels`);
    return label;
  });
}

/** How a file is served: JSON (an array, or wrapped in `{records}`) or CSV in an encoding. */
export type ServedForm = { kind: 'json'; wrapped?: boolean } | { kind: 'csv'; encoding: FileEncoding };

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

/** Every file of the demo, in the order written, with its header style and served form. */
export const DEMO_FILES = [
  job(twseCompanyLayout, 'label', JSON_ARRAY, (u) => companyRows(u, 'listed')),
  job(tpexCompanyLayout, 'key', JSON_ARRAY, (u) => companyRows(u, 'otc')),
  job(penaltyLayout, 'key', JSON_ARRAY, penaltyRows),
  job(twseGhgLayout, 'label', JSON_ARRAY, (u) => ghgRows(u, 'listed')),
  job(tpexGhgLayout, 'label', JSON_ARRAY, (u) => ghgRows(u, 'otc'), '範疇一排放量(噸CO2e)'),
  job(registryLayout, 'key', { kind: 'json', wrapped: true }, registryRows),
  job(esgReportLayout, 'label', { kind: 'csv', encoding: 'utf8-bom' }, esgReportRows),
  job(etfHoldingsLayout, 'label', { kind: 'csv', encoding: 'big5' }, etfRows),
  job(cbamProductsLayout, 'label', { kind: 'csv', encoding: 'utf8' }, cbamRows),
] as const;

function writerFor(path: string, form: ServedForm): TableWriter {
  return form.kind === 'json' ? new JsonRecordsWriter(path, form.wrapped) : new CsvWriter(path, form.encoding);
}

async function writeOne<L extends FileLayout>(dir: string, u: Universe, j: Job<L>): Promise<number> {
  const keys = Object.keys(j.layout.columns) as (keyof L['columns'] & string)[];
  const writer = writerFor(join(dir, j.layout.file), j.form);
  try {
    await writer.write(headerFor(j.layout, j.style).map((h) => (h === j.spacedKey ? `${h} ` : h)));
    for (const row of j.rows(u)) await writer.write(keys.map((k) => row[k]));
  } finally {
    await writer.close();
  }
  return writer.rows;
}

/** Writes every layout file into `dir`; returns data-row counts by file name. */
export async function writeLayoutFiles(dir: string, u: Universe): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const j of DEMO_FILES) counts[j.layout.file] = await writeOne(dir, u, j as Job<FileLayout>);
  return counts;
}

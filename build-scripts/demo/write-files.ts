/**
 * Serialises the universe into the publishers' layouts (build-scripts/adapters/layouts.ts): one
 * CSV per layout, header row then data rows, every column in layout order.
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
import { CsvWriter } from './csv-writer.js';
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

interface Job<L extends FileLayout> {
  layout: L;
  style: HeaderStyle;
  rows: (u: Universe) => Iterable<RowOf<L>>;
}

const job = <L extends FileLayout>(layout: L, style: HeaderStyle, rows: (u: Universe) => Iterable<RowOf<L>>): Job<L> => ({ layout, style, rows });

/** Every file of the demo, in the order written, with its header style. */
export const DEMO_FILES = [
  job(twseCompanyLayout, 'label', (u) => companyRows(u, 'listed')),
  job(tpexCompanyLayout, 'key', (u) => companyRows(u, 'otc')),
  job(penaltyLayout, 'key', penaltyRows),
  job(twseGhgLayout, 'label', (u) => ghgRows(u, 'listed')),
  job(tpexGhgLayout, 'label', (u) => ghgRows(u, 'otc')),
  job(registryLayout, 'key', registryRows),
  job(esgReportLayout, 'label', esgReportRows),
  job(etfHoldingsLayout, 'label', etfRows),
  job(cbamProductsLayout, 'label', cbamRows),
] as const;

async function writeOne<L extends FileLayout>(dir: string, u: Universe, j: Job<L>): Promise<number> {
  const keys = Object.keys(j.layout.columns) as (keyof L['columns'] & string)[];
  const writer = new CsvWriter(join(dir, j.layout.file));
  try {
    await writer.write(headerFor(j.layout, j.style));
    for (const row of j.rows(u)) await writer.write(keys.map((k) => row[k]));
  } finally {
    await writer.close();
  }
  return writer.lines - 1;
}

/** Writes every layout file into `dir`; returns data-row counts by file name. */
export async function writeLayoutFiles(dir: string, u: Universe): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const j of DEMO_FILES) counts[j.layout.file] = await writeOne(dir, u, j as Job<FileLayout>);
  return counts;
}

import { z } from 'zod';
import { CBAM_BY_PRODUCT } from '../../src/methodology/cbam.js';
import { cbamProductsLayout } from './layouts.js';
import { readLayout, type RejectLog } from './read-layout.js';
import { code, requiredText, text } from './values.js';

/** A company whose products (not its industry) put it in a CBAM sector. Optional, project-curated. */
export interface CbamProductRow {
  ticker: string;
  sector: (typeof CBAM_BY_PRODUCT)[number];
  product: string;
}

const schema = z.object({
  ticker: code,
  sector: text.pipe(z.enum(CBAM_BY_PRODUCT)),
  product: requiredText,
});

export async function* readCbamProducts(dir: string, rejects: RejectLog): AsyncGenerator<CbamProductRow> {
  for await (const { row } of readLayout(dir, cbamProductsLayout, schema, rejects, { optional: true })) yield row;
}

import { z } from 'zod';
import { CBAM_BY_PRODUCT } from '../../../src/methodology/cbam.js';
import { req, type FileLayout } from '../../adapters/layouts.js';
import { readLayout, type RejectLog } from '../../adapters/read-layout.js';
import { code, requiredText, text } from '../../adapters/values.js';
import type { CbamProductRow } from '../kit/facts.js';
import type { ReferenceList } from '../kit/source.js';

/**
 * REF-CBAM-PRODUCTS: product-based CBAM exposure that the industry code cannot show (aluminium and
 * fertiliser makers). The project keeps this list; no publisher serves it, so it has no registry
 * entry and no fetch. It is part of the methodology's CBAM mapping (contract 7.4, listed in
 * `/methodology` as `by_product`), and a flag it raises cites the company's profile (contract 7.2,
 * GF-C01). Optional: a folder without it maps CBAM by industry alone.
 */
export const cbamProductsLayout = {
  file: 'cbam_products.csv',
  sourceId: 'REF-CBAM-PRODUCTS',
  columns: {
    ticker: req('公司代號'),
    sector: req('CBAM部門'),
    product: req('產品'),
  },
} as const satisfies FileLayout;

export type { CbamProductRow };

const schema = z.object({
  ticker: code,
  sector: text.pipe(z.enum(CBAM_BY_PRODUCT)),
  product: requiredText,
});

export async function* readCbamProducts(dir: string, rejects: RejectLog): AsyncGenerator<CbamProductRow> {
  for await (const { row } of readLayout(dir, cbamProductsLayout, schema, rejects, { optional: true })) yield row;
}

export const cbamProductsList: ReferenceList = {
  id: cbamProductsLayout.sourceId,
  read: { kind: 'cbam-products', read: (c) => readCbamProducts(c.dir, c.rejects) },
};

/** The demo's CBAM products list, as the project keeps it: plain UTF-8 CSV named by the Chinese labels. */
import type { Company, Universe } from '../../demo-model/model.js';
import { demoTable, type RowOf } from '../kit/demo-tables.js';
import { cbamProductsLayout } from './cbam-products.js';

function* cbamRows(u: Universe): Generator<RowOf<typeof cbamProductsLayout>> {
  for (const c of u.companies as readonly Company[]) {
    if (c.cbam) yield { ticker: c.ticker, sector: c.cbam.sector, product: c.cbam.product };
  }
}

export const cbamProductsDemo = demoTable(cbamProductsLayout, 'label', { kind: 'csv', encoding: 'utf8' }, cbamRows);

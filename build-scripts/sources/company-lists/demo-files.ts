/**
 * The demo's company profiles as the exchanges' OpenAPI serves them (TWSE t187ap03_L, TPEx
 * mopsfin_t187ap03_O): JSON arrays of objects, every value a string, named by the Chinese labels.
 */
import { rocCompact } from '../../demo-model/dates.js';
import type { Market, Universe } from '../../demo-model/model.js';
import { demoTable, JSON_ARRAY, type RowOf } from '../kit/demo-tables.js';
import { tpexCompanyLayout } from './tpex-company.js';
import { twseCompanyLayout } from './twse-company.js';

/** Company profiles of one market (the TWSE and TPEx layouts have the same column keys). */
function* companyRows(u: Universe, market: Market): Generator<RowOf<typeof twseCompanyLayout>> {
  const reportDate = rocCompact(u.asof);
  for (const c of u.companies) {
    if (c.market !== market) continue;
    yield {
      reportDate,
      ticker: c.ticker,
      legalName: c.legalName,
      shortName: c.shortName,
      industryCode: c.industry,
      uniformNo: c.uniformNo,
      paidInCapital: String(c.capital),
      // The demo's companies never moved between the exchanges: no listing date is needed to tell.
      listedOn: '',
    };
  }
}

export const twseCompanyDemo = demoTable(twseCompanyLayout, 'label', JSON_ARRAY, (u: Universe) => companyRows(u, 'listed'));
export const tpexCompanyDemo = demoTable(tpexCompanyLayout, 'label', JSON_ARRAY, (u: Universe) => companyRows(u, 'otc'));

/**
 * The demo's GHG disclosures as the exchanges' OpenAPI serves them (TWSE t187ap46_L_1, TPEx
 * t187ap46_O_1): JSON arrays of objects, every value a string, named by the Chinese labels; one TPEx
 * key carries the trailing space some real keys have.
 */
import { rocCompact, rocYear } from '../../demo-model/dates.js';
import { formatTq4 } from '../../demo-model/format.js';
import type { Market, Universe } from '../../demo-model/model.js';
import { demoTable, JSON_ARRAY, type RowOf } from '../kit/demo-tables.js';
import { tpexGhgLayout } from './tpex-esg-ghg.js';
import { twseGhgLayout } from './twse-esg-ghg.js';

/** 資料邊界 as the exchanges serve it (the two standard texts, and a free text for any other boundary). */
const BOUNDARY = { parent: '已完成母公司', consolidated: '已完成合併財務報表之母子公司', other: '本公司為個別公司' } as const;
/** How the exchanges write a figure they do not have: `N/A`, its boundary `N/A` and its 取得驗證 否. */
const NOT_AVAILABLE = ['N/A', 'N/A', '否'] as const;
const yesNo = (b: boolean) => (b ? '是' : '否');

/** The latest GHG disclosure of each company of one market (TWSE t187ap46_L_1 / TPEx t187ap46_O_1). */
function* ghgRows(u: Universe, market: Market): Generator<RowOf<typeof twseGhgLayout>> {
  const reportDate = rocCompact(u.asof);
  for (const c of u.companies) {
    const d = c.disclosure;
    if (c.market !== market || !d) continue;
    const scope = (v: number | null, verified: boolean) =>
      v === null ? NOT_AVAILABLE : ([formatTq4(v), BOUNDARY[d.boundary], yesNo(verified)] as const);
    const [scope1, scope1Boundary, scope1Verified] = scope(d.scope1, d.s1Verified);
    const [scope2, scope2Boundary, scope2Verified] = scope(d.scope2, d.s2Verified);
    const [scope3, scope3Boundary, scope3Verified] = scope(d.scope3, d.s3Verified);
    yield {
      reportDate,
      reportYear: String(rocYear(d.year)),
      ticker: c.ticker,
      companyName: c.shortName,
      scope1,
      scope1Boundary,
      scope1Verified,
      scope2,
      scope2Boundary,
      scope2Verified,
      scope3,
      scope3Boundary,
      scope3Verified,
      intensity: d.intensity === null ? 'N/A' : formatTq4(d.intensity),
    };
  }
}

export const twseGhgDemo = demoTable(twseGhgLayout, 'label', JSON_ARRAY, (u: Universe) => ghgRows(u, 'listed'));
export const tpexGhgDemo = demoTable(tpexGhgLayout, 'label', JSON_ARRAY, (u: Universe) => ghgRows(u, 'otc'), '範疇一排放量(噸CO2e)');

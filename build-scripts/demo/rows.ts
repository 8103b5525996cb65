/**
 * Rows of the tabular publisher files except penalties (penalty-rows.ts), keyed by the layout's column
 * keys so the compiler checks that each row fills every column of its layout.
 */
import type { FileLayout } from '../adapters/layouts.js';
import type { cbamProductsLayout } from '../sources/cbam-products.js';
import type { registryLayout } from '../sources/moenv/moenv-ghg-registry.js';
import type { twseCompanyLayout } from '../sources/company-lists/twse-company.js';
import type { twseGhgLayout } from '../sources/ghg-disclosures/twse-esg-ghg.js';
import type { twseBreachLayout } from '../sources/disclosure-conduct/twse-disclosure-breaches.js';
import type { twseSanctionLayout } from '../sources/disclosure-conduct/twse-sanctions.js';
import { rocCompact, rocYear } from './dates.js';
import { formatTq, formatTq4 } from './format.js';
import { sicName } from './industries.js';
import type { Company, DemoConduct, Market, Universe } from './model.js';
import { COUNTIES } from './names.js';

export type RowOf<L extends FileLayout> = Record<keyof L['columns'] & string, string>;

/** Company profiles of one market (the TWSE and TPEx layouts have the same column keys). */
export function* companyRows(u: Universe, market: Market): Generator<RowOf<typeof twseCompanyLayout>> {
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

/** 資料邊界 as the exchanges serve it (the two standard texts, and a free text for any other boundary). */
const BOUNDARY = { parent: '已完成母公司', consolidated: '已完成合併財務報表之母子公司', other: '本公司為個別公司' } as const;
/** How the exchanges write a figure they do not have: `N/A`, its boundary `N/A` and its 取得驗證 否. */
const NOT_AVAILABLE = ['N/A', 'N/A', '否'] as const;
const yesNo = (b: boolean) => (b ? '是' : '否');

/** The latest GHG disclosure of each company of one market (TWSE t187ap46_L_1 / TPEx t187ap46_O_1). */
export function* ghgRows(u: Universe, market: Market): Generator<RowOf<typeof twseGhgLayout>> {
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

const LIABLE_TQ = 25_000 * 10_000;

/** Registry sites for year(D) − 2 then year(D) − 1: companies first, then outside businesses. */
export function* registryRows(u: Universe): Generator<RowOf<typeof registryLayout>> {
  for (const year of [u.year - 2, u.year - 1]) {
    for (const list of [u.companies, u.others] as const) {
      for (const b of list) {
        for (const s of b.sites) {
          const y = s.years.find((v) => v.year === year);
          if (!y) continue;
          const total = y.direct + y.indirect;
          const co2 = Math.round(y.direct * 0.97);
          const ch4 = Math.round(y.direct * 0.02);
          yield {
            year: String(rocYear(year)),
            uniformNo: b.uniformNo,
            companyName: b.legalName,
            city: COUNTIES[s.county]?.name ?? '',
            town: s.town,
            industryName: sicName(s.code),
            industryCode: s.code,
            cause: s.code.startsWith('35') ? '電力或燃氣供應業' : total >= LIABLE_TQ ? '年排放量達2.5萬公噸CO2e以上' : '其他指定應盤查登錄排放源',
            co2: formatTq(co2),
            ch4: formatTq(ch4),
            n2o: formatTq(Math.max(0, y.direct - co2 - ch4)),
            hfcs: '0',
            pfcs: '0',
            sf6: '0',
            nf3: '0',
            // As MOENV serves it: tot is the site total, the gases (direct) plus tot2 (energy-indirect).
            indirect: formatTq(y.indirect),
            total: formatTq(total),
          };
        }
      }
    }
  }
}

export function* cbamRows(u: Universe): Generator<RowOf<typeof cbamProductsLayout>> {
  for (const c of u.companies as readonly Company[]) {
    if (c.cbam) yield { ticker: c.ticker, sector: c.cbam.sector, product: c.cbam.product };
  }
}

/**
 * Each company's disclosure conduct of one kind and market (TWSE t187ap23_L / t187ap22_L, TPEx
 * mopsfin_t187ap23_O / mopsfin_t187ap22_O), in the exchanges' genuine form: 發函日期 ROC compact, the
 * text hard-wrapped with CRLF every 40 characters, the article ending in a line break, a breach's
 * fine in units of NT$10,000 with one decimal (`3.0`), the other article field empty.
 */
export const breachRows = (u: Universe, market: Market): Generator<RowOf<typeof twseBreachLayout>> =>
  conductRows(u, market, 'breach', (x) => ({
    filingArticle: '',
    materialArticle: `${x.article}\n`,
    fine: ((x.fine ?? 0) / 10_000).toFixed(1),
  }));

export const sanctionRows = (u: Universe, market: Market): Generator<RowOf<typeof twseSanctionLayout>> =>
  conductRows(u, market, 'sanction', (x) => ({ rule: x.article, decision: x.decision ?? '' }));

/** The columns both forms share (date, company, text), and what one kind adds. */
function* conductRows<T extends object>(
  u: Universe,
  market: Market,
  kind: DemoConduct['kind'],
  own: (x: DemoConduct) => T,
): Generator<T & Record<'reportDate' | 'date' | 'ticker' | 'companyName' | 'summary', string>> {
  const reportDate = rocCompact(u.asof);
  for (const c of u.companies) {
    if (c.market !== market) continue;
    for (const x of c.conduct) {
      if (x.kind !== kind) continue;
      yield { reportDate, date: rocCompact(x.day), ticker: c.ticker, companyName: c.shortName, summary: hardWrapped(x.summary), ...own(x) };
    }
  }
}

/** A text as the exchanges serve it: a CRLF every 40 characters (the reader joins the lines with one space). */
const hardWrapped = (text: string) => text.match(/.{1,40}/gu)!.join('\r\n');

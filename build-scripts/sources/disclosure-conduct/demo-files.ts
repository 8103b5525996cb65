/**
 * The demo's disclosure conduct as the exchanges' OpenAPI serves it: JSON arrays of objects, every
 * value a string; TWSE's files named by the Chinese labels, TPEx's by the keys (`Date`,
 * `SecuritiesCompanyCode`, `CompanyName` beside Chinese ones).
 */
import { rocCompact } from '../../demo-model/dates.js';
import type { DemoConduct, Market, Universe } from '../../demo-model/model.js';
import { demoTable, JSON_ARRAY, type RowOf } from '../kit/demo-tables.js';
import { tpexBreachLayout } from './tpex-disclosure-breaches.js';
import { tpexSanctionLayout } from './tpex-sanctions.js';
import { twseBreachLayout } from './twse-disclosure-breaches.js';
import { twseSanctionLayout } from './twse-sanctions.js';

/**
 * Each company's disclosure conduct of one kind and market (TWSE t187ap23_L / t187ap22_L, TPEx
 * mopsfin_t187ap23_O / mopsfin_t187ap22_O), in the exchanges' genuine form: 發函日期 ROC compact, the
 * text hard-wrapped with CRLF every 40 characters, the article ending in a line break, a breach's
 * fine in units of NT$10,000 with one decimal (`3.0`), the other article field empty.
 */
const breachRows = (u: Universe, market: Market): Generator<RowOf<typeof twseBreachLayout>> =>
  conductRows(u, market, 'breach', (x) => ({
    filingArticle: '',
    materialArticle: `${x.article}\n`,
    fine: ((x.fine ?? 0) / 10_000).toFixed(1),
  }));

const sanctionRows = (u: Universe, market: Market): Generator<RowOf<typeof twseSanctionLayout>> =>
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

export const twseBreachDemo = demoTable(twseBreachLayout, 'label', JSON_ARRAY, (u: Universe) => breachRows(u, 'listed'));
export const tpexBreachDemo = demoTable(tpexBreachLayout, 'key', JSON_ARRAY, (u: Universe) => breachRows(u, 'otc'));
export const twseSanctionDemo = demoTable(twseSanctionLayout, 'label', JSON_ARRAY, (u: Universe) => sanctionRows(u, 'listed'));
export const tpexSanctionDemo = demoTable(tpexSanctionLayout, 'key', JSON_ARRAY, (u: Universe) => sanctionRows(u, 'otc'));

import { comparableText, DOMESTIC_EQUITY_FUND_TYPES, isDomesticEquityEtf, isEsgEtf } from '../../../src/methodology/esg-etfs.js';
import type { EtfFund } from '../kit/facts.js';
import { SITCA_SOURCE_ID, withoutFundNote, type SitcaTableFund } from './sitca-table.js';
import type { FundListRow } from './twse-etf-list.js';

/**
 * SITCA's holdings name funds by their full name; the TWSE fund list gives each full name its code.
 * The join is exact on the normalised name (normaliseFundName): a fund whose name matches no code, or
 * several, is reported by name and left out, never guessed. Then only ESG ETFs by the published rule
 * (src/methodology/esg-etfs.ts) are kept.
 */

/**
 * A fund name as compared: as the ESG rule compares text (comparableText: NFKC, so full-width letters,
 * digits and punctuation half-width and compatibility ideographs unified; 臺 as 台), a trailing note
 * such as `(基金之配息來源可能為收益平準金)` dropped, `證券投資信託` and every space (ideographic too)
 * removed. SITCA's genuine answers name `元大台灣高股息基金` what the TWSE list calls
 * `元大台灣高股息證券投資信託基金`.
 */
export function normaliseFundName(name: string): string {
  return withoutFundNote(comparableText(name))
    .replace(/[\s\u00a0\u3000]+/g, '')
    .replace(/證券投資信託/g, '');
}

/**
 * The fund list's types no longer fit the ESG rule: funds have an ESG word, none a domestic equity
 * type (the publisher renamed 基金類型?). The build fails rather than publish no ESG ETF.
 */
export class EtfFundTypeError extends Error {
  override name = 'EtfFundTypeError';
}

/** The rule's first half: an ESG word in the fund's full name, its short name (if any) or its tracked index. */
export function hasEsgWord(row: Pick<FundListRow, 'fullName' | 'shortName' | 'index'>): boolean {
  return isEsgEtf(row.fullName, row.index) || isEsgEtf(row.shortName, row.index);
}

/**
 * The published ESG ETF rule (src/methodology/esg-etfs.ts) on one fund of the list: an ESG word and a
 * domestic-constituent equity type. The build's one test of it (joinFunds).
 */
export function isEsgFund(row: Pick<FundListRow, 'fullName' | 'shortName' | 'index' | 'fundType'>): boolean {
  return hasEsgWord(row) && isDomesticEquityEtf(row.fundType);
}

/** `2025Q3` of a period `202509`. */
export function quarterOf(period: string): { year: number; quarter: number } {
  const m = /^(\d{4})(\d{2})$/.exec(period);
  const month = m ? Number(m[2]) : 0;
  if (!m || month < 1 || month > 12) throw new RangeError(`not a YYYYMM period: ${JSON.stringify(period)}`);
  return { year: Number(m[1]), quarter: Math.ceil(month / 3) };
}

/** The last day of a quarter, YYYY-MM-DD. */
export function quarterEnd(year: number, quarter: number): string {
  const month = quarter * 3;
  const day = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** A fund as SITCA's answer names it, with its quarter (sitca-etf-holdings.ts, `SitcaFund`). */
type SitcaPeriodFund = SitcaTableFund & { period: string };

export interface JoinedFunds {
  /** The ESG ETFs, in SITCA's order, each with its code. */
  funds: EtfFund[];
  /** SITCA fund names that match no code of the list. */
  unmatched: string[];
  /** SITCA fund names that match several codes (or share their one code with another SITCA fund). */
  ambiguous: string[];
}

/** SITCA lists holdings of 1 % of net assets or more. */
export const SITCA_MIN_WEIGHT = 0.01;

/**
 * Gives each SITCA fund its code from the fund list and keeps the ESG ETFs. Only funds in SITCA's
 * answer come out (the list keeps liquidated funds); a fund that is not an ESG ETF is left out
 * without a report (the caller counts them). Throws EtfFundTypeError when funds have an ESG word but
 * none a domestic equity type: the rule no longer fits the list, and no ESG ETF would come out.
 */
export function joinFunds(sitcaFunds: readonly SitcaPeriodFund[], fundList: readonly FundListRow[]): JoinedFunds {
  const byName = new Map<string, FundListRow[]>();
  for (const row of fundList) {
    const key = normaliseFundName(row.fullName);
    const rows = byName.get(key) ?? [];
    if (!rows.some((r) => r.code === row.code)) rows.push(row);
    byName.set(key, rows);
  }
  const unmatched: string[] = [];
  const ambiguous: string[] = [];
  const matched: { fund: SitcaPeriodFund; row: FundListRow }[] = [];
  for (const fund of sitcaFunds) {
    const rows = byName.get(normaliseFundName(fund.name)) ?? [];
    if (rows.length === 0) unmatched.push(fund.name);
    else if (rows.length > 1) ambiguous.push(fund.name);
    else matched.push({ fund, row: rows[0]! });
  }
  // Two SITCA funds on one code (names that differ only in what normalising removes): neither is guessed.
  const perCode = new Map<string, number>();
  for (const m of matched) perCode.set(m.row.code, (perCode.get(m.row.code) ?? 0) + 1);
  const funds: EtfFund[] = [];
  const esgByWord: FundListRow[] = [];
  for (const { fund, row } of matched) {
    if ((perCode.get(row.code) ?? 0) > 1) {
      ambiguous.push(fund.name);
      continue;
    }
    if (!hasEsgWord(row)) continue;
    esgByWord.push(row);
    if (!isEsgFund(row)) continue;
    const { year, quarter } = quarterOf(fund.period);
    funds.push({
      code: row.code,
      name: row.shortName || fund.name,
      period: `${year}Q${quarter}`,
      asof: quarterEnd(year, quarter),
      minWeight: SITCA_MIN_WEIGHT,
      sourceId: SITCA_SOURCE_ID,
      holdings: fund.holdings.map((h) => ({ code: h.code.toUpperCase(), name: h.name, weight: h.weight })),
    });
  }
  if (funds.length === 0 && esgByWord.length > 0) throw typeRuleError(esgByWord);
  return { funds, unmatched, ambiguous };
}

function typeRuleError(rows: readonly FundListRow[]): EtfFundTypeError {
  const seen = new Map<string, number>();
  for (const r of rows) seen.set(r.fundType, (seen.get(r.fundType) ?? 0) + 1);
  const types = [...seen].map(([t, n]) => `${JSON.stringify(t)} (${n})`).join(', ');
  return new EtfFundTypeError(
    `SRC-TWSE-ETF-LIST: ${rows.length} funds of SITCA's answer have an ESG word in their name or index, but none ` +
      `has a domestic equity fund type (基金類型 ${DOMESTIC_EQUITY_FUND_TYPES.join(' or ')}); their types: ${types}. Did ` +
      `the list rename its fund types? The ESG rule is in src/methodology/esg-etfs.ts.`,
  );
}

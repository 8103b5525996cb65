/**
 * Which ETFs are ESG ETFs (shared/spec/sources.md, "ETF holdings"): a published rule, so a reader of
 * /methodology can check every fund the API rates. The rule reads the TWSE fund list (t187ap47_L, in
 * either of the schemas it is served in): the fund's type (基金類型), its names (基金中文名稱 or
 * 基金名稱, and 基金簡稱 where the list has it) and the index it tracks (標的指數/追蹤指數名稱 or
 * 標的指數|追蹤指數名稱, `不適用` for an active fund). The build applies it through isEsgFund
 * (build-scripts/sources/etfs/etf-funds.ts), the one place that combines the two tests below.
 */

/** The words that make a fund an ESG fund when its name or tracked index contains one (ESG in any letter case). */
export const ESG_ETF_KEYWORDS = ['ESG', '永續', '公司治理', '低碳', '氣候', '淨零', '碳', '綠能', '環境'] as const;

/**
 * The TWSE fund types (基金類型, as t187ap47_L writes them) of domestic-constituent equity ETFs: index
 * and active. Compared by fundTypeBase: `國內成分證券指數股票型基金(股票)` counts as the first.
 */
export const DOMESTIC_EQUITY_FUND_TYPES = ['國內成分證券指數股票型基金', '國內成分證券主動式交易所交易基金(股票)'] as const;

export const ESG_ETF_RULE =
  `An ESG ETF is a domestic-constituent equity ETF (TWSE fund type ${DOMESTIC_EQUITY_FUND_TYPES.join(' or ')}, ` +
  'a parenthesised suffix such as (股票) ignored unless it names bonds, money market, futures, commodities or several asset classes) ' +
  `whose name or tracked index (標的指數/追蹤指數名稱, or 標的指數|追蹤指數名稱 in the list's older schema) contains ${ESG_ETF_KEYWORDS.slice(0, -1).join(', ')} or ${ESG_ETF_KEYWORDS[ESG_ETF_KEYWORDS.length - 1]}, ` +
  'compared after decoding HTML character references and Unicode NFKC normalisation (full-width letters and digits half-width), ' +
  'with 臺 as 台 and spaces ignored; its holdings are those SITCA publishes (1 % of net assets or more).';

/**
 * A text as the rule compares it: NFKC, so full-width letters, digits and punctuation are half-width,
 * the ideographic space a space and a compatibility ideograph its unified form (the genuine list
 * names a fund `…基&#63754;`, U+F90A, where SITCA writes 金); then 臺 as 台. The fund-name join
 * (normaliseFundName) starts from the same form.
 */
export function comparableText(s: string): string {
  return s.normalize('NFKC').replace(/臺/g, '台');
}

const comparable = (s: string) => comparableText(s).replace(/\s+/g, '');

/** True when the fund's name or its tracked index contains one of ESG_ETF_KEYWORDS. */
export function isEsgEtf(name: string, index: string): boolean {
  const texts = [comparable(name), comparable(index)];
  return ESG_ETF_KEYWORDS.some((k) => texts.some((t) => (k === 'ESG' ? t.toUpperCase().includes(k) : t.includes(k))));
}

/** A trailing parenthesis, half- or full-width once comparable. */
const SUFFIX = /\(([^()]*)\)$/;
/** A suffix naming an asset class other than equity: the fund is not an equity ETF whatever its base type. */
const NOT_EQUITY = /債|貨幣|期貨|多重資產|平衡|商品/;

/**
 * A fund type as compared: comparable (half-width, 臺 as 台, no spaces) and without its trailing
 * parenthesised suffixes, so `國內成分證券指數股票型基金(股票)` is `國內成分證券指數股票型基金`; null when a
 * suffix names another asset class (`(債券)`).
 */
export function fundTypeBase(fundType: string): string | null {
  let t = comparable(fundType);
  for (let m = SUFFIX.exec(t); m !== null; m = SUFFIX.exec(t)) {
    if (NOT_EQUITY.test(m[1]!)) return null;
    t = t.slice(0, m.index);
  }
  return t;
}

const DOMESTIC_EQUITY_BASES = new Set(DOMESTIC_EQUITY_FUND_TYPES.map((t) => fundTypeBase(t)));

/** True when the fund type is one of DOMESTIC_EQUITY_FUND_TYPES, compared by fundTypeBase. */
export function isDomesticEquityEtf(fundType: string): boolean {
  const t = fundTypeBase(fundType);
  return t !== null && t !== '' && DOMESTIC_EQUITY_BASES.has(t);
}

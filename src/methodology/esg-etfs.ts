/**
 * Which ETFs are ESG ETFs (shared/spec/sources.md, "ETF holdings"): a published rule, so a reader of
 * /methodology can check every fund the API rates. The rule reads the TWSE fund list (t187ap47_L):
 * the fund's type (基金類型), its names (基金簡稱, 基金中文名稱) and the index it tracks
 * (標的指數/追蹤指數名稱, `不適用` for an active fund).
 */

/** The words that make a fund an ESG fund when its name or tracked index contains one (ESG in any letter case). */
export const ESG_ETF_KEYWORDS = ['ESG', '永續', '公司治理', '低碳', '氣候', '淨零', '碳', '綠能', '環境'] as const;

/** The TWSE fund types (基金類型, as t187ap47_L writes them) of domestic-constituent equity ETFs: index and active. */
export const DOMESTIC_EQUITY_FUND_TYPES = ['國內成分證券指數股票型基金', '國內成分證券主動式交易所交易基金(股票)'] as const;

export const ESG_ETF_RULE =
  `An ESG ETF is a domestic-constituent equity ETF (TWSE fund type ${DOMESTIC_EQUITY_FUND_TYPES.join(' or ')}) ` +
  `whose name or tracked index (標的指數/追蹤指數名稱) contains ${ESG_ETF_KEYWORDS.slice(0, -1).join(', ')} or ${ESG_ETF_KEYWORDS[ESG_ETF_KEYWORDS.length - 1]}, ` +
  'compared after writing full-width characters half-width and 臺 as 台; its holdings are those SITCA publishes (1 % of net assets or more).';

/** Full-width ASCII forms (U+FF01–U+FF5E: letters, digits, parentheses, …) as their half-width characters, and the ideographic space as a space. */
export function toHalfWidth(s: string): string {
  return s.replace(/[\uFF01-\uFF5E\u3000]/g, (c) => (c === '\u3000' ? ' ' : String.fromCharCode(c.charCodeAt(0) - 0xfee0)));
}

const comparable = (s: string) => toHalfWidth(s).replace(/臺/g, '台').replace(/\s+/g, '');

/** True when the fund's name or its tracked index contains one of ESG_ETF_KEYWORDS. */
export function isEsgEtf(name: string, index: string): boolean {
  const texts = [comparable(name), comparable(index)];
  return ESG_ETF_KEYWORDS.some((k) => texts.some((t) => (k === 'ESG' ? t.toUpperCase().includes(k) : t.includes(k))));
}

/** True when the fund type is one of DOMESTIC_EQUITY_FUND_TYPES (full-width parentheses and spaces as the list may write them). */
export function isDomesticEquityEtf(fundType: string): boolean {
  const t = comparable(fundType);
  return DOMESTIC_EQUITY_FUND_TYPES.some((x) => x === t);
}

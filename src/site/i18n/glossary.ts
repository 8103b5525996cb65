/**
 * The terms the pages use, in English and in the words the publishers of the data use themselves
 * (the FSC and TWSE for 永續報告書 and 確信, the Ministry of Environment for 碳費, 裁處 and
 * 溫室氣體排放量盤查登錄). The Traditional Chinese catalogue writes these terms exactly so, and the
 * methodology page shows the list in both languages; a test holds the catalogue to it.
 */
export interface GlossaryTerm {
  en: string;
  zh: string;
}

export const GLOSSARY = [
  { en: 'sustainability report', zh: '永續報告書' },
  { en: 'assurance', zh: '確信' },
  { en: 'limited assurance', zh: '有限確信' },
  { en: 'reasonable assurance', zh: '合理確信' },
  { en: 'assurance provider', zh: '確信機構' },
  { en: 'third-party verification', zh: '第三方查證' },
  { en: 'carbon fee', zh: '碳費' },
  { en: 'penalty', zh: '裁處' },
  { en: 'environmental penalty', zh: '環保裁處' },
  { en: 'fine', zh: '罰鍰' },
  { en: 'disclosure breach', zh: '資訊申報違規' },
  { en: 'exchange penalty', zh: '交易所違約金' },
  { en: 'FSC sanction', zh: '金管會裁罰' },
  { en: 'greenhouse gas (GHG)', zh: '溫室氣體' },
  { en: 'GHG registry', zh: '溫室氣體排放量盤查登錄' },
  { en: 'scope 1 (direct emissions)', zh: '範疇一（直接排放）' },
  { en: 'scope 2 (energy-indirect emissions)', zh: '範疇二（能源間接排放）' },
  { en: 'scope 3 (other indirect emissions)', zh: '範疇三（其他間接排放）' },
  { en: 'reporting year', zh: '報告年度' },
  { en: 'boundary', zh: '資料邊界' },
  { en: 'consolidated', zh: '合併' },
  { en: 'parent company only', zh: '母公司' },
  { en: 'listed (TWSE)', zh: '上市（臺灣證券交易所）' },
  { en: 'OTC (TPEx)', zh: '上櫃（證券櫃檯買賣中心）' },
  { en: 'greenwashing', zh: '漂綠' },
  { en: 'credibility score', zh: '可信度分數' },
  { en: 'snapshot', zh: '資料快照' },
  { en: 'CBAM (EU Carbon Border Adjustment Mechanism)', zh: '碳邊境調整機制（CBAM）' },
] as const satisfies readonly GlossaryTerm[];

/** A term's Chinese by its English, for the catalogue to use (a misspelt term fails the type check). */
export type GlossaryEn = (typeof GLOSSARY)[number]['en'];
const byEn = new Map<string, string>(GLOSSARY.map((t) => [t.en, t.zh]));
export function zhTerm(en: GlossaryEn): string {
  return byEn.get(en)!;
}

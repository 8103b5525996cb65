import { INDUSTRY_NAMES } from '../../src/methodology/industries.js';
/**
 * The real TWSE industry list (sources.md) with the demo's shape parameters per industry: how many
 * companies, how much they emit, how likely they are to be carbon-fee liable, registered, fined.
 * Registry site codes are 4-digit Taiwan standard industrial classification codes (08xx–34xx
 * manufacturing, 35xx electricity and gas supply).
 */

export interface Industry {
  readonly code: string;
  readonly name: string;
  /** Words used to make fictional short names. */
  readonly words: readonly string[];
  /** Relative number of companies. */
  readonly weight: number;
  /** Median scope 1 + 2 of a typical company, t CO2e. */
  readonly median: number;
  /** Share of scope 1 in scope 1 + 2. */
  readonly s1Share: number;
  /** Probability that a company is carbon-fee liable (has a site ≥ 25,000 t or a 35xx site). */
  readonly pObligated: number;
  /** Probability that a non-liable company still has smaller sites in the registry. */
  readonly pRegistry: number;
  /** Probability that a company has environmental penalties. */
  readonly pPenalty: number;
  /** Registry site codes: [code, name]. Empty for industries that are not manufacturing. */
  readonly sic: readonly (readonly [string, string])[];
}

/** The name is the TWSE one the adapters map codes to, so demo and adapters cannot disagree. */
const ind = (
  code: string,
  words: string[],
  weight: number,
  median: number,
  s1Share: number,
  pObligated: number,
  pRegistry: number,
  pPenalty: number,
  sic: [string, string][],
): Industry => ({ code, name: INDUSTRY_NAMES[code]!, words, weight, median, s1Share, pObligated, pRegistry, pPenalty, sic });

export const INDUSTRIES: readonly Industry[] = [
  ind('01', ['水泥', '泥業'], 7, 900_000, 0.9, 0.85, 0.1, 0.5, [['2331', '水泥製造業']]),
  ind('02', ['食品', '食品工業', '乳品'], 30, 15_000, 0.4, 0.12, 0.1, 0.3, [['0899', '其他食品製造業']]),
  ind('03', ['塑膠', '塑化'], 25, 120_000, 0.6, 0.4, 0.2, 0.5, [
    ['1830', '塑膠及合成橡膠原料製造業'],
    ['2209', '其他塑膠製品製造業'],
  ]),
  ind('04', ['紡織', '纖維', '織造'], 45, 40_000, 0.35, 0.2, 0.15, 0.3, [
    ['1120', '織布業'],
    ['1840', '人造纖維製造業'],
  ]),
  ind('05', ['機電', '機械', '重工'], 80, 6_000, 0.25, 0.03, 0.05, 0.12, [
    ['2919', '其他通用機械設備製造業'],
    ['2810', '發電、輸電及配電機械製造業'],
  ]),
  ind('06', ['電纜', '電線'], 15, 12_000, 0.3, 0.1, 0.1, 0.3, [['2831', '電線及電纜製造業']]),
  ind('08', ['玻璃', '陶瓷'], 5, 60_000, 0.7, 0.4, 0.3, 0.5, [
    ['2311', '玻璃及其製品製造業'],
    ['2321', '耐火材料製造業'],
  ]),
  ind('09', ['紙業', '造紙'], 7, 120_000, 0.6, 0.5, 0.3, 0.5, [
    ['1701', '紙漿製造業'],
    ['1702', '紙張製造業'],
  ]),
  ind('10', ['鋼鐵', '鋼業', '金屬'], 45, 150_000, 0.55, 0.35, 0.3, 0.5, [
    ['2411', '鋼鐵冶鍊業'],
    ['2412', '鋼鐵鑄造業'],
    ['2413', '鋼鐵軋延及擠型業'],
  ]),
  ind('11', ['橡膠', '輪胎'], 10, 30_000, 0.45, 0.2, 0.2, 0.5, [['2101', '輪胎製造業']]),
  ind('12', ['汽車', '車業'], 15, 15_000, 0.3, 0.1, 0.1, 0.3, [
    ['3010', '汽車製造業'],
    ['3030', '汽車零件製造業'],
  ]),
  ind('14', ['建設', '營造', '開發'], 95, 2_000, 0.5, 0, 0, 0.2, []),
  ind('15', ['海運', '航空', '航運'], 30, 150_000, 0.95, 0, 0, 0.05, []),
  ind('16', ['飯店', '旅館', '餐飲'], 50, 5_000, 0.3, 0, 0, 0.05, []),
  ind('17', ['金控', '銀行', '人壽'], 45, 2_500, 0.1, 0, 0, 0.01, []),
  ind('18', ['百貨', '貿易'], 30, 6_000, 0.2, 0, 0, 0.03, []),
  ind('20', ['實業', '企業', '工業'], 100, 4_000, 0.35, 0.03, 0.04, 0.12, [['3399', '其他未分類製造業']]),
  ind('21', ['化工', '化學', '石化'], 50, 90_000, 0.6, 0.3, 0.25, 0.5, [
    ['1810', '化學原材料製造業'],
    ['1890', '其他化學材料製造業'],
  ]),
  ind('22', ['生技', '醫藥', '製藥'], 200, 4_000, 0.3, 0.01, 0.05, 0.12, [['2002', '西藥製造業']]),
  ind('23', ['能源', '電力', '瓦斯'], 15, 400_000, 0.8, 0.6, 0.2, 0.5, [
    ['3510', '電力供應業'],
    ['3520', '氣體燃料供應業'],
    ['1910', '石油及煤製品製造業'],
  ]),
  ind('24', ['半導體', '晶圓', '微電子'], 160, 60_000, 0.2, 0.15, 0.2, 0.3, [
    ['2611', '積體電路製造業'],
    ['2612', '分離式元件製造業'],
  ]),
  ind('25', ['電腦', '資通'], 110, 5_000, 0.15, 0.05, 0.04, 0.12, [['2711', '電腦製造業']]),
  ind('26', ['光電', '光學'], 120, 30_000, 0.2, 0.08, 0.15, 0.3, [['2641', '液晶面板及其組件製造業']]),
  ind('27', ['通訊', '網通'], 100, 4_000, 0.15, 0.02, 0.03, 0.12, [['2720', '通訊傳播設備製造業']]),
  ind('28', ['電子', '精密', '電路'], 230, 12_000, 0.2, 0.04, 0.1, 0.3, [
    ['2620', '被動電子元件製造業'],
    ['2630', '印刷電路板製造業'],
  ]),
  ind('29', ['電通', '通路'], 40, 800, 0.15, 0, 0, 0.01, []),
  ind('30', ['資訊', '軟體'], 60, 600, 0.1, 0, 0, 0.01, []),
  ind('31', ['科技', '電子科技'], 90, 5_000, 0.2, 0.03, 0.04, 0.12, [['2699', '其他電子零組件製造業']]),
  ind('32', ['文創', '影業'], 30, 500, 0.2, 0, 0, 0.01, []),
  ind('33', ['農科', '種苗'], 10, 3_000, 0.4, 0.05, 0.05, 0.12, [['0899', '其他食品製造業']]),
  ind('34', ['電商', '網購'], 10, 600, 0.1, 0, 0, 0.01, []),
  ind('35', ['綠能', '環保', '再生'], 40, 6_000, 0.3, 0.05, 0.08, 0.12, [['2643', '太陽能電池製造業']]),
  ind('36', ['雲端', '數位'], 20, 1_500, 0.05, 0, 0, 0.01, []),
  ind('37', ['運動', '休閒'], 30, 4_000, 0.3, 0.03, 0.05, 0.12, [['3311', '體育用品製造業']]),
  ind('38', ['家居', '生活'], 25, 3_000, 0.3, 0.02, 0.04, 0.12, [['3200', '家具製造業']]),
];

const BY_CODE = new Map(INDUSTRIES.map((i) => [i.code, i]));

export function industry(code: string): Industry {
  const found = BY_CODE.get(code);
  if (!found) throw new Error(`unknown industry ${code}`);
  return found;
}

export const INDUSTRY_WEIGHTS: readonly number[] = INDUSTRIES.map((i) => i.weight);

/** Looks up the name of a registry site code. */
export function sicName(code: string): string {
  for (const i of INDUSTRIES) for (const [c, n] of i.sic) if (c === code) return n;
  throw new Error(`unknown site code ${code}`);
}

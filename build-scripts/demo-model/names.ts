/**
 * Visibly fictional names: every company short name starts with 示範 or 虛構, fund names likewise,
 * assurance providers are invented. Place names (counties, districts) are real, street names are not.
 */
import type { Rng } from './random.js';

const MARKERS = ['示範', '虛構'] as const;

const SYLLABLES = [
  '華',
  '興',
  '昌',
  '泰',
  '宏',
  '達',
  '明',
  '光',
  '新',
  '豐',
  '源',
  '盛',
  '隆',
  '和',
  '信',
  '永',
  '嘉',
  '綠',
  '晶',
  '鼎',
  '宇',
  '瑞',
  '騰',
  '益',
  '安',
  '東',
  '寶',
  '茂',
  '榮',
  '正',
  '冠',
  '群',
  '鑫',
  '峰',
  '凱',
  '亞',
  '勝',
  '祥',
  '富',
  '康',
] as const;

/** Hands out unique short names: marker + 1–2 syllables + industry word, numbered on collision. */
export class NameBook {
  private readonly used = new Map<string, number>();

  shortName(rng: Rng, words: readonly string[]): string {
    const marker = rng.pick(MARKERS);
    const s1 = rng.pick(SYLLABLES);
    const s2 = rng.chance(0.7) ? rng.pick(SYLLABLES) : '';
    const base = `${marker}${s1}${s2 === s1 ? '' : s2}${rng.pick(words)}`;
    return this.claim(base);
  }

  /** Reserves `base` (or `base2`, `base3`, … if taken) and returns it. */
  claim(base: string): string {
    const n = this.used.get(base);
    if (n === undefined) {
      this.used.set(base, 1);
      return base;
    }
    let k = n + 1;
    while (this.used.has(`${base}${k}`)) k++;
    this.used.set(base, k);
    this.used.set(`${base}${k}`, 1);
    return `${base}${k}`;
  }
}

export const legalName = (short: string): string => `${short}股份有限公司`;

/** Names of businesses outside the universe (penalised or registered, not listed). */
export function otherBusinessName(rng: Rng, book: NameBook): string {
  const kind = rng.pick(['環保', '工業', '化工', '金屬', '紙器', '砂石', '食品']);
  const form = rng.pick(['有限公司', '股份有限公司', '企業社']);
  return `${book.claim(`${rng.pick(MARKERS)}${rng.pick(SYLLABLES)}${rng.pick(SYLLABLES)}${kind}`)}${form}`;
}

export const CPA_FIRMS = ['示範聯合會計師事務所', '虛構國際聯合會計師事務所', '示範誠信會計師事務所', '虛構永明聯合會計師事務所'] as const;
export const THIRD_PARTY_BODIES = ['示範國際驗證股份有限公司', '虛構標準檢驗科技股份有限公司', '示範永續驗證協會', '虛構品質保證有限公司'] as const;
export const THIRD_PARTY_STANDARD = { limited: 'AA1000AS v3 Type 2 中度保證', reasonable: 'AA1000AS v3 Type 2 高度保證' } as const;
export const CPA_OPINION = { limited: '有限確信', reasonable: '合理確信' } as const;
export const CPA_STANDARD = '確信準則3000號及3410號';

export const ETF_NAMES = [
  '示範ESG永續高股息',
  '虛構臺灣永續',
  '示範ESG低碳50',
  '虛構永續科技',
  '示範公司治理100',
  '虛構低碳高息',
  '示範永續動能',
  '虛構ESG優選',
  '示範綠能永續',
  '虛構永續領袖',
] as const;

export interface County {
  readonly name: string;
  /** The county's environmental protection bureau (裁處機關). */
  readonly agency: string;
  /** Prefix of its decision numbers (裁處書字號). */
  readonly prefix: string;
  readonly towns: readonly string[];
}

const county = (name: string, agency: string, prefix: string, towns: string[]): County => ({ name, agency, prefix, towns });

export const COUNTIES: readonly County[] = [
  county('臺北市', '臺北市政府環境保護局', '北市環稽字', ['內湖區', '南港區']),
  county('新北市', '新北市政府環境保護局', '新北環稽字', ['林口區', '五股區', '樹林區']),
  county('桃園市', '桃園市政府環境保護局', '桃環空字', ['觀音區', '大園區', '龜山區']),
  county('臺中市', '臺中市政府環境保護局', '中市環稽字', ['大甲區', '梧棲區', '西屯區']),
  county('臺南市', '臺南市政府環境保護局', '南市環空字', ['安南區', '新市區', '仁德區']),
  county('高雄市', '高雄市政府環境保護局', '高市環局稽字', ['小港區', '林園區', '大社區', '仁武區']),
  county('基隆市', '基隆市環境保護局', '基環稽字', ['七堵區']),
  county('新竹市', '新竹市環境保護局', '竹市環空字', ['東區']),
  county('新竹縣', '新竹縣政府環境保護局', '竹縣環稽字', ['湖口鄉', '竹北市']),
  county('苗栗縣', '苗栗縣政府環境保護局', '栗環稽字', ['頭份市', '竹南鎮']),
  county('彰化縣', '彰化縣環境保護局', '彰環稽字', ['線西鄉', '鹿港鎮']),
  county('南投縣', '南投縣政府環境保護局', '投環稽字', ['南投市']),
  county('雲林縣', '雲林縣環境保護局', '雲環稽字', ['麥寮鄉', '斗六市']),
  county('嘉義縣', '嘉義縣環境保護局', '嘉縣環稽字', ['民雄鄉']),
  county('嘉義市', '嘉義市環境保護局', '嘉市環稽字', ['西區']),
  county('屏東縣', '屏東縣政府環境保護局', '屏環稽字', ['屏東市']),
  county('宜蘭縣', '宜蘭縣政府環境保護局', '宜環稽字', ['蘇澳鎮']),
  county('花蓮縣', '花蓮縣環境保護局', '花環稽字', ['新城鄉']),
  county('臺東縣', '臺東縣環境保護局', '東環稽字', ['臺東市']),
  county('澎湖縣', '澎湖縣政府環境保護局', '澎環稽字', ['馬公市']),
];

/** Weights of counties for sites (industrial counties more often). */
export const COUNTY_WEIGHTS: readonly number[] = [4, 10, 14, 10, 10, 14, 1, 3, 5, 4, 6, 2, 5, 2, 1, 3, 2, 1, 1, 1];

/** The central authority, which also decides some penalties. */
export const CENTRAL_AGENCY = { agency: '環境部', prefix: '環部空字' } as const;

const STREETS = ['示範路', '虛構街', '示範工業一路', '虛構大道', '示範二路'] as const;

export function address(rng: Rng, c: County, town: string): string {
  return `${c.name}${town}${rng.pick(STREETS)}${rng.int(1, 399)}號`;
}

export interface Violation {
  readonly type: string;
  readonly law: string;
  readonly article: string;
  readonly fact: string;
}

export const VIOLATIONS: readonly Violation[] = [
  { type: '空氣', law: '空氣污染防制法', article: '空氣污染防制法第24條第2項', fact: '固定污染源未依許可證內容操作' },
  { type: '空氣', law: '空氣污染防制法', article: '空氣污染防制法第32條第1項', fact: '逸散性粒狀污染物未採有效抑制措施' },
  { type: '水', law: '水污染防治法', article: '水污染防治法第7條第1項', fact: '放流水水質超過放流水標準' },
  { type: '廢棄物', law: '廢棄物清理法', article: '廢棄物清理法第31條第1項', fact: '未依規定申報事業廢棄物產出及處理情形' },
  { type: '毒化物', law: '毒性及關注化學物質管理法', article: '毒性及關注化學物質管理法第13條', fact: '未依規定記錄毒性化學物質運作' },
  { type: '噪音', law: '噪音管制法', article: '噪音管制法第9條', fact: '工廠噪音超過管制標準' },
  { type: '土壤', law: '土壤及地下水污染整治法', article: '土壤及地下水污染整治法第8條', fact: '未依規定提送土壤污染評估調查資料' },
];

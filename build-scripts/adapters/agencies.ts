/**
 * Short codes for the penalising agencies named in EMS_P_46's 裁處機關: the Ministry itself or a
 * city/county environmental protection bureau. Codes follow the ISO 3166-2:TW subdivision codes.
 */
const COUNTY_CODES: Readonly<Record<string, string>> = {
  臺北市: 'TPE', 新北市: 'NWT', 桃園市: 'TAO', 臺中市: 'TXG', 臺南市: 'TNN', 高雄市: 'KHH',
  基隆市: 'KEE', 新竹市: 'HSZ', 新竹縣: 'HSQ', 苗栗縣: 'MIA', 彰化縣: 'CHA', 南投縣: 'NAN',
  雲林縣: 'YUN', 嘉義市: 'CYI', 嘉義縣: 'CYQ', 屏東縣: 'PIF', 宜蘭縣: 'ILA', 花蓮縣: 'HUA',
  臺東縣: 'TTT', 澎湖縣: 'PEN', 金門縣: 'KIN', 連江縣: 'LIE',
};

/** `MOENV` for the ministry (or its former name), `XXX-EPB` for a local bureau, else null. */
export function agencyCode(name: string): string | null {
  const n = name.trim().replace(/台/g, '臺');
  if (n.startsWith('環境部') || n.startsWith('行政院環境保護署')) return 'MOENV';
  for (const [county, code] of Object.entries(COUNTY_CODES)) {
    if (n.startsWith(county)) return `${code}-EPB`;
  }
  return null;
}

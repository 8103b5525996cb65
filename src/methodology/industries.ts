/**
 * TWSE industry codes (產業別) and their Chinese names, as both exchanges publish them. `91` is not an
 * industry but the depositary receipts (存託憑證, TDR): t187ap03_L serves it for 10 companies.
 */
export const INDUSTRY_NAMES: Readonly<Record<string, string>> = {
  '01': '水泥工業',
  '02': '食品工業',
  '03': '塑膠工業',
  '04': '紡織纖維',
  '05': '電機機械',
  '06': '電器電纜',
  '08': '玻璃陶瓷',
  '09': '造紙工業',
  '10': '鋼鐵工業',
  '11': '橡膠工業',
  '12': '汽車工業',
  '14': '建材營造',
  '15': '航運業',
  '16': '觀光餐旅',
  '17': '金融保險',
  '18': '貿易百貨',
  '20': '其他',
  '21': '化學工業',
  '22': '生技醫療',
  '23': '油電燃氣',
  '24': '半導體業',
  '25': '電腦及週邊設備業',
  '26': '光電業',
  '27': '通信網路業',
  '28': '電子零組件業',
  '29': '電子通路業',
  '30': '資訊服務業',
  '31': '其他電子業',
  '32': '文化創意',
  '33': '農業科技',
  '34': '電子商務',
  '35': '綠能環保',
  '36': '數位雲端',
  '37': '運動休閒',
  '38': '居家生活',
  '91': '存託憑證',
};

/**
 * The name a company's industry is published under: the table's, or, for a code the table does not
 * know, a label with the code itself (the company is kept; the build summary warns).
 */
export const industryName = (code: string): string => INDUSTRY_NAMES[code] ?? `產業別 ${code}`;

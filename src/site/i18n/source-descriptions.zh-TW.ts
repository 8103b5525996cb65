/**
 * Each source's description in Traditional Chinese, by source_id. The registry's own
 * description (build-scripts/sources/*.ts, `info.description`) is English, as the API's texts are;
 * /zh-TW/sources/ shows these instead. test/site/source-descriptions.test.ts checks that every source
 * module has one, so a new source without a Chinese description fails there, not on a page. A field
 * name or source id is written between backticks, and the page shows it as code.
 */
export const SOURCE_DESCRIPTIONS_ZH: Readonly<Record<string, string>> = {
  'SRC-MOENV-GHG_P_01':
    '各場址每年登錄的直接排放與能源間接排放，是碳費（依《氣候變遷因應法》，費率自 2025-01-01 起適用）的計算基礎。' +
    '查無逐筆紀錄的連結：事實連結至資料集，可依統一編號（`companyno`）與年度（`app_year`，民國年）找到該列。',
  'SRC-MOENV-EMS_P_46':
    '環境部與各地方環保局的裁處紀錄，依統一編號對應公司。每筆裁處連結至環境部公開裁處查詢（prtr.moenv.gov.tw）中的紀錄：' +
    '以公司統一編號查詢，起訖日期皆為裁處日期。',
  'SRC-MOPS-ESGREPORT':
    '永續報告書的申報資料，含確信的會計師事務所（其準則與意見：有限或合理確信）及第三方驗證機構，取自證交所 ESG GenPlus' +
    '（2023 年起的報告年度，以及它提供的較舊公開資訊觀測站申報）。顯示並計分的是會計師事務所的確信；只有驗證機構者顯示為第三方驗證。' +
    '每份報告連結至 GenPlus 上的檔案（或舊的公開資訊觀測站檔案），沒有檔案時連結至該公司該年度的 GenPlus 頁面。',
  'SRC-MOPS-ETF-HOLDINGS': '國內成分 ETF 每季的持股與權重。查無逐筆紀錄的連結：該列為基金代號等於基金代碼者。',
  'SRC-SITCA-ETF-HOLDINGS':
    '每檔國內指數型 ETF（類別 AH11）與主動式 ETF（AL11）每季達基金淨資產 1% 的持股及其權重。由於只公布這些持股，' +
    '大型 ETF 所列權重的合計遠低於 100%。投信投顧公會以基金名稱而非代碼列出基金：代碼依基金全名取自證交所基金清單' +
    '（`SRC-TWSE-ETF-LIST`）。投信投顧公會是金管會轄下的產業公會，並非政府機關，其網頁未附開放資料授權。' +
    '查無逐筆紀錄的連結：在該網頁選擇季度與類別即可找到基金。',
  'SRC-TPEX-COMPANY': '上櫃公司的名稱、產業別、統一編號與資本額。查無逐筆紀錄的連結：該列為 `SecuritiesCompanyCode` 等於股票代號者。',
  'SRC-TPEX-ESG-GHG':
    '上櫃公司最近報告年度所揭露的範疇一、二、三排放量。查無逐筆紀錄的連結：事實連結至資料集（一個 JSON 陣列），該列為公司代號等於股票代號者。',
  'SRC-TWSE-COMPANY': '上市公司的名稱、產業別、統一編號與資本額。查無逐筆紀錄的連結：該列為公司代號等於股票代號者。',
  'SRC-TWSE-ESG-GHG':
    '上市公司最近報告年度所揭露的範疇一、二、三排放量。查無逐筆紀錄的連結：事實連結至資料集（一個 JSON 陣列），該列為公司代號等於股票代號者。',
  'SRC-TWSE-ETF-LIST':
    '證交所上市的每檔基金，含代碼、全名（在其兩種格式中較新者另有簡稱）、類型與追蹤指數。用來依全名為投信投顧公會的持股' +
    '（以名稱而非代碼列出基金）補上基金代碼，並依公布的規則辨認 ESG ETF。查無逐筆紀錄的連結：該列為基金代號等於基金代碼者。',
  'SRC-TWSE-DISCLOSURE-BREACHES':
    '臺灣證券交易所對上市公司延遲或錯誤申報資訊及重大訊息所處的違約金，約為最近一年的處分：發函日期、違規事由、違反的申報作業辦法條款' +
    '與重大訊息處理程序條款，以及金額（`裁罰金額(萬)`，單位為新臺幣萬元）。查無逐筆紀錄的連結：事實連結至資料集（一個 JSON 陣列），' +
    '該列為股票代號等於股票代號且發函日期相同者。',
  'SRC-TPEX-DISCLOSURE-BREACHES':
    '證券櫃檯買賣中心對上櫃公司延遲或錯誤申報資訊及重大訊息所處的違約金，約為最近一年的處分：發函日期、違規事由、違反的申報作業辦法條款' +
    '與重大訊息處理程序條款，以及金額（`裁罰金額`，單位為新臺幣萬元）。查無逐筆紀錄的連結：事實連結至資料集（一個 JSON 陣列），' +
    '該列為 `SecuritiesCompanyCode` 等於股票代號且發函日期相同者。',
  'SRC-TWSE-SANCTIONS':
    '金管會證券期貨局在上市公司案件中的裁罰，由臺灣證券交易所轉載：處分是金管會的，資料集是證交所的。約為最近一年的處分：發函日期、' +
    '違規事由、違反法規與裁處情形（罰鍰只見於裁處情形的文字中，對象常是姓名遮蔽的個人）。查無逐筆紀錄的連結：事實連結至資料集' +
    '（一個 JSON 陣列），該列為股票代號等於股票代號且發函日期相同者。',
  'SRC-TPEX-SANCTIONS':
    '金管會證券期貨局在上櫃公司案件中的裁罰，由證券櫃檯買賣中心轉載：處分是金管會的，資料集是櫃買中心的。約為最近一年的處分：發函日期、' +
    '違規事由、違反法規與裁處情形（罰鍰只見於裁處情形的文字中，對象常是姓名遮蔽的個人）。查無逐筆紀錄的連結：事實連結至資料集' +
    '（一個 JSON 陣列），該列為 `SecuritiesCompanyCode` 等於股票代號且發函日期相同者。',
};

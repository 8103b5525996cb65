import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { RejectLog } from '../build-scripts/adapters/read-layout.js';
import { CsvWriter, JsonRecordsWriter } from '../build-scripts/sources/kit/table-writers.js';
import { joinFunds } from '../build-scripts/sources/etfs/etf-funds.js';
import { filesOf } from '../build-scripts/sources/kit/files.js';
import { sourceModule } from '../build-scripts/sources/index.js';
import { readReportFilings } from '../build-scripts/sources/esg-reports/mops-esg-report.js';
import { readSitcaHoldings } from '../build-scripts/sources/etfs/sitca-etf-holdings.js';
import { SourceTally } from '../build-scripts/sources/kit/tally.js';
import { readFundList } from '../build-scripts/sources/etfs/twse-etf-list.js';

/**
 * The same sources in the forms the build read before it spoke the publishers' real ones (the forms
 * an operator may still place by hand): each MOENV dataset as one joined JSON file, the reports as
 * the MOPS CSV (UTF-8 with a byte-order mark) and the ETF holdings as the MOPS CSV in Big5. The
 * bench builds both folders to show what reading the real forms costs.
 */
export async function writePlacedForms(realDir: string, outDir: string): Promise<void> {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const moved = new Set<string>();
  for (const id of ['SRC-MOENV-EMS_P_46', 'SRC-MOENV-GHG_P_01']) {
    const m = sourceModule(id);
    const pages = filesOf(realDir, m);
    pages.forEach((p) => moved.add(p));
    const writer = new JsonRecordsWriter(join(outDir, m.files.placed[0]!));
    let keys: string[] | null = null;
    for (const page of pages) {
      const parsed = JSON.parse(readFileSync(join(realDir, page), 'utf8')) as Record<string, string>[] | { records: Record<string, string>[] };
      for (const record of Array.isArray(parsed) ? parsed : parsed.records) {
        if (keys === null) {
          keys = Object.keys(record);
          await writer.write(keys);
        }
        await writer.write(keys.map((k) => record[k] ?? ''));
      }
    }
    await writer.close();
  }

  const report = sourceModule('SRC-MOPS-ESGREPORT');
  filesOf(realDir, report).forEach((f) => moved.add(f));
  const reports = new CsvWriter(join(outDir, 'esg_report.csv'), 'utf8-bom');
  await reports.write([
    '年份',
    '公司代號',
    '第三方驗證單位名稱',
    '第三方驗證採用標準',
    '會計師確信驗證單位',
    '會計師確信採用標準',
    '會計師確信意見類型',
  ]);
  for await (const f of readReportFilings(realDir, new RejectLog(), new SourceTally())) {
    const a = f.assurance;
    const verifier = a?.kind === 'third_party' ? { provider: a.provider, standard: a.standard } : a?.verifications[0];
    await reports.write([
      String(f.year),
      f.ticker,
      verifier?.provider ?? '',
      verifier?.standard ?? '',
      a?.kind === 'cpa' ? a.provider : '',
      a?.kind === 'cpa' ? (a.standard ?? '') : '',
      a?.kind === 'cpa' ? (a.level === 'reasonable' ? '合理確信' : '有限確信') : '',
    ]);
  }
  await reports.close();

  for (const id of ['SRC-SITCA-ETF-HOLDINGS', 'SRC-TWSE-ETF-LIST']) filesOf(realDir, sourceModule(id)).forEach((f) => moved.add(f));
  const list = await readFundList(realDir, new RejectLog(), new SourceTally());
  const { funds } = joinFunds(await readSitcaHoldings(realDir, new RejectLog()), list.rows);
  const etfs = new CsvWriter(join(outDir, 'etf_holdings.csv'), 'big5');
  await etfs.write(['基金代號', '基金名稱', '年度', '季別', '證券代號', '證券簡稱', '持股比率']);
  for (const f of funds) {
    const [year, q] = f.period.split('Q') as [string, string];
    for (const h of f.holdings) await etfs.write([f.code, f.name, String(Number(year) - 1911), q, h.code, h.name, `${(h.weight * 100).toFixed(2)}%`]);
  }
  await etfs.close();

  for (const f of readdirSync(realDir)) if (!moved.has(f)) copyFileSync(join(realDir, f), join(outDir, f));
}

import { describe, expect, it } from 'vitest';
import { readEsgReports, type EsgReportRow } from '../../../build-scripts/adapters/mops-esg-report.js';
import { MissingColumnError, RejectLog } from '../../../build-scripts/adapters/read-layout.js';
import { fixtureDirs } from './fixture-dir.js';

const FILE = 'esg_report.csv';
const fixtureDir = fixtureDirs('adapter-esgreport-');
const sourceDir = (content: string) => fixtureDir(content === null ? {} : { [FILE]: content });
async function read(content: string, rejects = new RejectLog()): Promise<EsgReportRow[]> {
  const out: EsgReportRow[] = [];
  for await (const r of readEsgReports(sourceDir(content), rejects)) out.push(r);
  return out;
}

const HEADER = '市場別,年份,公司代號,公司名稱,申報原因,產業類別,報告書內容涵蓋期間,編製依循準則,第三方驗證單位名稱,第三方驗證採用標準,會計師確信驗證單位,會計師確信採用標準,會計師確信意見類型,上傳日期,修正後報告書';
interface R { year?: string; ticker?: string; tp?: string; tpStd?: string; cpa?: string; cpaStd?: string; opinion?: string; upload?: string }
const row = (o: R = {}) =>
  ['上市', o.year ?? '113', o.ticker ?? 'D1101', '示範水泥', '依規定申報', '水泥工業', '113/01/01~113/12/31', 'GRI',
    o.tp ?? '', o.tpStd ?? '', o.cpa ?? '', o.cpaStd ?? '', o.opinion ?? '', o.upload ?? '114/08/29', ''].join(',');

describe('readEsgReports (SRC-MOPS-ESGREPORT)', () => {
  it('CPA 有限確信 → limited; 合理確信 → reasonable', async () => {
    const rows = await read(
      `${HEADER}\n${row({ cpa: '安永聯合會計師事務所', cpaStd: '確信準則3000號', opinion: '有限確信' })}\n${row({ ticker: 'D1102', cpa: '勤業眾信聯合會計師事務所', cpaStd: '確信準則3410號', opinion: '合理確信' })}\n`,
    );
    expect(rows).toEqual<EsgReportRow[]>([
      { ticker: 'D1101', year: 2024, provider: '安永聯合會計師事務所', level: 'limited', uploadDate: '2025-08-29' },
      { ticker: 'D1102', year: 2024, provider: '勤業眾信聯合會計師事務所', level: 'reasonable', uploadDate: '2025-08-29' },
    ]);
  });

  it('third-party only: …高度保證 → reasonable, …中度保證 → limited', async () => {
    const rows = await read(
      `${HEADER}\n${row({ tp: '英國標準協會', tpStd: 'AA1000AS v3 第二類型高度保證' })}\n${row({ tp: 'SGS', tpStd: 'AA1000AS v3 第二類型中度保證' })}\n`,
    );
    expect(rows.map((r) => [r.provider, r.level])).toEqual([
      ['英國標準協會', 'reasonable'],
      ['SGS', 'limited'],
    ]);
  });

  it('no provider → provider null and level null', async () => {
    const rejects = new RejectLog();
    const rows = await read(`${HEADER}\n${row({ upload: '' })}\n`, rejects);
    expect(rows).toEqual([{ ticker: 'D1101', year: 2024, provider: null, level: null, uploadDate: null }]);
    expect(rejects.count).toBe(0);
  });

  it('a CPA takes precedence over a third party', async () => {
    const rows = await read(`${HEADER}\n${row({ tp: 'SGS', tpStd: 'AA1000AS 高度保證', cpa: '資誠聯合會計師事務所', opinion: '有限確信' })}\n`);
    expect(rows.map((r) => [r.provider, r.level])).toEqual([['資誠聯合會計師事務所', 'limited']]);
  });

  it('a provider with an unreadable level is a reject naming the column it read', async () => {
    const rejects = new RejectLog();
    const rows = await read(
      `${HEADER}\n${row({ cpa: '安永聯合會計師事務所', opinion: '無' })}\n${row({ tp: 'SGS', tpStd: 'ISO 14064-3' })}\n${row({ ticker: 'D1109', cpa: 'KPMG', opinion: 'Limited assurance' })}\n`,
      rejects,
    );
    expect(rows.map((r) => [r.ticker, r.level])).toEqual([['D1109', 'limited']]);
    expect(rejects.format().split('\n')).toEqual([
      'esg_report.csv:2: 會計師確信意見類型: cannot tell the assurance level from "無"',
      'esg_report.csv:3: 第三方驗證採用標準: cannot tell the assurance level from "ISO 14064-3"',
    ]);
  });

  it('years and upload dates in ROC or Gregorian form', async () => {
    const rows = await read(`${HEADER}\n${row({ year: '2024', upload: '2025-08-29' })}\n${row({ year: '113', upload: '1140829' })}\n`);
    expect(rows.map((r) => [r.year, r.uploadDate])).toEqual([
      [2024, '2025-08-29'],
      [2024, '2025-08-29'],
    ]);
  });

  it('rejects a bad year and a bad upload date', async () => {
    const rejects = new RejectLog();
    expect(await read(`${HEADER}\n${row({ year: '今年' })}\n${row({ upload: '114/02/30' })}\n`, rejects)).toEqual([]);
    expect(rejects.format()).toMatch(/^esg_report\.csv:2: 年份: .*\nesg_report\.csv:3: 上傳日期: /);
  });

  it('maps the required columns only, in another order, ignoring unknown ones', async () => {
    const rows = await read(`會計師確信意見類型,會計師確信驗證單位,其他,第三方驗證採用標準,第三方驗證單位名稱,公司代號,年份\n合理確信,KPMG,x,,,d1101,114\n`);
    expect(rows).toEqual([{ ticker: 'D1101', year: 2025, provider: 'KPMG', level: 'reasonable', uploadDate: null }]);
  });

  it('a missing required column throws MissingColumnError naming the file and the column', async () => {
    const err = await read(`${HEADER.replace('會計師確信意見類型,', '')}\n`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MissingColumnError);
    expect((err as Error).message).toContain(FILE);
    expect((err as Error).message).toContain('會計師確信意見類型');
  });
});

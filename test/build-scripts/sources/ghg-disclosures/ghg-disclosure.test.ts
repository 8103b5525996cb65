import { describe, expect, it } from 'vitest';
import { MissingColumnError, RejectLog } from '../../../../build-scripts/adapters/read-layout.js';
import { disclosesAny, type GhgDisclosureRow } from '../../../../build-scripts/sources/ghg-disclosures/ghg-disclosure.js';
import { readTpexGhg } from '../../../../build-scripts/sources/ghg-disclosures/tpex-esg-ghg.js';
import { readTwseGhg } from '../../../../build-scripts/sources/ghg-disclosures/twse-esg-ghg.js';
import { collect, fixtureDirs } from '../../adapters/fixture-dir.js';

const sourceDir = fixtureDirs('adapter-ghg-');

const TWSE = 't187ap46_L_1.csv';
const TPEX = 't187ap46_O_1.csv';
const HEADER = [
  '出表日期',
  '報告年度',
  '公司代號',
  '公司名稱',
  '範疇一排放量(噸CO2e)',
  '範疇一資料邊界',
  '範疇一取得驗證',
  '範疇二排放量(噸CO2e)',
  '範疇二資料邊界',
  '範疇二取得驗證',
  '範疇三排放量(噸CO2e)',
  '範疇三資料邊界',
  '範疇三取得驗證',
  '溫室氣體排放密集度(噸CO2e/單位)',
].join(',');
interface R {
  date?: string;
  year?: string;
  ticker?: string;
  s1?: string;
  b1?: string;
  v1?: string;
  s2?: string;
  v2?: string;
  s3?: string;
  v3?: string;
}
const row = (o: R = {}) =>
  [
    o.date ?? '1150301',
    o.year ?? '114',
    o.ticker ?? 'D1101',
    '示範水泥',
    o.s1 ?? '"12,345.6"',
    o.b1 ?? '已完成合併財務報表之母子公司',
    o.v1 ?? '是',
    o.s2 ?? '"2,000"',
    '已完成合併財務報表之母子公司',
    o.v2 ?? '否',
    o.s3 ?? 'N/A',
    'N/A',
    o.v3 ?? '否',
    '0.35',
  ].join(',');

const expected: GhgDisclosureRow = {
  ticker: 'D1101',
  reportDate: '2026-03-01',
  year: 2025,
  scope1: 12_345.6,
  scope2: 2_000,
  scope3: null,
  scope1Verified: true,
  scope2Verified: false,
  scope3Verified: false,
  boundary: 'consolidated',
  boundaryText: '已完成合併財務報表之母子公司',
  sourceId: 'SRC-TWSE-ESG-GHG',
};

describe('readTwseGhg / readTpexGhg (SRC-TWSE-ESG-GHG, SRC-TPEX-ESG-GHG)', () => {
  it('reads a valid TWSE file', async () => {
    const rejects = new RejectLog();
    const dir = sourceDir({ [TWSE]: `${HEADER}\n${row()}\n` });
    expect(await collect(readTwseGhg(dir, rejects))).toEqual([expected]);
    expect(rejects.count).toBe(0);
  });

  it('reads a valid TPEx file with its own source id', async () => {
    const dir = sourceDir({ [TPEX]: `\ufeff${HEADER}\r\n${row({ ticker: 'd6488' })}\r\n` });
    expect(await collect(readTpexGhg(dir, new RejectLog()))).toEqual([{ ...expected, ticker: 'D6488', sourceId: 'SRC-TPEX-ESG-GHG' }]);
  });

  it.each(['1150301', '115/03/01', '115-03-01', '2026-03-01'])('report date %j → 2026-03-01', async (date) => {
    const dir = sourceDir({ [TWSE]: `${HEADER}\n${row({ date })}\n` });
    expect((await collect(readTwseGhg(dir, new RejectLog()))).map((r) => r.reportDate)).toEqual(['2026-03-01']);
  });

  it('reporting year ROC 113 → 2024, Gregorian 2024 → 2024', async () => {
    const dir = sourceDir({ [TWSE]: `${HEADER}\n${row({ year: '113' })}\n${row({ year: '2024' })}\n` });
    expect((await collect(readTwseGhg(dir, new RejectLog()))).map((r) => r.year)).toEqual([2024, 2024]);
  });

  it('N/A (and an empty value) is a null figure, never a reject; 0.0000 is a real zero; an absent figure is never verified', async () => {
    const rejects = new RejectLog();
    const dir = sourceDir({
      [TWSE]: `${HEADER}\n${row({ s1: 'N/A', v1: '是', s2: '', v2: '是', s3: '500', v3: '是' })}\n${row({ s1: '0.0000', s3: 'N/A', v3: '是' })}\n`,
    });
    expect(await collect(readTwseGhg(dir, rejects))).toEqual([
      { ...expected, scope1: null, scope2: null, scope3: 500, scope1Verified: false, scope2Verified: false, scope3Verified: true },
      { ...expected, scope1: 0, scope3: null, scope3Verified: false },
    ]);
    expect(rejects.count).toBe(0);
  });

  it('a row with all three figures N/A is read (it is what the company filed), disclosing nothing', async () => {
    const rejects = new RejectLog();
    const dir = sourceDir({ [TWSE]: `${HEADER}\n${row({ s1: 'N/A', s2: 'N/A', s3: 'N/A', b1: 'N/A' })}\n` });
    const rows = await collect(readTwseGhg(dir, rejects));
    expect(rows).toEqual([{ ...expected, scope1: null, scope2: null, scope1Verified: false, boundary: null, boundaryText: null }]);
    expect(disclosesAny(rows[0]!)).toBe(false);
    expect(rejects.count).toBe(0);
  });

  it('reads 是/否 and Y/N verification', async () => {
    const dir = sourceDir({ [TWSE]: `${HEADER}\n${row({ v1: 'Y', v2: 'N' })}\n${row({ v1: '否', v2: '是' })}\n` });
    expect((await collect(readTwseGhg(dir, new RejectLog()))).map((r) => [r.scope1Verified, r.scope2Verified])).toEqual([
      [true, false],
      [false, true],
    ]);
  });

  it('boundary: the consolidated text (alone or joined) → consolidated, exactly the parent text → parent, other text → other, N/A → null', async () => {
    const served = [
      '已完成母公司',
      '已完成合併財務報表之母子公司',
      '"已完成母公司,已完成合併財務報表之母子公司"',
      '本公司為個別公司',
      '"  已完成母公司,台積公司母公司、台積電（中國）\n，不含日本廠 "',
      'N/A',
    ];
    const dir = sourceDir({ [TWSE]: `${HEADER}\n${served.map((b1) => row({ b1 })).join('\n')}\n` });
    expect((await collect(readTwseGhg(dir, new RejectLog()))).map((r) => [r.boundary, r.boundaryText])).toEqual([
      ['parent', '已完成母公司'],
      ['consolidated', '已完成合併財務報表之母子公司'],
      ['consolidated', '已完成母公司,已完成合併財務報表之母子公司'],
      ['other', '本公司為個別公司'],
      ['other', '已完成母公司,台積公司母公司、台積電（中國）\n，不含日本廠'],
      [null, null],
    ]);
  });

  it('reads the MOPS CSV header variant (公噸) and the TPEx intensity key with U+2082, fully quoted with CRLF', async () => {
    const header = HEADER.replace(/\(噸CO2e\)/g, '(公噸CO2e)').replace(
      '溫室氣體排放密集度(噸CO2e/單位)',
      '溫室氣體排放密集度(公噸CO₂e/百萬元營業額)',
    );
    const quoted = (line: string) =>
      line
        .split(',')
        .map((v) => `"${v.replace(/^"|"$/g, '')}"`)
        .join(',');
    const dir = sourceDir({ [TWSE]: `\ufeff${quoted(header)}\r\n${quoted(row({ s1: '12345.6', s2: '2000' }))}\r\n` });
    const rejects = new RejectLog();
    expect(await collect(readTwseGhg(dir, rejects))).toEqual([expected]);
    expect(rejects.count).toBe(0);
  });

  it('ignores unknown columns and maps columns in another order', async () => {
    const header = '範疇二排放量(噸CO2e),備註,範疇一排放量(噸CO2e),公司代號,報告年度,出表日期';
    const dir = sourceDir({ [TWSE]: `${header}\n200,x,100,D1101,114,1150301\n` });
    expect(await collect(readTwseGhg(dir, new RejectLog()))).toEqual([
      { ...expected, scope1: 100, scope2: 200, scope3: null, scope1Verified: false, scope2Verified: false, boundary: null, boundaryText: null },
    ]);
  });

  it('rejects bad rows with file:line: column: reason', async () => {
    const rejects = new RejectLog();
    const dir = sourceDir({
      [TWSE]:
        [HEADER, row(), row({ s1: 'n/a' }), row({ s1: '-1' }), row({ year: 'abc' }), row({ date: '115/02/30' }), row({ v1: '也許' }), row()].join(
          '\n',
        ) + '\n',
    });
    expect(await collect(readTwseGhg(dir, rejects))).toHaveLength(2);
    expect(rejects.format().split('\n')).toEqual([
      't187ap46_L_1.csv:3: 範疇一排放量(噸CO2e): not a non-negative number: "n/a"',
      't187ap46_L_1.csv:4: 範疇一排放量(噸CO2e): not a non-negative number: "-1"',
      't187ap46_L_1.csv:5: 報告年度: not a year (ROC or Gregorian): "abc"',
      't187ap46_L_1.csv:6: 出表日期: not a date (ISO or ROC): "115/02/30"',
      't187ap46_L_1.csv:7: 範疇一取得驗證: not 是/否: "也許"',
    ]);
  });

  it('reads the OpenAPI JSON array (every value a string, a key ending in a space)', async () => {
    const record = {
      出表日期: '1150301',
      報告年度: '114',
      公司代號: 'D1101',
      公司名稱: '示範水泥',
      '範疇一排放量(噸CO2e) ': '12345.6000',
      範疇一資料邊界: '已完成合併財務報表之母子公司',
      範疇一取得驗證: '是',
      '範疇二排放量(噸CO2e)': '2000.0000',
      範疇二資料邊界: '已完成合併財務報表之母子公司',
      範疇二取得驗證: '否',
      '範疇三排放量(噸CO2e)': 'N/A',
      範疇三資料邊界: 'N/A',
      範疇三取得驗證: '否',
      '溫室氣體排放密集度(噸CO2e/單位)': '0.3500',
    };
    const rejects = new RejectLog();
    const dir = sourceDir({ 't187ap46_L_1.json': JSON.stringify([record]) });
    expect(await collect(readTwseGhg(dir, rejects))).toEqual([expected]);
    expect(rejects.count).toBe(0);
  });

  it('a missing required column throws MissingColumnError naming the source, the file and the column', async () => {
    const dir = sourceDir({ [TPEX]: `${HEADER.replace('範疇二排放量(噸CO2e),', '')}\n` });
    const err = await collect(readTpexGhg(dir, new RejectLog())).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MissingColumnError);
    expect((err as Error).message).toContain(`SRC-TPEX-ESG-GHG ${TPEX}`);
    expect((err as Error).message).toContain('範疇二排放量(噸CO2e)');
  });
});

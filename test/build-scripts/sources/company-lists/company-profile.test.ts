import { describe, expect, it } from 'vitest';
import { MissingColumnError, MissingFileError, RejectLog } from '../../../../build-scripts/adapters/read-layout.js';
import type { CompanyRow } from '../../../../build-scripts/sources/company-lists/company-profile.js';
import { readTpexCompanies } from '../../../../build-scripts/sources/company-lists/tpex-company.js';
import { readTwseCompanies } from '../../../../build-scripts/sources/company-lists/twse-company.js';
import { SourceTally } from '../../../../build-scripts/sources/kit/tally.js';
import { collect, fixtureDirs } from '../../adapters/fixture-dir.js';

const sourceDir = fixtureDirs('adapter-companies-');

const TWSE = 't187ap03_L.csv';
const TPEX = 'mopsfin_t187ap03_O.csv';
const ZH_HEADER = '出表日期,公司代號,公司名稱,公司簡稱,外國企業註冊地國,產業別,住址,營利事業統一編號,董事長,實收資本額';
const EN_HEADER =
  'Date,SecuritiesCompanyCode,CompanyName,CompanyAbbreviation,Registration,SecuritiesIndustryCode,Address,UnifiedBusinessNo.,Chairman,Paidin.Capital.NTDollars';
const row = (ticker: string, industry: string, uniformNo: string, capital: string) =>
  `1151030,${ticker},示範水泥股份有限公司,示範泥,－ ,${industry},臺北市某路1號,${uniformNo},王大明,${capital}`;

describe('readTwseCompanies (SRC-TWSE-COMPANY)', () => {
  it('reads a valid file with the Chinese labels', async () => {
    const rejects = new RejectLog();
    const dir = sourceDir({ [TWSE]: `${ZH_HEADER}\n${row('D1101', '01', '12345678', '"32,000,000,000"')}\n${row('d2330', '24', '87654321', '')}\n` });
    expect(await collect(readTwseCompanies(dir, rejects, new SourceTally()))).toEqual<CompanyRow[]>([
      {
        ticker: 'D1101',
        legalName: '示範水泥股份有限公司',
        shortName: '示範泥',
        industryCode: '01',
        industry: '水泥工業',
        uniformNo: '12345678',
        paidInCapital: 32_000_000_000,
        marketType: 'listed',
        listedOn: null,
        sourceId: 'SRC-TWSE-COMPANY',
      },
      {
        ticker: 'D2330',
        legalName: '示範水泥股份有限公司',
        shortName: '示範泥',
        industryCode: '24',
        industry: '半導體業',
        uniformNo: '87654321',
        paidInCapital: null,
        marketType: 'listed',
        listedOn: null,
        sourceId: 'SRC-TWSE-COMPANY',
      },
    ]);
    expect(rejects.count).toBe(0);
  });

  it('pads a one-digit industry code', async () => {
    const dir = sourceDir({ [TWSE]: `${ZH_HEADER}\n${row('D1101', '1', '12345678', '1')}\n` });
    const rows = await collect(readTwseCompanies(dir, new RejectLog(), new SourceTally()));
    expect(rows.map((r) => [r.industryCode, r.industry])).toEqual([['01', '水泥工業']]);
  });

  it('reads the OpenAPI JSON array (keys trimmed), the industry given as a code or as its name', async () => {
    const record = {
      出表日期: '1150731',
      '公司代號 ': '2330',
      公司名稱: '台灣積體電路製造股份有限公司',
      公司簡稱: '台積電',
      產業別: '24',
      營利事業統一編號: '22099131',
      實收資本額: '259325245210',
    };
    const dir = sourceDir({ 't187ap03_L.json': JSON.stringify([record, { ...record, '公司代號 ': '1101', 產業別: '水泥工業' }]) });
    const rows = await collect(readTwseCompanies(dir, new RejectLog(), new SourceTally()));
    expect(rows.map((r) => [r.ticker, r.industryCode, r.industry, r.paidInCapital])).toEqual([
      ['2330', '24', '半導體業', 259_325_245_210],
      ['1101', '01', '水泥工業', 259_325_245_210],
    ]);
  });

  it('maps columns in another order, ignoring unknown ones', async () => {
    const dir = sourceDir({ [TWSE]: `營利事業統一編號,新欄位,產業別,公司簡稱,公司名稱,公司代號\n12345678,x,10,示範鋼,示範鋼鐵股份有限公司,D2002\n` });
    const rows = await collect(readTwseCompanies(dir, new RejectLog(), new SourceTally()));
    expect(rows).toEqual([
      expect.objectContaining({
        ticker: 'D2002',
        uniformNo: '12345678',
        industryCode: '10',
        industry: '鋼鐵工業',
        shortName: '示範鋼',
        paidInCapital: null,
      }),
    ]);
  });

  it('rejects bad rows and keeps the good ones', async () => {
    const rejects = new RejectLog();
    const lines = [
      ZH_HEADER,
      row('D1101', '01', '12345678', '1'), // 2 ok
      row('D1102', '水泥', '12345678', '1'), // 3 neither a code nor a known name
      row('D1103', '01', '123456', '1'), // 4 bad 統一編號
      row('D-1104', '01', '12345678', '1'), // 5 bad ticker
      row('D1105', '01', '12345678', 'lots'), // 6 bad capital
      row('D1106', '01', '12345678', '1'), // 7 ok
    ];
    const dir = sourceDir({ [TWSE]: lines.join('\n') });
    const rows = await collect(readTwseCompanies(dir, rejects, new SourceTally()));
    expect(rows.map((r) => r.ticker)).toEqual(['D1101', 'D1106']);
    expect(rejects.rejects.map((r) => [r.file, r.line])).toEqual([
      [TWSE, 3],
      [TWSE, 4],
      [TWSE, 5],
      [TWSE, 6],
    ]);
    const text = rejects.format();
    expect(text).toContain('t187ap03_L.csv:3: 產業別: not a TWSE industry code (two digits) nor a known industry name');
    expect(text).toContain('t187ap03_L.csv:4: 營利事業統一編號: must be 8 digits (or 7, a lost leading zero)');
    expect(text).toContain('t187ap03_L.csv:5: 公司代號: ');
    expect(text).toContain('t187ap03_L.csv:6: 實收資本額: ');
  });

  it('產業別 91 is a depositary receipt (存託憑證), a company; an unknown code keeps the company, labelled with its code, and warns', async () => {
    const rejects = new RejectLog();
    const tally = new SourceTally();
    const dir = sourceDir({ [TWSE]: [ZH_HEADER, row('9105', '91', '12345678', '1'), row('D1102', '99', '23456789', '1')].join('\n') });
    const rows = await collect(readTwseCompanies(dir, rejects, tally));
    expect(rejects.count).toBe(0);
    expect(rows.map((r) => [r.ticker, r.industryCode, r.industry])).toEqual([
      ['9105', '91', '存託憑證'],
      ['D1102', '99', '產業別 99'],
    ]);
    expect([...tally.of('SRC-TWSE-COMPANY').unknown]).toEqual([['industry code 99 (not in the industry table: kept, labelled 產業別 99)', 1]]);
  });

  it('a seven-digit business ID is padded back to eight and counted', async () => {
    const tally = new SourceTally();
    const rows = await collect(
      readTwseCompanies(sourceDir({ [TWSE]: [ZH_HEADER, row('D1101', '01', '3244509', '1')].join('\n') }), new RejectLog(), tally),
    );
    expect(rows.map((r) => r.uniformNo)).toEqual(['03244509']);
    expect(tally.of('SRC-TWSE-COMPANY').padded).toBe(1);
  });

  it('decodes HTML character references and trims every value, the ideographic space U+3000 included', async () => {
    const json = JSON.stringify([
      {
        出表日期: '1150709',
        公司代號: '6831 ',
        公司名稱: '邁&#33834;科技股份有限公司',
        公司簡稱: '邁&#x842A;\u3000',
        產業別: '24',
        營利事業統一編號: '12345678',
        實收資本額: '1',
      },
    ]);
    const rows = await collect(readTwseCompanies(sourceDir({ 't187ap03_L.json': json }), new RejectLog(), new SourceTally()));
    expect(rows.map((r) => [r.ticker, r.legalName, r.shortName])).toEqual([['6831', '邁\u842a科技股份有限公司', '邁\u842a']]);
  });

  it('the TWSE layout takes Chinese labels only: English keys are a missing column', async () => {
    const dir = sourceDir({ [TWSE]: `${EN_HEADER}\n` });
    const err = await collect(readTwseCompanies(dir, new RejectLog(), new SourceTally())).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MissingColumnError);
    expect((err as Error).message).toContain(TWSE);
    expect((err as Error).message).toContain('公司代號');
    expect((err as Error).message).toContain('SRC-TWSE-COMPANY');
  });

  it('a missing required column names the file and the column', async () => {
    const dir = sourceDir({ [TWSE]: `${ZH_HEADER.replace(',營利事業統一編號', '')}\n` });
    const err = await collect(readTwseCompanies(dir, new RejectLog(), new SourceTally())).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MissingColumnError);
    expect((err as MissingColumnError).file).toBe(TWSE);
    expect((err as MissingColumnError).sourceId).toBe('SRC-TWSE-COMPANY');
    expect((err as Error).message).toMatch(/^SRC-TWSE-COMPANY t187ap03_L\.csv: .*營利事業統一編號/);
  });

  it('a missing file throws MissingFileError', async () => {
    await expect(collect(readTwseCompanies(sourceDir({}), new RejectLog(), new SourceTally()))).rejects.toThrow(MissingFileError);
  });
});

describe('readTpexCompanies (SRC-TPEX-COMPANY)', () => {
  const expected: CompanyRow = {
    ticker: 'D6488',
    legalName: '示範水泥股份有限公司',
    shortName: '示範泥',
    industryCode: '24',
    industry: '半導體業',
    uniformNo: '23456789',
    paidInCapital: 1_500_000_000,
    marketType: 'otc',
    listedOn: null,
    sourceId: 'SRC-TPEX-COMPANY',
  };

  it('reads a file with the English API keys', async () => {
    const rejects = new RejectLog();
    const dir = sourceDir({ [TPEX]: `${EN_HEADER}\n${row('D6488', '24', '23456789', '1500000000')}\n` });
    expect(await collect(readTpexCompanies(dir, rejects, new SourceTally()))).toEqual([expected]);
    expect(rejects.count).toBe(0);
  });

  it('reads a file with the Chinese labels', async () => {
    const dir = sourceDir({ [TPEX]: `\ufeff${ZH_HEADER}\r\n${row('D6488', '24', '23456789', '"1,500,000,000"')}\r\n` });
    expect(await collect(readTpexCompanies(dir, new RejectLog(), new SourceTally()))).toEqual([expected]);
  });

  it('rejects name the TPEx file', async () => {
    const rejects = new RejectLog();
    const dir = sourceDir({ [TPEX]: `${EN_HEADER}\n${row('D6488', '24', 'x', '1')}\n` });
    expect(await collect(readTpexCompanies(dir, rejects, new SourceTally()))).toEqual([]);
    // A reject names the column by the layout's first label: for TPEx, the key as served.
    expect(rejects.format()).toBe('mopsfin_t187ap03_O.csv:2: UnifiedBusinessNo.: must be 8 digits (or 7, a lost leading zero)');
  });

  it('a missing required column names the source, the file and both labels', async () => {
    const dir = sourceDir({ [TPEX]: `${EN_HEADER.replace('CompanyAbbreviation,', '')}\n` });
    const err = await collect(readTpexCompanies(dir, new RejectLog(), new SourceTally())).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MissingColumnError);
    expect((err as Error).message).toContain('SRC-TPEX-COMPANY');
    expect((err as Error).message).toContain(TPEX);
    expect((err as Error).message).toContain('公司簡稱');
    expect((err as Error).message).toContain('CompanyAbbreviation');
  });

  /** One record of mopsfin_t187ap03_O as the TPEx OpenAPI serves it: English keys, `UnifiedBusinessNo.` with its full stop. */
  const served = {
    Date: '1151030',
    SecuritiesCompanyCode: 'D6488',
    CompanyName: '示範水泥股份有限公司',
    CompanyAbbreviation: '示範泥',
    Registration: '－ ',
    SecuritiesIndustryCode: '24',
    Address: '臺北市某路1號',
    'UnifiedBusinessNo.': '23456789',
    Chairman: '王大明',
    'Paidin.Capital.NTDollars': '1500000000',
    Symbol: 'DEMO',
    WebAddress: 'https://example.invalid',
    DateOfListing: '20130430',
  };

  it('reads the OpenAPI JSON with its keys exactly as served, `UnifiedBusinessNo.` with the full stop', async () => {
    const rejects = new RejectLog();
    const dir = sourceDir({
      'mopsfin_t187ap03_O.json': JSON.stringify([served, { ...served, SecuritiesCompanyCode: 'D6489', 'UnifiedBusinessNo.': '34567890' }]),
    });
    const tally = new SourceTally();
    // DateOfListing (AD compact) is the listing date; Date (ROC compact) the publisher's date.
    expect(await collect(readTpexCompanies(dir, rejects, tally))).toEqual([
      { ...expected, listedOn: '2013-04-30' },
      { ...expected, ticker: 'D6489', uniformNo: '34567890', listedOn: '2013-04-30' },
    ]);
    expect(rejects.count).toBe(0);
    expect(tally.of('SRC-TPEX-COMPANY').publisherDate).toBe('2026-10-30');
  });

  it('`UnifiedBusinessNo` without the full stop is not the key served: the file fails naming the key and the source', async () => {
    const { 'UnifiedBusinessNo.': no, ...rest } = served;
    const dir = sourceDir({ 'mopsfin_t187ap03_O.json': JSON.stringify([{ ...rest, UnifiedBusinessNo: no }]) });
    const err = await collect(readTpexCompanies(dir, new RejectLog(), new SourceTally())).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MissingColumnError);
    expect((err as MissingColumnError).file).toBe('mopsfin_t187ap03_O.json');
    expect((err as MissingColumnError).sourceId).toBe('SRC-TPEX-COMPANY');
    expect((err as Error).message).toMatch(
      /^SRC-TPEX-COMPANY mopsfin_t187ap03_O\.json: missing required column or key "UnifiedBusinessNo\. \/ 營利事業統一編號"/,
    );
  });

  it('a CSV copy whose header lacks the full stop fails the same way', async () => {
    const dir = sourceDir({ [TPEX]: `${EN_HEADER.replace('UnifiedBusinessNo.', 'UnifiedBusinessNo')}\n${row('D6488', '24', '23456789', '1')}\n` });
    const err = await collect(readTpexCompanies(dir, new RejectLog(), new SourceTally())).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MissingColumnError);
    expect((err as Error).message).toContain('SRC-TPEX-COMPANY');
    expect((err as Error).message).toContain('"UnifiedBusinessNo. / 營利事業統一編號"');
  });
});

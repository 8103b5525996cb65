import { describe, expect, it } from 'vitest';
import { MissingColumnError, RejectLog, SourceFileError } from '../../../build-scripts/adapters/read-layout.js';
import { readRegistry, type RegistrySiteRow } from '../../../build-scripts/sources/moenv-ghg-registry.js';
import { collect, fixtureDirs } from '../adapters/fixture-dir.js';

const FILE = 'GHG_P_01.csv';
const fixtureDir = fixtureDirs('source-registry-');
const read = (content: string, rejects = new RejectLog()): Promise<RegistrySiteRow[]> => collect(readRegistry(fixtureDir({ [FILE]: content }), rejects));

const API_HEADER = 'app_year,companyno,companyname,city,town,sicname1,ccksicco1,cause,co2,ch4,n2o,tot,tot2';
const ZH_HEADER = '年度,統一編號,公司名稱,縣市,鄉鎮,行業名稱,行業代碼,列管原因,直接排放,能源間接排放,排放總量(公噸CO2e)';

describe('readRegistry (SRC-MOENV-GHG_P_01)', () => {
  it('reads a file with the API keys', async () => {
    const rejects = new RejectLog();
    const rows = await read(
      `${API_HEADER}\n113,12345678,示範水泥,花蓮縣,新城鄉,水泥製造業,2650,排放源,"1,200,000.5",10,5,"1,200,015.5","30,000"\n114,12345678,示範水泥,花蓮縣,新城鄉,水泥製造業,C2650,,1,1,1,"25,000",0\n`,
      rejects,
    );
    expect(rows).toEqual([
      { year: 2024, uniformNo: '12345678', industryCode: '2650', direct: 1_200_015.5, indirect: 30_000 },
      { year: 2025, uniformNo: '12345678', industryCode: '2650', direct: 25_000, indirect: 0 },
    ]);
    expect(rejects.count).toBe(0);
  });

  it('reads a file with the Chinese labels', async () => {
    const rows = await read(`\ufeff${ZH_HEADER}\r\n113,87654321,示範電力,臺中市,龍井區,電力供應業,3510,,"20,000,000","1,000","20,001,000"\r\n`);
    expect(rows).toEqual([{ year: 2024, uniformNo: '87654321', industryCode: '3510', direct: 20_000_000, indirect: 1_000 }]);
  });

  it('ignores unknown columns and maps columns in another order', async () => {
    const rows = await read(`tot2,foo,tot,ccksicco1,companyno,app_year\n5,bar,7,2411,12345678,2024\n`);
    expect(rows).toEqual([{ year: 2024, uniformNo: '12345678', industryCode: '2411', direct: 7, indirect: 5 }]);
  });

  it('rejects bad rows with file:line: column: reason', async () => {
    const rejects = new RejectLog();
    const rows = await read(
      [
        'app_year,companyno,ccksicco1,tot,tot2',
        '113,12345678,2411,1,1', // 2 ok
        'xyz,12345678,2411,1,1', // 3 year
        '113,1234,2411,1,1', // 4 統一編號
        '113,12345678,steel,1,1', // 5 industry code
        '113,12345678,2411,,1', // 6 direct empty
        '113,12345678,2411,1,-3', // 7 indirect negative
        '113,12345678,2411,1,1', // 8 ok
      ].join('\n'),
      rejects,
    );
    expect(rows).toHaveLength(2);
    expect(rejects.format().split('\n')).toEqual([
      'GHG_P_01.csv:3: 年度: not a year (ROC or Gregorian): "xyz"',
      'GHG_P_01.csv:4: 統一編號: must be 8 digits',
      'GHG_P_01.csv:5: 行業代碼: not an industry code',
      'GHG_P_01.csv:6: 直接排放: must not be empty',
      'GHG_P_01.csv:7: 能源間接排放: not a non-negative number: "-3"',
    ]);
  });

  it('a missing required column throws MissingColumnError naming the source, the file and the column', async () => {
    const err = await read(`app_year,companyno,ccksicco1,tot\n`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MissingColumnError);
    expect((err as Error).message).toContain(`SRC-MOENV-GHG_P_01 ${FILE}`);
    expect((err as Error).message).toContain('tot2');
    expect((err as Error).message).toContain('能源間接排放');
  });
});

/** One site-year as MOENV open data v2 serves GHG_P_01 (`format=json`): API keys, every value a string. */
const site = (over: Record<string, string> = {}) => ({
  app_year: '113', companyno: '12345678', companyname: '示範水泥', city: '花蓮縣', town: '新城鄉', sicname1: '水泥製造業',
  ccksicco1: 'C2650', cause: '排放源', co2: '1', ch4: '0', n2o: '0', tot: '30000', tot2: '5000', ...over,
});

describe('readRegistry over the pages a fetch keeps (GHG_P_01.0001.json, …)', () => {
  const dir = (files: Record<string, string>) => fixtureDir(files);

  it('reads every page in page order, as a {records} answer or an array', async () => {
    const rejects = new RejectLog();
    const rows = await collect(
      readRegistry(
        dir({
          'GHG_P_01.0002.json': JSON.stringify([site({ app_year: '114', tot: '2' })]),
          'GHG_P_01.0001.json': JSON.stringify({ fields: [{ id: 'app_year', type: 'text' }], records: [site({ tot: '1' })] }),
          'EMS_P_46.0001.json': 'not read by this source',
        }),
        rejects,
      ),
    );
    expect(rows).toEqual([
      { year: 2024, uniformNo: '12345678', industryCode: '2650', direct: 1, indirect: 5000 },
      { year: 2025, uniformNo: '12345678', industryCode: '2650', direct: 2, indirect: 5000 },
    ]);
    expect(rejects.count).toBe(0);
  });

  it('keeps a row equal to another (the registry has no record id: two sites may state the same figures)', async () => {
    const rows = await collect(readRegistry(dir({ 'GHG_P_01.0001.json': JSON.stringify([site()]), 'GHG_P_01.0002.json': JSON.stringify([site()]) }), new RejectLog()));
    expect(rows).toHaveLength(2);
    expect(rows[0]).toEqual(rows[1]);
  });

  it('a reject names the page file and the record', async () => {
    const rejects = new RejectLog();
    const rows = await collect(readRegistry(dir({ 'GHG_P_01.0001.json': JSON.stringify([site()]), 'GHG_P_01.0002.json': JSON.stringify([site({ companyno: '1234' }), site()]) }), rejects));
    expect(rows).toHaveLength(2);
    expect(rejects.format()).toBe('GHG_P_01.0002.json:record 1: 統一編號: must be 8 digits');
  });

  it('pages beside a hand-placed copy are refused naming the source and both files', async () => {
    const err = await collect(readRegistry(dir({ 'GHG_P_01.0001.json': JSON.stringify([site()]), [FILE]: `${API_HEADER}\n` }), new RejectLog())).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SourceFileError);
    expect((err as Error).message).toBe('SRC-MOENV-GHG_P_01: GHG_P_01.0001.json and GHG_P_01.csv are two forms of one source in one folder; keep one');
  });
});

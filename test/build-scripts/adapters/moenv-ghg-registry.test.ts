import { describe, expect, it } from 'vitest';
import { readRegistry } from '../../../build-scripts/adapters/moenv-ghg-registry.js';
import { MissingColumnError, RejectLog } from '../../../build-scripts/adapters/read-layout.js';
import { fixtureDirs } from './fixture-dir.js';

const FILE = 'GHG_P_01.csv';
const fixtureDir = fixtureDirs('adapter-registry-');
const sourceDir = (content: string) => fixtureDir(content === null ? {} : { [FILE]: content });
async function read(content: string, rejects = new RejectLog()) {
  const out = [];
  for await (const r of readRegistry(sourceDir(content), rejects)) out.push(r);
  return out;
}

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

  it('a missing required column throws MissingColumnError naming the file and the column', async () => {
    const err = await read(`app_year,companyno,ccksicco1,tot\n`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MissingColumnError);
    expect((err as Error).message).toContain(FILE);
    expect((err as Error).message).toContain('tot2');
    expect((err as Error).message).toContain('能源間接排放');
  });
});

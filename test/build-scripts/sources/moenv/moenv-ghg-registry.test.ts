import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MissingColumnError, RejectLog, SourceFileError } from '../../../../build-scripts/adapters/read-layout.js';
import { readRegistry, type RegistrySiteRow } from '../../../../build-scripts/sources/moenv/moenv-ghg-registry.js';
import { SourceTally } from '../../../../build-scripts/sources/kit/tally.js';
import { collect, fixtureDirs } from '../../adapters/fixture-dir.js';

const FILE = 'GHG_P_01.csv';
const fixtureDir = fixtureDirs('source-registry-');
const read = (content: string, rejects = new RejectLog(), tally = new SourceTally()): Promise<RegistrySiteRow[]> =>
  collect(readRegistry(fixtureDir({ [FILE]: content }), rejects, tally));

/** The genuine answer's header (shared/genuine/SRC-MOENV-GHG_P_01/ghg_p_01.csv), byte-order mark included. */
const API_HEADER =
  '\ufeffapp_year,companyno,companyname,scompanyno,controlno,city,town,companyaddr,ccksicco1,sicname1,co2,ch4,n2o,hfcs,pfcs,sf6,nf3,tot2,tot,cause,check_yn,cityno,townno';
const ZH_HEADER = '年度,統一編號,公司名稱,縣市,鄉鎮,行業名稱,行業代碼,列管原因,能源間接排放量,合計排放量(公噸CO2e)';

/**
 * The header of copies of 2021 (shared/spec/sources.md, "GHG_P_01 across four dates"): `App_year`,
 * `CO2` and `Tot2` in that case, no `cityno`/`townno` yet; their `nf3` is the string `None`.
 */
const HEADER_2021 =
  '\ufeffApp_year,companyno,companyname,scompanyno,controlno,city,town,companyaddr,ccksicco1,sicname1,CO2,ch4,n2o,hfcs,pfcs,sf6,nf3,Tot2,tot,cause,check_yn';

describe('readRegistry (SRC-MOENV-GHG_P_01)', () => {
  it('tot is the site total (the seven gases plus tot2): direct is tot − tot2, never tot', async () => {
    const rejects = new RejectLog();
    // A genuine row of ROC 111 (中華凸版電子, site 0001), figures as served.
    const rows = await read(
      `${API_HEADER}\n111,16083358,中華凸版電子股份有限公司,0001,H4903093,桃園市,八德區,桃園市八德區和平路11273號,2611,積體電路製造業,186.1808,0.3500,1.1622,4.6124,4050.5996,11.8560,0.00,17366.7953,21621.556,依法申報,是,,\n`,
      rejects,
    );
    expect(rejects.format()).toBe('');
    expect(rows).toHaveLength(1);
    const [r] = rows;
    expect(r).toMatchObject({ year: 2022, uniformNo: '16083358', industryCode: '2611', indirect: 17366.7953, total: 21621.556 });
    expect(r!.direct).toBeCloseTo(21621.556 - 17366.7953, 6);
    expect(r!.direct + r!.indirect).toBeCloseTo(r!.total, 6);
  });

  it('reads a copy of 2021 (headers App_year, CO2, Tot2; nf3 None) with no rejects and the right totals', async () => {
    const rejects = new RejectLog();
    const rows = await read(
      [
        HEADER_2021,
        // The genuine row of 中華凸版電子 above, as a 2021 copy serves it: its nf3 None counts as 0 in the sum.
        '110,16083358,中華凸版電子股份有限公司,0001,H4903093,桃園市,八德區,桃園市八德區和平路11273號,2611,積體電路製造業,186.1808,0.3500,1.1622,4.6124,4050.5996,11.8560,None,17366.7953,21621.556,依法申報,是',
        '110,12345678,示範水泥,0001,U1234567,花蓮縣,新城鄉,花蓮縣新城鄉,2650,水泥製造業,25000.0000,1.0000,2.0000,0.0000,0.0000,0.0000,None,5000.0000,30003.000,依法申報,是',
      ].join('\r\n'),
      rejects,
    );
    expect(rejects.format()).toBe('');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ year: 2021, uniformNo: '16083358', industryCode: '2611', indirect: 17366.7953, total: 21621.556 });
    expect(rows[0]!.direct).toBeCloseTo(21621.556 - 17366.7953, 6);
    expect(rows[1]).toEqual({ year: 2021, uniformNo: '12345678', industryCode: '2650', direct: 25003, indirect: 5000, total: 30003 });
  });

  it('None means 0 in the gas columns only: a tot2 of None is refused, and a None gas still counts in the check', async () => {
    const rejects = new RejectLog();
    const rows = await read(
      [
        'app_year,companyno,ccksicco1,co2,ch4,n2o,hfcs,pfcs,sf6,nf3,tot2,tot',
        '111,12345678,2411,None,None,None,None,None,None,None,50,50', // 2 ok: no gas at all
        '111,12345678,2411,100,0,0,0,0,0,0,None,100', // 3 tot2 is no gas
        '111,12345678,2411,None,0,0,0,0,0,0,50,150', // 4 co2 None is 0, so tot is not the gases plus tot2
      ].join('\n'),
      rejects,
    );
    expect(rows).toEqual([{ year: 2022, uniformNo: '12345678', industryCode: '2411', direct: 0, indirect: 50, total: 50 }]);
    expect(rejects.format().split('\n')).toEqual([
      'GHG_P_01.csv:3: 能源間接排放量: not a non-negative number: "None"',
      'GHG_P_01.csv:4: 合計排放量(公噸CO2e): tot 150 is not the gases (0) plus tot2 (50): has the publisher changed what tot means?',
    ]);
  });

  it('a column given twice in two cases (CO2 and co2) is refused: which one is meant cannot be told', async () => {
    const err = await read('app_year,companyno,ccksicco1,CO2,co2,tot2,tot\n111,12345678,2411,1,2,1,2\n').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SourceFileError);
    expect((err as Error).message).toBe('SRC-MOENV-GHG_P_01 GHG_P_01.csv: column "co2" appears twice in the header');
  });

  it('the genuine answer (test/fixtures/genuine, 3,140 site-years) still reads with no rejects', async () => {
    const genuine = readFileSync(join(import.meta.dirname, '../../../fixtures/genuine/SRC-MOENV-GHG_P_01/ghg_p_01.csv'), 'utf8');
    const rejects = new RejectLog();
    const rows = await read(genuine, rejects);
    expect(rejects.format()).toBe('');
    expect(rows).toHaveLength(3140);
  });

  it('reads a copy with the Chinese labels', async () => {
    const rows = await read(`\ufeff${ZH_HEADER}\r\n113,87654321,示範電力,臺中市,龍井區,電力供應業,3510,,"1,000","20,001,000"\r\n`);
    expect(rows).toEqual([{ year: 2024, uniformNo: '87654321', industryCode: '3510', direct: 20_000_000, indirect: 1_000, total: 20_001_000 }]);
  });

  it('ignores unknown columns and maps columns in another order', async () => {
    const rows = await read(`tot2,foo,tot,ccksicco1,companyno,app_year\n5,bar,7,2411,12345678,2024\n`);
    expect(rows).toEqual([{ year: 2024, uniformNo: '12345678', industryCode: '2411', direct: 2, indirect: 5, total: 7 }]);
  });

  it('a seven-digit business ID is the eight-digit one that lost its leading zero: padded, and counted', async () => {
    const tally = new SourceTally();
    const rows = await read('app_year,companyno,ccksicco1,tot,tot2\n110,3795904,3510,10,1\n111,03795904,3510,10,1\n', new RejectLog(), tally);
    expect(rows.map((r) => r.uniformNo)).toEqual(['03795904', '03795904']);
    expect(tally.of('SRC-MOENV-GHG_P_01').padded).toBe(1);
  });

  it('a total that is not the gases plus tot2 fails the row, saying what tot should be', async () => {
    const rejects = new RejectLog();
    const header = 'app_year,companyno,ccksicco1,co2,ch4,n2o,hfcs,pfcs,sf6,nf3,tot2,tot';
    // Row 3 serves tot as the direct part alone (what the old mapping assumed): a changed form.
    const rows = await read(`${header}\n111,12345678,2411,100,0,0,0,0,0,0,50,150.01\n111,12345678,2411,100,0,0,0,0,0,0,50,100\n`, rejects);
    expect(rows).toHaveLength(1);
    expect(rejects.format()).toBe(
      'GHG_P_01.csv:3: 合計排放量(公噸CO2e): tot 100 is not the gases (100) plus tot2 (50): has the publisher changed what tot means?',
    );
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
        '113,12345678,2411,,1', // 6 total empty
        '113,12345678,2411,1,-3', // 7 indirect negative
        '113,12345678,2411,1,2', // 8 total below indirect
        '113,12345678,2411,1,1', // 9 ok
      ].join('\n'),
      rejects,
    );
    expect(rows).toHaveLength(2);
    expect(rejects.format().split('\n')).toEqual([
      'GHG_P_01.csv:3: 年度: not a year (ROC or Gregorian): "xyz"',
      'GHG_P_01.csv:4: 統一編號: must be 8 digits (or 7, a lost leading zero)',
      'GHG_P_01.csv:5: 行業代碼: not an industry code',
      'GHG_P_01.csv:6: 合計排放量(公噸CO2e): must not be empty',
      'GHG_P_01.csv:7: 能源間接排放量: not a non-negative number: "-3"',
      'GHG_P_01.csv:8: 合計排放量(公噸CO2e): total 1 is below the energy-indirect 2: is tot still the site total (gases + tot2)?',
    ]);
  });

  it('a missing required column throws MissingColumnError naming the source, the file and the column', async () => {
    const err = await read(`app_year,companyno,ccksicco1,tot\n`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MissingColumnError);
    expect((err as Error).message).toContain(`SRC-MOENV-GHG_P_01 ${FILE}`);
    expect((err as Error).message).toContain('tot2');
    expect((err as Error).message).toContain('能源間接排放量');
  });
});

/** One site-year as MOENV open data v2 serves GHG_P_01 (`format=json`): API keys, every value a string. */
const site = (over: Record<string, string> = {}) => ({
  app_year: '113',
  companyno: '12345678',
  companyname: '示範水泥',
  city: '花蓮縣',
  town: '新城鄉',
  sicname1: '水泥製造業',
  ccksicco1: 'C2650',
  cause: '排放源',
  co2: '25000',
  ch4: '0',
  n2o: '0',
  tot2: '5000',
  tot: '30000',
  ...over,
});

describe('readRegistry over the pages a fetch keeps (GHG_P_01.0001.json, …)', () => {
  const dir = (files: Record<string, string>) => fixtureDir(files);
  const pages = (files: Record<string, string>, rejects = new RejectLog()) => collect(readRegistry(dir(files), rejects, new SourceTally()));

  it('reads every page in page order, as a {records} answer or an array', async () => {
    const rejects = new RejectLog();
    const rows = await pages(
      {
        'GHG_P_01.0002.json': JSON.stringify([site({ app_year: '114', co2: '2', tot: '5002' })]),
        'GHG_P_01.0001.json': JSON.stringify({ fields: [{ id: 'app_year', type: 'text' }], records: [site({ co2: '1', tot: '5001' })] }),
        'EMS_P_46.0001.json': 'not read by this source',
      },
      rejects,
    );
    expect(rows).toEqual([
      { year: 2024, uniformNo: '12345678', industryCode: '2650', direct: 1, indirect: 5000, total: 5001 },
      { year: 2025, uniformNo: '12345678', industryCode: '2650', direct: 2, indirect: 5000, total: 5002 },
    ]);
    expect(rejects.count).toBe(0);
  });

  it('reads pages whose keys are in the case of 2021 (App_year, CO2, Tot2) and whose nf3 is None', async () => {
    const rejects = new RejectLog();
    const { app_year, co2, tot2, ...rest } = site({ tot: '30000' });
    const rows = await pages({ 'GHG_P_01.0001.json': JSON.stringify([{ ...rest, App_year: app_year, CO2: co2, Tot2: tot2, nf3: 'None' }]) }, rejects);
    expect(rejects.format()).toBe('');
    expect(rows).toEqual([{ year: 2024, uniformNo: '12345678', industryCode: '2650', direct: 25000, indirect: 5000, total: 30000 }]);
  });

  it('keeps a row equal to another (the registry has no record id: two sites may state the same figures)', async () => {
    const rows = await pages({ 'GHG_P_01.0001.json': JSON.stringify([site()]), 'GHG_P_01.0002.json': JSON.stringify([site()]) });
    expect(rows).toHaveLength(2);
    expect(rows[0]).toEqual(rows[1]);
  });

  it('a reject names the page file and the record', async () => {
    const rejects = new RejectLog();
    const rows = await pages(
      { 'GHG_P_01.0001.json': JSON.stringify([site()]), 'GHG_P_01.0002.json': JSON.stringify([site({ companyno: '1234' }), site()]) },
      rejects,
    );
    expect(rows).toHaveLength(2);
    expect(rejects.format()).toBe('GHG_P_01.0002.json:record 1: 統一編號: must be 8 digits (or 7, a lost leading zero)');
  });

  it('pages beside a hand-placed copy are refused naming the source and both files', async () => {
    const err = await pages({ 'GHG_P_01.0001.json': JSON.stringify([site()]), [FILE]: `${API_HEADER}\n` }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SourceFileError);
    expect((err as Error).message).toBe(
      'SRC-MOENV-GHG_P_01: GHG_P_01.0001.json and GHG_P_01.csv are two forms of one source in one folder; keep one',
    );
  });
});

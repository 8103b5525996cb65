import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { MissingColumnError, RejectLog, SourceFileError } from '../../../../build-scripts/adapters/read-layout.js';
import { readPenalties, type PenaltyRow } from '../../../../build-scripts/sources/moenv/moenv-penalties.js';
import { SourceTally } from '../../../../build-scripts/sources/kit/tally.js';
import { collect, fixtureDirs } from '../../adapters/fixture-dir.js';

const FILE = 'EMS_P_46.csv';
const SOURCE = 'SRC-MOENV-EMS_P_46';
const fixtureDir = fixtureDirs('source-penalties-');
const sourceDir = (content: string | null) => fixtureDir(content === null ? {} : { [FILE]: content });
async function read(content: string | null, rejects = new RejectLog(), tally = new SourceTally()): Promise<PenaltyRow[]> {
  return collect(readPenalties(sourceDir(content), rejects, tally));
}

const API_HEADER =
  'ems_no,fac_name,fac_uniformno,county_name,document_no,transgress_date,transgress_law,transgress_type,openinfor,penalty_date,penalty_money,gist_define,subject,penaltykind,illegal_money,isimportant,improve_deadline,is_improve,ispetition,petition_results,paymentstate,fac_address,transgress_address,transgress_name';
const ZH_HEADER =
  '管制事業編號,事業名稱,統一編號,裁處機關,裁處書字號,違反時間,違反法令,污染類別,違反事實,裁處時間,裁處金額,裁處理由及法令,主旨,其他處罰方式,不法利得,情節重大,限改日期,改善完妥與否,是否訴願訴訟,訴願訴訟結果,罰鍰是否繳清,fac_address,transgress_address,違規人名稱';

/** A full-width row in the publisher's column order. */
function fullRow(
  o: {
    uniformNo?: string;
    agency?: string;
    doc?: string;
    date?: string;
    money?: string;
    serious?: string;
    facts?: string;
    subject?: string;
    law?: string;
  } = {},
): string {
  const cells = [
    'A1234567',
    '示範工廠',
    o.uniformNo ?? '12345678',
    o.agency ?? '臺北市政府環境保護局',
    o.doc ?? '北市環稽字第1130001號',
    '113/04/01',
    o.law ?? '空氣污染防制法第24條',
    '空氣',
    o.facts ?? '未依許可證內容操作',
    o.date ?? '113/05/21',
    o.money ?? '"1,200,000"',
    '依法裁處',
    o.subject ?? '主旨文字',
    '',
    '',
    o.serious ?? '否',
    '113/06/30',
    '是',
    '否',
    '',
    '是',
    '臺北市某路1號',
    '臺北市某路1號',
    '示範公司',
  ];
  return cells.join(',');
}

const expected: PenaltyRow = {
  uniformNo: '12345678',
  recordId: '北市環稽字第1130001號',
  agency: 'TPE-EPB',
  agencyName: '臺北市政府環境保護局',
  date: '2024-05-21',
  fine: 1_200_000,
  serious: false,
  summary: '未依許可證內容操作',
};

describe('readPenalties (SRC-MOENV-EMS_P_46)', () => {
  it('reads a file with the API-key header', async () => {
    const rejects = new RejectLog();
    expect(await read(`${API_HEADER}\n${fullRow()}\n`, rejects)).toEqual([expected]);
    expect(rejects.count).toBe(0);
  });

  it('reads a file with the Chinese-label header', async () => {
    const rejects = new RejectLog();
    expect(await read(`${ZH_HEADER}\n${fullRow()}\n`, rejects)).toEqual([expected]);
    expect(rejects.count).toBe(0);
  });

  it('reads a file with a BOM and CRLF line ends', async () => {
    expect(await read(`\ufeff${ZH_HEADER}\r\n${fullRow()}\r\n`)).toEqual([expected]);
  });

  it('reads only the required columns, in another order, with unknown extra columns ignored', async () => {
    const header = 'extra_col,penalty_money,isimportant,penalty_date,document_no,county_name,fac_uniformno,另一欄';
    const row = 'zzz,"1,200,000",否,113/05/21,北市環稽字第1130001號,臺北市政府環境保護局,12345678,yyy';
    expect(await read(`${header}\n${row}\n`)).toEqual([{ ...expected, summary: '(no summary in source)' }]);
  });

  it('accepts a header mixing Chinese labels and API keys', async () => {
    const header = '統一編號,county_name,裁處書字號,penalty_date,裁處金額,isimportant,違反事實';
    expect(await read(`${header}\n12345678,臺北市政府環境保護局,北市環稽字第1130001號,2024-05-21,1200000,否,未依許可證內容操作\n`)).toEqual([
      expected,
    ]);
  });

  it('trims spaces around header names', async () => {
    const header = ' fac_uniformno , county_name,document_no ,penalty_date,penalty_money,isimportant';
    const rows = await read(`${header}\n12345678,臺北市政府環境保護局,北市環稽字第1130001號,113/05/21,"1,200,000",否\n`);
    expect(rows).toEqual([{ ...expected, summary: '(no summary in source)' }]);
  });

  it.each(['113/05/21', '1130521', '113-05-21', '2024-05-21', '2024/05/21', '20240521', '113/05/21 10:00:00'])(
    'penalty date %j → 2024-05-21',
    async (date) => {
      const rows = await read(`${API_HEADER}\n${fullRow({ date })}\n`);
      expect(rows.map((r) => r.date)).toEqual(['2024-05-21']);
    },
  );

  it.each(['113/02/30', 'abc', ''])('penalty date %j is a reject', async (date) => {
    const rejects = new RejectLog();
    expect(await read(`${API_HEADER}\n${fullRow({ date })}\n`, rejects)).toEqual([]);
    expect(rejects.format()).toMatch(/^EMS_P_46\.csv:2: 裁處時間: not a date/);
  });

  it('reads seriousness 是/否/Y/N', async () => {
    const rows = await read(`${API_HEADER}\n${['是', '否', 'Y', 'N', ''].map((serious, i) => fullRow({ serious, doc: `D${i}` })).join('\n')}\n`);
    expect(rows.map((r) => r.serious)).toEqual([true, false, true, false, false]);
  });

  it('maps the agency to a short code (臺/台 alike, ministry and its former name)', async () => {
    const agencies = ['臺北市政府環境保護局', '台中市政府環境保護局', '高雄市政府環境保護局', '環境部', '行政院環境保護署', '新竹縣政府環境保護局'];
    const rows = await read(`${API_HEADER}\n${agencies.map((agency, i) => fullRow({ agency, doc: `D${i}` })).join('\n')}\n`);
    expect(rows.map((r) => r.agency)).toEqual(['TPE-EPB', 'TXG-EPB', 'KHH-EPB', 'MOENV', 'MOENV', 'HSQ-EPB']);
    expect(rows[1]!.agencyName).toBe('台中市政府環境保護局');
  });

  it('an agency the table does not know keeps its record, named as served, and is counted as a warning', async () => {
    const rejects = new RejectLog();
    const tally = new SourceTally();
    // 桃環處 decides 21 of the genuine page's 1,000 penalties.
    const rows = await read(
      `${API_HEADER}\n${fullRow({ agency: '桃環處', doc: 'D1' })}\n${fullRow({ agency: '桃環處', doc: 'D2' })}\n`,
      rejects,
      tally,
    );
    expect(rejects.count).toBe(0);
    expect(rows.map((r) => [r.agency, r.agencyName])).toEqual([
      ['桃環處', '桃環處'],
      ['桃環處', '桃環處'],
    ]);
    expect([...tally.of(SOURCE).unknown]).toEqual([['agency "桃環處" (not in the agency table: kept as named)', 2]]);
  });

  it('a record with no business ID (a vehicle, a person) is read and links to no company; seven digits are padded and counted', async () => {
    const rejects = new RejectLog();
    const tally = new SourceTally();
    const rows = await read(
      `${API_HEADER}\n${fullRow({ uniformNo: '', doc: 'D1' })}\n${fullRow({ uniformNo: '4541302', doc: 'D2' })}\n`,
      rejects,
      tally,
    );
    expect(rejects.count).toBe(0);
    expect(rows.map((r) => r.uniformNo)).toEqual([null, '04541302']);
    expect(tally.of(SOURCE).padded).toBe(1);
  });

  it('summary falls back from 違反事實 to 主旨 to 違反法令', async () => {
    const rows = await read(
      `${API_HEADER}\n${[fullRow({ facts: '事實', doc: 'D1' }), fullRow({ facts: '', subject: '主旨', doc: 'D2' }), fullRow({ facts: '', subject: '', law: '法令', doc: 'D3' }), fullRow({ facts: '', subject: '', law: '', doc: 'D4' })].join('\n')}\n`,
    );
    expect(rows.map((r) => r.summary)).toEqual(['事實', '主旨', '法令', '(no summary in source)']);
  });

  it('reads amounts with thousands separators and trims the 統一編號', async () => {
    const rows = await read(`${API_HEADER}\n${fullRow({ money: '"100,000,000"', uniformNo: ' 04541302 ' })}\n${fullRow({ money: '0', doc: 'x' })}\n`);
    expect(rows.map((r) => [r.uniformNo, r.fine])).toEqual([
      ['04541302', 100_000_000],
      ['12345678', 0],
    ]);
  });

  it('rejects bad rows as file:line: column: reason and still yields the good ones', async () => {
    const rejects = new RejectLog();
    const lines = [
      API_HEADER,
      fullRow({ doc: 'good-2' }), // line 2
      fullRow({ money: 'abc' }), // line 3
      fullRow({ uniformNo: '123456' }), // line 4
      fullRow({ uniformNo: '12ab5678' }), // line 5
      fullRow({ money: '' }), // line 6
      fullRow({ serious: '也許' }), // line 7
      fullRow({ doc: '' }), // line 8
      'too,few,fields', // line 9
      fullRow({ doc: 'good-10' }), // line 10
    ];
    const rows = await read(lines.join('\n') + '\n', rejects);
    expect(rows.map((r) => r.recordId)).toEqual(['good-2', 'good-10']);
    expect(rejects.count).toBe(7);
    expect(rejects.countFor(FILE)).toBe(7);
    expect(rejects.countFor('other.csv')).toBe(0);
    expect(rejects.format().split('\n')).toEqual([
      'EMS_P_46.csv:3: 裁處金額: not a non-negative number: "abc"',
      'EMS_P_46.csv:4: 統一編號: must be 8 digits (or 7, a lost leading zero)',
      'EMS_P_46.csv:5: 統一編號: must be 8 digits (or 7, a lost leading zero)',
      'EMS_P_46.csv:6: 裁處金額: must not be empty',
      'EMS_P_46.csv:7: 情節重大: not 是/否: "也許"',
      'EMS_P_46.csv:8: 裁處書字號: must not be empty',
      'EMS_P_46.csv:9: expected 24 fields, found 3',
    ]);
    expect(rejects.format(2).split('\n')).toEqual([
      'EMS_P_46.csv:3: 裁處金額: not a non-negative number: "abc"',
      'EMS_P_46.csv:4: 統一編號: must be 8 digits (or 7, a lost leading zero)',
      '… and 5 more',
    ]);
    expect(rejects.rejects[0]).toEqual({ file: FILE, line: 3, reason: '裁處金額: not a non-negative number: "abc"' });
  });

  it('reports physical line numbers: a quoted multi-line field shifts the bad row', async () => {
    const rejects = new RejectLog();
    const multi = fullRow({ facts: '"第一行\n第二行\n第三行"', doc: 'multi' }); // lines 2–4
    const rows = await read(`${API_HEADER}\n${multi}\n${fullRow({ money: 'abc' })}\n`, rejects);
    expect(rows.map((r) => r.summary)).toEqual(['第一行\n第二行\n第三行']);
    expect(rejects.format()).toContain('EMS_P_46.csv:5: 裁處金額');
    expect(rejects.rejects.map((r) => r.line)).toEqual([5]);
  });

  it('counts skipped blank lines in line numbers', async () => {
    const rejects = new RejectLog();
    await read(`${API_HEADER}\n\n${fullRow()}\n\n${fullRow({ money: 'x' })}\n`, rejects);
    expect(rejects.rejects.map((r) => r.line)).toEqual([5]);
  });

  it('a file missing a required column throws MissingColumnError naming the source, the file and the column', async () => {
    const header = API_HEADER.replace('penalty_money,', '');
    const row = fullRow().replace(',"1,200,000"', '');
    const err = await read(`${header}\n${row}\n`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MissingColumnError);
    expect((err as MissingColumnError).file).toBe(FILE);
    expect((err as MissingColumnError).sourceId).toBe(SOURCE);
    expect((err as Error).message).toContain('SRC-MOENV-EMS_P_46 EMS_P_46.csv');
    expect((err as Error).message).toContain('裁處金額');
    expect((err as Error).message).toContain('penalty_money');
  });

  it.each([
    ['統一編號', 'fac_uniformno'],
    ['情節重大', 'isimportant'],
    ['裁處機關', 'county_name'],
  ])('missing %s / %s throws MissingColumnError', async (zh, api) => {
    const header = API_HEADER.split(',')
      .filter((h) => h !== api)
      .join(',');
    await expect(read(`${header}\n`)).rejects.toThrow(MissingColumnError);
    await expect(read(`${header}\n`)).rejects.toThrow(zh);
  });

  it('an empty file throws MissingColumnError; a folder without the source yields nothing (its assertions judge an empty source)', async () => {
    await expect(read('')).rejects.toThrow(MissingColumnError);
    const rejects = new RejectLog();
    expect(await read(null, rejects)).toEqual([]);
    expect(rejects.count).toBe(0);
  });

  it('a header-only file yields nothing', async () => {
    const rejects = new RejectLog();
    expect(await read(`${API_HEADER}\n`, rejects)).toEqual([]);
    expect(rejects.count).toBe(0);
  });

  it("streams a 20,000-row file (rejects keep their line numbers across the stream's chunks)", async () => {
    const rows = 20_000;
    const parts: string[] = ['fac_uniformno,county_name,document_no,penalty_date,penalty_money,isimportant,openinfor'];
    for (let i = 0; i < rows; i++) {
      const bad = i % 5_000 === 4_999;
      parts.push(
        `${String(10_000_000 + (i % 90_000_000)).padStart(8, '0')},臺南市政府環境保護局,南市環字第${i}號,${bad ? '113/02/30' : `1${String(10 + (i % 5))}/0${1 + (i % 9)}/1${i % 10}`},"${(i % 1000) * 1000}",${i % 97 === 0 ? '是' : '否'},事實${i}`,
      );
    }
    const dir = sourceDir(parts.join('\n') + '\n');
    const rejects = new RejectLog();
    let count = 0;
    let fines = 0;
    let serious = 0;
    for await (const r of readPenalties(dir, rejects, new SourceTally())) {
      count++;
      fines += r.fine;
      if (r.serious) serious++;
    }
    expect(count).toBe(rows - 4);
    expect(rejects.count).toBe(4);
    expect(rejects.rejects.map((r) => r.line)).toEqual([5_001, 10_001, 15_001, 20_001]);
    expect(serious).toBe(Array.from({ length: rows }, (_, i) => i).filter((i) => i % 97 === 0 && i % 5_000 !== 4_999).length);
    expect(fines).toBeGreaterThan(0);
    // No bound on its time here: tests check behaviour; the bench times the stages, and
    // test/build-scripts/adapters/hostile-files-memory.test.ts bounds the memory.
  });
});

/** One decision as MOENV open data v2 serves it (`format=json`): API keys, every value a string. */
const record = (doc: string, over: Record<string, string> = {}) => ({
  ems_no: 'A1234567',
  fac_name: '示範工廠',
  fac_uniformno: '12345678',
  county_name: '臺北市政府環境保護局',
  document_no: doc,
  transgress_date: '113/04/01',
  transgress_law: '空氣污染防制法第24條',
  transgress_type: '空氣',
  openinfor: '未依許可證內容操作',
  penalty_date: '113/05/21',
  penalty_money: '1200000',
  isimportant: '否',
  ...over,
});
const page = (...records: object[]) => JSON.stringify(records);

describe('readPenalties over the pages a fetch keeps (EMS_P_46.0001.json, …)', () => {
  const readDir = (files: Record<string, string | Buffer>, rejects = new RejectLog(), tally = new SourceTally()) => {
    const dir = fixtureDir({});
    for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
    return collect(readPenalties(dir, rejects, tally));
  };

  it('reads every page in page order, as an array or a {records} answer, and nothing of another dataset', async () => {
    const rejects = new RejectLog();
    const rows = await readDir(
      {
        'EMS_P_46.0010.json': page(record('J')),
        'EMS_P_46.0002.json': JSON.stringify({ fields: [], records: [record('B1'), record('B2')] }),
        'EMS_P_46.0001.json': page(record('A')),
        'GHG_P_01.0001.json': 'not read by this source',
      },
      rejects,
    );
    expect(rows.map((r) => r.recordId)).toEqual(['A', 'B1', 'B2', 'J']);
    expect(rows[0]).toEqual({ ...expected, recordId: 'A' });
    expect(rejects.count).toBe(0);
  });

  it('a record served twice, equal in every field, is kept once; the copy is counted as a duplicate', async () => {
    const tally = new SourceTally();
    const rows = await readDir(
      { 'EMS_P_46.0001.json': page(record('A'), record('B')), 'EMS_P_46.0002.json': page(record('B'), record('C')) },
      new RejectLog(),
      tally,
    );
    expect(rows.map((r) => r.recordId)).toEqual(['A', 'B', 'C']);
    expect(tally.of(SOURCE).duplicates).toBe(1);
    expect(tally.of(SOURCE).sharedId).toBe(0);
  });

  it('two penalties sharing a 裁處書字號 in two counties are both kept: the identity is (county, number)', async () => {
    const tally = new SourceTally();
    // As in the genuine page: 22-115-050155 names a decision of 桃園市 and one of 新北市, other company, date and fine.
    const taoyuan = record('22-115-050155', { county_name: '桃園市', fac_uniformno: '53513303', penalty_date: '2026-05-29', penalty_money: '3000' });
    const newTaipei = record('22-115-050155', {
      county_name: '新北市',
      fac_uniformno: '12345678',
      penalty_date: '2026-02-10',
      penalty_money: '3276000',
    });
    const rows = await readDir({ 'EMS_P_46.0001.json': page(taoyuan, newTaipei) }, new RejectLog(), tally);
    expect(rows.map((r) => [r.agencyName, r.recordId, r.uniformNo, r.fine])).toEqual([
      ['桃園市', '22-115-050155', '53513303', 3000],
      ['新北市', '22-115-050155', '12345678', 3_276_000],
    ]);
    expect(tally.of(SOURCE).duplicates).toBe(0);
  });

  it('a record sharing its identity with another but differing in any field is not a copy: both kept, counted as sharing an id', async () => {
    const tally = new SourceTally();
    const rows = await readDir(
      {
        'EMS_P_46.0001.json': page(record('A'), record('B')),
        'EMS_P_46.0002.json': page(record('B', { penalty_money: '999' }), record('B'), record('C')),
      },
      new RejectLog(),
      tally,
    );
    expect(rows.map((r) => [r.recordId, r.fine])).toEqual([
      ['A', 1_200_000],
      ['B', 1_200_000],
      ['B', 999],
      ['C', 1_200_000],
    ]);
    expect(tally.of(SOURCE).duplicates).toBe(1);
    expect(tally.of(SOURCE).sharedId).toBe(1);
  });

  it('a reject names the page file and the record', async () => {
    const rejects = new RejectLog();
    const rows = await readDir(
      { 'EMS_P_46.0001.json': page(record('A')), 'EMS_P_46.0002.json': page(record('B', { penalty_money: 'abc' }), record('C')) },
      rejects,
    );
    expect(rows.map((r) => r.recordId)).toEqual(['A', 'C']);
    expect(rejects.format()).toBe('EMS_P_46.0002.json:record 1: 裁處金額: not a non-negative number: "abc"');
  });

  it('a hand-placed EMS_P_46.json is read alone', async () => {
    expect((await readDir({ 'EMS_P_46.json': page(record('A'), record('B')) })).map((r) => r.recordId)).toEqual(['A', 'B']);
  });

  it('pages beside a hand-placed file, or both hand-placed forms, are refused naming the source and the files', async () => {
    const mixed = await readDir({ 'EMS_P_46.0001.json': page(record('A')), 'EMS_P_46.json': page(record('A')) }).catch((e: unknown) => e);
    expect(mixed).toBeInstanceOf(SourceFileError);
    expect((mixed as Error).message).toBe(
      'SRC-MOENV-EMS_P_46: EMS_P_46.0001.json and EMS_P_46.json are two forms of one source in one folder; keep one',
    );
    const both = await readDir({ 'EMS_P_46.json': page(record('A')), [FILE]: `${API_HEADER}\n${fullRow()}\n` }).catch((e: unknown) => e);
    expect(both).toBeInstanceOf(SourceFileError);
    expect((both as Error).message).toBe('SRC-MOENV-EMS_P_46: EMS_P_46.json and EMS_P_46.csv are two forms of one source in one folder; keep one');
  });

  it('a page that is not UTF-8 (Big5-encoded JSON) is refused naming the source and the file', async () => {
    const big5 = iconv.encode(page(record('北市環稽字第1130001號'), record('北市環稽字第1130002號')), 'cp950');
    const err = await readDir({ 'EMS_P_46.0001.json': big5 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SourceFileError);
    expect((err as Error).message).toMatch(/^SRC-MOENV-EMS_P_46 EMS_P_46\.0001\.json: JSON that is not UTF-8/);
  });
});

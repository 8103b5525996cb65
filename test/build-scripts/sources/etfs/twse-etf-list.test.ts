import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RejectLog, SourceFileError } from '../../../../build-scripts/adapters/read-layout.js';
import type { AnswerRequest, FetchSession, KeptAnswer } from '../../../../build-scripts/sources/kit/source.js';
import { SourceTally } from '../../../../build-scripts/sources/kit/tally.js';
import { readFundList, twseEtfListModule, type FundListRow } from '../../../../build-scripts/sources/etfs/twse-etf-list.js';
import { fixtureDirs } from '../../adapters/fixture-dir.js';
import { GENUINE_FUND_LIST_FILE, genuineFundList, genuineFundListFolder } from './genuine-fund-list.js';

const fixtureDir = fixtureDirs('etf-list-');

/** One record of the newer schema (ten keys; what the demo writes), every value a string. */
function record(over: Record<string, string> = {}): Record<string, string> {
  return {
    出表日期: '1141128',
    基金代號: '0050',
    基金簡稱: '元大台灣50',
    基金類型: '國內成分證券指數股票型基金',
    基金中文名稱: '元大台灣卓越50證券投資信託基金',
    基金英文名稱: 'Yuanta/P-shares Taiwan Top 50 ETF',
    '標的指數/追蹤指數名稱': '臺灣50指數',
    成立日期: '0920620',
    上市日期: '0920630',
    '發行單位數/轉換數': '13,535,000,000',
    ...over,
  };
}
const esg = record({
  基金代號: '00850',
  基金簡稱: '元大臺灣ESG永續',
  基金中文名稱: '元大台灣ESG永續ETF證券投資信託基金',
  '標的指數/追蹤指數名稱': '臺灣永續指數',
  成立日期: '1080807',
  上市日期: '1080823',
});

/**
 * One record of the older 24-key schema, as the genuine answer of 2025-11-23 serves 0050 (keys in its
 * order): 基金名稱 and no 基金簡稱, pipes in two keys, and placeholders in keys the reader does not use.
 */
function olderRecord(over: Record<string, string> = {}): Record<string, string> {
  return {
    出表日期: '1131230',
    基金代號: '0050',
    基金名稱: '元大台灣卓越50證券投資信託基金',
    '標的指數|追蹤指數名稱': '臺灣50指數',
    ETF標的指數是否為客製化或需揭露相關資訊之指數: '否',
    總機: '(02)2717-5555',
    基金類型: '國內成分證券指數股票型基金',
    英文名稱: 'Yuanta/P-shares Taiwan Top 50 ETF',
    地址: '臺北市松山區敦化南路1段66號1樓、4樓、5樓及68號2樓之1',
    董事長: '劉宗聖',
    發言人: '陳沛宇',
    總經理: '陳沛宇',
    代理發言人: '無',
    投資經理人: '陳重銓',
    統一編號: '98764389',
    總代理人: 'NA',
    上市日期: '0920630',
    成立日期: '0920625',
    '發行單位數|轉換數': '2216500000',
    過戶機構: '&#160;臺灣集中保管結算所股份有限公司',
    過戶電話: '(02)2719-5805',
    過戶地址: '台北市復興北路363號11樓',
    '指數股票型基金(ETF)之標的指數是否包含外國成份股': '否',
    備註: '',
    ...over,
  };
}

const read = (records: unknown[], rejects = new RejectLog(), tally = new SourceTally()) =>
  readFundList(fixtureDir({ 't187ap47_L.json': JSON.stringify(records) }), rejects, tally);
/** The error a read fails with (null when it succeeds). */
const failureOf = (reading: Promise<unknown>) =>
  reading.then(
    () => null,
    (e: unknown) => e as Error,
  );
const failure = (records: unknown[]) => failureOf(read(records));

describe('readFundList (SRC-TWSE-ETF-LIST)', () => {
  it('reads the funds; ROC dates with a leading zero before 2011 become ISO', async () => {
    const rejects = new RejectLog();
    const { rows, duplicates } = await read([record(), esg], rejects);
    expect(rejects.count).toBe(0);
    expect(duplicates).toBe(0);
    expect(rows[0]).toEqual<FundListRow>({
      code: '0050',
      shortName: '元大台灣50',
      fundType: '國內成分證券指數股票型基金',
      fullName: '元大台灣卓越50證券投資信託基金',
      englishName: 'Yuanta/P-shares Taiwan Top 50 ETF',
      index: '臺灣50指數',
      established: '2003-06-20',
      listed: '2003-06-30',
      units: '13,535,000,000',
      reportDate: '2025-11-28',
    });
    expect(rows[1]!.listed).toBe('2019-08-23');
  });

  it('a fund served twice with the same content is one record (counted); with other content a reject, the first kept', async () => {
    const rejects = new RejectLog();
    const { rows, duplicates } = await read([record(), esg, record(), record({ 基金簡稱: '改名' })], rejects);
    expect(rows.map((r) => r.code)).toEqual(['0050', '00850']);
    expect(rows[0]!.shortName).toBe('元大台灣50');
    expect(duplicates).toBe(1);
    expect(rejects.format()).toBe('t187ap47_L.json:record 4: 基金代號: 0050 served again with other content (the first, at record 1, is kept)');
  });

  it('reads the older 24-key schema: 基金名稱, pipes in two keys, no short name; its other keys are not read', async () => {
    const rejects = new RejectLog();
    const tally = new SourceTally();
    const { rows } = await read([olderRecord()], rejects, tally);
    expect(rejects.format()).toBe('');
    expect(rows).toEqual<FundListRow[]>([
      {
        code: '0050',
        shortName: '',
        fundType: '國內成分證券指數股票型基金',
        fullName: '元大台灣卓越50證券投資信託基金',
        englishName: 'Yuanta/P-shares Taiwan Top 50 ETF',
        index: '臺灣50指數',
        established: '2003-06-25',
        listed: '2003-06-30',
        units: '2216500000',
        reportDate: '2024-12-30',
      },
    ]);
    expect(tally.of('SRC-TWSE-ETF-LIST')).toMatchObject({ records: 1, publisherDate: '2024-12-30' });
  });

  it('counts every fund read as a record and keeps the newest 出表日期 as the publisher date', async () => {
    const tally = new SourceTally();
    await read([record({ 出表日期: '1141127' }), esg, record({ 基金代號: '0051', 出表日期: 'NA' })], new RejectLog(), tally);
    expect(tally.of('SRC-TWSE-ETF-LIST')).toMatchObject({ records: 3, publisherDate: '2025-11-28' });
  });

  it('a placeholder (無, NA, N/A) or an empty value is read as absent: an empty text, a null date', async () => {
    const rejects = new RejectLog();
    const older = olderRecord({ 英文名稱: 'NA', '標的指數|追蹤指數名稱': '無', 成立日期: 'N/A', '發行單位數|轉換數': '' });
    const newer = record({ 基金代號: '0051', 基金簡稱: '無', 基金英文名稱: '', '標的指數/追蹤指數名稱': 'NA', 成立日期: '無' });
    const [a] = (await read([older], rejects)).rows;
    const [b] = (await read([newer], rejects)).rows;
    expect(rejects.format()).toBe('');
    expect([a!.englishName, a!.index, a!.established, a!.units]).toEqual(['', '', null, '']);
    expect([b!.shortName, b!.englishName, b!.index, b!.established]).toEqual(['', '', '', null]);
    // A placeholder is no name: a fund named 無 is a reject, not a fund of that name.
    await read([olderRecord({ 基金名稱: '無' })], rejects);
    expect(rejects.format()).toBe('t187ap47_L.json:record 1: 基金名稱: must not be empty');
  });

  it('keys of neither schema (one renamed, or the two mixed) fail the file before any fund is read, naming the keys seen', async () => {
    const renamed = record();
    delete renamed['上市日期'];
    renamed['掛牌日期'] = '0920630';
    const err = await failure([renamed]);
    expect(err).toBeInstanceOf(SourceFileError);
    expect(err!.message).toBe(
      'SRC-TWSE-ETF-LIST t187ap47_L.json: neither fund-list schema; keys seen: 出表日期, 基金代號, 基金簡稱, 基金類型, 基金中文名稱, ' +
        '基金英文名稱, 標的指數/追蹤指數名稱, 成立日期, 發行單位數/轉換數, 掛牌日期 (the newer schema lacks 上市日期; the older schema lacks ' +
        '上市日期, 基金名稱, 英文名稱, 標的指數|追蹤指數名稱, 發行單位數|轉換數)',
    );
    // The older schema's full name with the newer's other keys: a third form, not read column by column.
    const mixed = record();
    delete mixed['基金中文名稱'];
    mixed['基金名稱'] = '元大台灣卓越50證券投資信託基金';
    const tally = new SourceTally();
    const mixedErr = (await failureOf(read([mixed, olderRecord()], new RejectLog(), tally)))!;
    expect(mixedErr).toBeInstanceOf(SourceFileError);
    expect(mixedErr.message).toMatch(
      /^SRC-TWSE-ETF-LIST t187ap47_L\.json: neither fund-list schema; keys seen: 出表日期, 基金代號, 基金簡稱, .*基金名稱 \(/,
    );
    expect(mixedErr.message).toContain(
      'the newer schema lacks 基金中文名稱; the older schema lacks 英文名稱, 標的指數|追蹤指數名稱, 發行單位數|轉換數',
    );
    expect(tally.bySource.size).toBe(0);
    // The older schema with a pipe key written with a slash.
    const slashed = olderRecord();
    delete slashed['標的指數|追蹤指數名稱'];
    slashed['標的指數/追蹤指數名稱'] = '臺灣50指數';
    expect((await failure([slashed]))?.message).toMatch(/the newer schema lacks .*; the older schema lacks 標的指數\|追蹤指數名稱\)$/);
  });

  it('keys are trimmed; a 上市日期 that is not a date is a reject', async () => {
    const rejects = new RejectLog();
    const spaced = Object.fromEntries(Object.entries(record()).map(([k, v]) => [`${k} `, v]));
    const { rows } = await read([spaced, record({ 基金代號: '0051', 上市日期: '上市中' })], rejects);
    expect(rows.map((r) => r.code)).toEqual(['0050']);
    expect(rejects.format()).toMatch(/^t187ap47_L\.json:record 2: 上市日期: not a date/);
  });

  it('reads the UTF-8-with-BOM CSV placed by hand', async () => {
    const r = record();
    const csv = `\ufeff${Object.keys(r).join(',')}\n${Object.values(r)
      .map((v) => (v.includes(',') ? `"${v}"` : v))
      .join(',')}\n`;
    const { rows } = await readFundList(fixtureDir({ 't187ap47_L.csv': csv }), new RejectLog(), new SourceTally());
    expect(rows.map((x) => [x.code, x.listed, x.units])).toEqual([['0050', '2003-06-30', '13,535,000,000']]);
  });

  it('reads the CSV in the older schema too, and refuses one of neither', async () => {
    const csvOf = (r: Record<string, string>) =>
      `\ufeff${Object.keys(r).join(',')}\n${Object.values(r)
        .map((v) => (/[,"]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v))
        .join(',')}\n`;
    const rejects = new RejectLog();
    const { rows } = await readFundList(fixtureDir({ 't187ap47_L.csv': csvOf(olderRecord()) }), rejects, new SourceTally());
    expect(rejects.format()).toBe('');
    expect(rows.map((x) => [x.code, x.shortName, x.fullName, x.index, x.units])).toEqual([
      ['0050', '', '元大台灣卓越50證券投資信託基金', '臺灣50指數', '2216500000'],
    ]);
    const { 基金名稱: _, ...nameless } = olderRecord();
    const err = (await failureOf(readFundList(fixtureDir({ 't187ap47_L.csv': csvOf(nameless) }), rejects, new SourceTally())))!;
    expect(err).toBeInstanceOf(SourceFileError);
    expect(err.message).toMatch(
      /^SRC-TWSE-ETF-LIST t187ap47_L\.csv: neither fund-list schema; keys seen: 出表日期, 基金代號, 標的指數\|追蹤指數名稱, /,
    );
  });
});

describe('readFundList on the genuine answer (older schema, 209 funds, 出表日期 1131230)', () => {
  const readGenuine = async () => {
    const rejects = new RejectLog();
    const tally = new SourceTally();
    const list = await readFundList(genuineFundListFolder(fixtureDir), rejects, tally);
    return { ...list, rejects, tally };
  };
  const byCode = new Map(genuineFundList.map((r) => [r['基金代號']!, r]));

  it('is the older schema: 基金名稱, pipes, no 基金簡稱 or 基金中文名稱', () => {
    // The bytes PROVENANCE.md names: the copy is the third party's blob, not re-serialised.
    expect(createHash('sha256').update(readFileSync(GENUINE_FUND_LIST_FILE)).digest('hex')).toBe(
      '1b3b8ae6d44f322dc28727d1a5589b5bb0d90ff2f1a8ee15345fe9f44c859600',
    );
    expect(genuineFundList).toHaveLength(209);
    const keys = Object.keys(genuineFundList[0]!);
    expect(keys).toHaveLength(24);
    expect(keys).toEqual(expect.arrayContaining(['基金名稱', '標的指數|追蹤指數名稱', '英文名稱', '發行單位數|轉換數', '統一編號']));
    expect(keys).not.toContain('基金簡稱');
    expect(keys).not.toContain('基金中文名稱');
  });

  it('reads every fund with no reject, counts them, and stamps 出表日期 2024-12-30 as the publisher date', async () => {
    const { rows, duplicates, rejects, tally } = await readGenuine();
    expect(rejects.format()).toBe('');
    expect(rows).toHaveLength(209);
    expect(duplicates).toBe(0);
    expect(rows.map((r) => r.code)).toEqual(genuineFundList.map((r) => r['基金代號']));
    expect(tally.of('SRC-TWSE-ETF-LIST')).toMatchObject({ records: 209, duplicates: 0, publisherDate: '2024-12-30' });
    for (const r of rows) {
      const served = byCode.get(r.code)!;
      expect(r.shortName).toBe('');
      expect(r.fundType).toBe(served['基金類型']);
      expect(r.listed).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
    const f0050 = rows.find((r) => r.code === '0050')!;
    expect([f0050.fullName, f0050.index, f0050.englishName, f0050.established, f0050.listed, f0050.units]).toEqual([
      '元大台灣卓越50證券投資信託基金',
      '臺灣50指數',
      'Yuanta/P-shares Taiwan Top 50 ETF',
      '2003-06-25',
      '2003-06-30',
      '2216500000',
    ]);
  });

  it('decodes the HTML references in names and indexes (S&amp;P, &#174;, &#63754;)', async () => {
    expect(byCode.get('0054')!['標的指數|追蹤指數名稱']).toBe('S&amp;P台商收成指數');
    const { rows } = await readGenuine();
    const of = (code: string) => rows.find((r) => r.code === code)!;
    expect(of('0054').index).toBe('S&P台商收成指數');
    expect(of('006203').index).toBe('MSCI®臺灣指數');
    expect(of('00947').fullName).toBe('台新臺灣IC設計動能ETF證券投資信託基\uF90A');
    expect(rows.flatMap((r) => [r.fullName, r.index, r.englishName]).filter((v) => /&(#\d+|amp);/.test(v))).toEqual([]);
  });
});

describe('twseEtfListModule', () => {
  it('is one GET of the OpenAPI dataset into t187ap47_L.json, expecting JSON', async () => {
    expect(twseEtfListModule.info).toMatchObject({
      source_id: 'SRC-TWSE-ETF-LIST',
      owner_org: 'TWSE',
      homepage_url: 'https://openapi.twse.com.tw/v1/opendata/t187ap47_L',
    });
    expect(twseEtfListModule.info.licence.id).toBe('OGDL-Taiwan-1.0');
    expect(twseEtfListModule.files.answers.test('t187ap47_L.json')).toBe(true);
    expect(twseEtfListModule.files.placed).toEqual(['t187ap47_L.csv']);
    expect(twseEtfListModule.assertions).toMatchObject({ minRecords: 150, maxRecords: 600 });
    const asked: AnswerRequest[] = [];
    const session: FetchSession = {
      async request(r): Promise<KeptAnswer> {
        asked.push(r);
        return { file: r.file, path: '', records: 0, sha256: '' };
      },
      log() {},
    };
    await twseEtfListModule.plan!.run(session, { url: 'http://127.0.0.1:1/t187ap47_L', asof: '2025-11-30', moenvKey: '' });
    expect(asked.map((r) => [r.method, r.url, r.file, r.expect])).toEqual([['GET', 'http://127.0.0.1:1/t187ap47_L', 't187ap47_L.json', 'json']]);
  });
});

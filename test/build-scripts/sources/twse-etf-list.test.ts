import { describe, expect, it } from 'vitest';
import { MissingColumnError, RejectLog } from '../../../build-scripts/adapters/read-layout.js';
import type { AnswerRequest, FetchSession, KeptAnswer } from '../../../build-scripts/sources/source.js';
import { readFundList, twseEtfListModule, type FundListRow } from '../../../build-scripts/sources/twse-etf-list.js';
import { fixtureDirs } from '../adapters/fixture-dir.js';

const fixtureDir = fixtureDirs('etf-list-');

/** One record as the TWSE OpenAPI serves t187ap47_L: the keys sources.md confirms, every value a string. */
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

const read = (records: unknown[], rejects = new RejectLog()) => readFundList(fixtureDir({ 't187ap47_L.json': JSON.stringify(records) }), rejects);

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

  it('a missing or renamed key fails the file, naming the key', async () => {
    const renamed = record();
    delete renamed['上市日期'];
    renamed['掛牌日期'] = '0920630';
    const err = await read([renamed]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MissingColumnError);
    expect((err as Error).message).toContain('SRC-TWSE-ETF-LIST t187ap47_L.json');
    expect((err as Error).message).toContain('"上市日期"');
    const noIndex = record();
    delete noIndex['標的指數/追蹤指數名稱'];
    await expect(read([noIndex])).rejects.toThrow(/"標的指數\/追蹤指數名稱"/);
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
    const { rows } = await readFundList(fixtureDir({ 't187ap47_L.csv': csv }), new RejectLog());
    expect(rows.map((x) => [x.code, x.listed, x.units])).toEqual([['0050', '2003-06-30', '13,535,000,000']]);
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

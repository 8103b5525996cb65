import { describe, expect, it } from 'vitest';
import { MissingColumnError, RejectLog } from '../../../../build-scripts/adapters/read-layout.js';
import type { EtfFund } from '../../../../build-scripts/sources/kit/facts.js';
import { filesOf } from '../../../../build-scripts/sources/kit/files.js';
import {
  mopsEtfHoldingsModule,
  readEtfHoldings,
  readMopsEtfFunds,
  type EtfHoldingRow,
} from '../../../../build-scripts/sources/etfs/mops-etf-holdings.js';
import { fixtureDirs } from '../../adapters/fixture-dir.js';

const FILE = 'etf_holdings.csv';
const fixtureDir = fixtureDirs('adapter-etf-');
const sourceDir = (content: string) => fixtureDir(content === null ? {} : { [FILE]: content });
async function read(content: string, rejects = new RejectLog()): Promise<EtfHoldingRow[]> {
  const out: EtfHoldingRow[] = [];
  for await (const r of readEtfHoldings(sourceDir(content), rejects)) out.push(r);
  return out;
}

const HEADER = '基金代號,基金名稱,年度,季別,證券代號,證券簡稱,持股比率';

describe('readEtfHoldings (SRC-MOPS-ETF-HOLDINGS)', () => {
  it('reads holdings; weight percent → fraction; quarter Q3 or 3', async () => {
    const rejects = new RejectLog();
    const rows = await read(`${HEADER}\nDE878,示範高股息ETF,115,Q3,D2330,示範積電,12.5\nde878,示範高股息ETF,2026,3,d1101,示範泥,0.75\n`, rejects);
    expect(rows).toEqual<EtfHoldingRow[]>([
      { fundCode: 'DE878', fundName: '示範高股息ETF', year: 2026, quarter: 3, securityCode: 'D2330', securityName: '示範積電', weight: 0.125 },
      { fundCode: 'DE878', fundName: '示範高股息ETF', year: 2026, quarter: 3, securityCode: 'D1101', securityName: '示範泥', weight: 0.0075 },
    ]);
    expect(rejects.count).toBe(0);
  });

  it.each([
    ['Q1', 1],
    ['q2', 2],
    ['3', 3],
    ['4', 4],
  ])('quarter %j → %i', async (q, n) => {
    expect((await read(`${HEADER}\nDE878,,115,${q},D2330,示範積電,1\n`)).map((r) => r.quarter)).toEqual([n]);
  });

  it('weights 0 and 100 are accepted; a holdings sum is a fraction of 1', async () => {
    const rows = await read(`${HEADER}\nDE1,,115,1,A,甲,100\nDE2,,115,1,B,乙,0\nDE3,,115,1,C,丙,33.33\nDE3,,115,1,D,丁,66.67\n`);
    expect(rows.map((r) => r.weight)).toEqual([1, 0, expect.closeTo(0.3333, 10), expect.closeTo(0.6667, 10)]);
    expect(rows[2]!.weight + rows[3]!.weight).toBeCloseTo(1, 10);
  });

  it('an empty fund name is null; the optional 基金名稱 column may be absent', async () => {
    expect((await read(`${HEADER}\nDE878,,115,Q3,D2330,示範積電,1\n`))[0]!.fundName).toBeNull();
    const rows = await read(`持股比率,證券簡稱,證券代號,季別,年度,基金代號,其他\n5,示範積電,D2330,Q3,115,DE878,x\n`);
    expect(rows).toEqual([
      { fundCode: 'DE878', fundName: null, year: 2026, quarter: 3, securityCode: 'D2330', securityName: '示範積電', weight: 0.05 },
    ]);
  });

  it('rejects bad rows with file:line: column: reason', async () => {
    const rejects = new RejectLog();
    const rows = await read(
      [
        HEADER,
        'DE878,,115,Q5,D2330,甲,1',
        'DE878,,115,0,D2330,甲,1',
        'DE878,,115,Q3,D2330,甲,101',
        'DE878,,115,Q3,D2330,甲,',
        'DE878,,115,Q3,,甲,1',
        'DE-878,,115,Q3,D2330,甲,1',
        'DE878,,115,Q3,D2330,甲,1',
      ].join('\n'),
      rejects,
    );
    expect(rows).toHaveLength(1);
    expect(rejects.format().split('\n')).toEqual([
      'etf_holdings.csv:2: 季別: quarter must be 1–4',
      'etf_holdings.csv:3: 季別: quarter must be 1–4',
      'etf_holdings.csv:4: 持股比率: a weight above 100 %',
      'etf_holdings.csv:5: 持股比率: must not be empty',
      'etf_holdings.csv:6: 證券代號: must not be empty',
      expect.stringMatching(/^etf_holdings\.csv:7: 基金代號: /),
    ]);
  });

  it('a missing required column throws MissingColumnError naming the file and the column', async () => {
    const err = await read(`基金代號,年度,季別,證券代號,證券簡稱\n`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MissingColumnError);
    expect((err as Error).message).toContain(FILE);
    expect((err as Error).message).toContain('持股比率');
  });
});

describe('readMopsEtfFunds (SRC-MOPS-ETF-HOLDINGS as EtfFund)', () => {
  it("keeps each fund's latest quarter, in file order, cut-off 0", async () => {
    const rejects = new RejectLog();
    const funds = await readMopsEtfFunds(
      sourceDir(
        [
          HEADER,
          'DE878,示範高股息ETF,115,2,D2330,示範積電,50',
          'DE878,示範高股息ETF,115,3,d2330,示範積電,60',
          'DE878,,115,3,D1101,示範泥,40',
          'DE900,,114,4,XUS001,海外,100',
        ].join('\n'),
      ),
      rejects,
    );
    expect(rejects.count).toBe(0);
    expect(funds).toEqual<EtfFund[]>([
      {
        code: 'DE878',
        name: '示範高股息ETF',
        period: '2026Q3',
        asof: '2026-09-30',
        minWeight: 0,
        sourceId: 'SRC-MOPS-ETF-HOLDINGS',
        holdings: [
          { code: 'D2330', name: '示範積電', weight: 0.6 },
          { code: 'D1101', name: '示範泥', weight: 0.4 },
        ],
      },
      {
        code: 'DE900',
        name: 'DE900',
        period: '2025Q4',
        asof: '2025-12-31',
        minWeight: 0,
        sourceId: 'SRC-MOPS-ETF-HOLDINGS',
        holdings: [{ code: 'XUS001', name: '海外', weight: 1 }],
      },
    ]);
  });

  it('is placed by hand only: no plan, no answer file name', () => {
    expect(mopsEtfHoldingsModule.plan).toBeNull();
    expect(mopsEtfHoldingsModule.files.placed).toEqual(['etf_holdings.csv', 'etf_holdings.json']);
    expect(filesOf(sourceDir(`${HEADER}\n`), mopsEtfHoldingsModule)).toEqual([FILE]);
    expect(mopsEtfHoldingsModule.files.answers.test('etf_holdings.csv')).toBe(false);
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RejectLog } from '../../../../build-scripts/adapters/read-layout.js';
import { parseIsoDay } from '../../../../build-scripts/demo-model/dates.js';
import { writeSitcaDemoFiles } from '../../../../build-scripts/sources/etfs/demo-files.js';
import { buildUniverse } from '../../../../build-scripts/demo/universe.js';
import {
  EtfFundTypeError,
  hasEsgWord,
  isEsgFund,
  joinFunds,
  normaliseFundName,
  quarterEnd,
} from '../../../../build-scripts/sources/etfs/etf-funds.js';
import type { EtfFund } from '../../../../build-scripts/sources/kit/facts.js';
import { parseSitcaAnswer, readSitcaHoldings, type SitcaFund } from '../../../../build-scripts/sources/etfs/sitca-etf-holdings.js';
import { SourceTally } from '../../../../build-scripts/sources/kit/tally.js';
import { readFundList, type FundListRow } from '../../../../build-scripts/sources/etfs/twse-etf-list.js';
import {
  DOMESTIC_EQUITY_FUND_TYPES,
  ESG_ETF_KEYWORDS,
  ESG_ETF_RULE,
  fundTypeBase,
  isDomesticEquityEtf,
  isEsgEtf,
} from '../../../../src/methodology/esg-etfs.js';
import { fixtureDirs } from '../../adapters/fixture-dir.js';
import { genuineFundList, genuineFundListFolder } from './genuine-fund-list.js';

const INDEX = '國內成分證券指數股票型基金';
const ACTIVE = '國內成分證券主動式交易所交易基金(股票)';

function listRow(code: string, fullName: string, o: Partial<FundListRow> = {}): FundListRow {
  return {
    code,
    shortName: `簡${code}`,
    fundType: INDEX,
    fullName,
    englishName: '',
    index: '不適用',
    established: null,
    listed: '2020-01-02',
    units: '1',
    reportDate: null,
    ...o,
  };
}
function sitcaFund(name: string, holdings: SitcaFund['holdings'] = [{ kind: '國內上市', code: '2330', name: '台積電', weight: 0.3 }]): SitcaFund {
  return { name, period: '202509', fundClass: 'AH11', file: 'sitca-IN2630-202509-AH11.html', line: 10, holdings };
}

describe('normaliseFundName', () => {
  it('writes 臺 as 台, full-width letters, digits and parentheses half-width, and removes every space', () => {
    expect(normaliseFundName('元大臺灣ＥＳＧ永續ＥＴＦ基金')).toBe('元大台灣ESG永續ETF基金');
    expect(normaliseFundName('富邦臺灣　公司治理１００（Ａ）基金')).toBe('富邦台灣公司治理100(A)基金');
    expect(normaliseFundName(' 國泰 台灣 低碳\tETF\u00a0基金 ')).toBe('國泰台灣低碳ETF基金');
    expect(normaliseFundName('元大台灣ESG永續ETF證券投資信託基金')).toBe(normaliseFundName('元大臺灣ＥＳＧ永續 ＥＴＦ證券投資信託基金'));
  });

  it('is NFKC: a compatibility ideograph (the genuine list writes 基&#63754;, U+F90A) is the 金 SITCA writes', () => {
    expect(normaliseFundName('台新臺灣IC設計動能ETF證券投資信託基\uF90A')).toBe(normaliseFundName('台新臺灣IC設計動能ETF證券投資信託基金'));
    expect(normaliseFundName('群益深証中小１００證券投資信託基金')).toBe('群益深証中小100基金');
  });

  it('drops a trailing note and 證券投資信託 (SITCA writes 元大台灣高股息基金 where the TWSE list adds it), keeps a class', () => {
    expect(normaliseFundName('元大台灣高股息基金（基金之配息來源可能為收益平準金）')).toBe(normaliseFundName('元大台灣高股息證券投資信託基金'));
    expect(normaliseFundName('元大臺灣ＥＳＧ永續ＥＴＦ證券投資信託基金')).toBe('元大台灣ESG永續ETF基金');
    expect(normaliseFundName('某某基金(美元)')).not.toBe(normaliseFundName('某某基金(新台幣)'));
  });
});

describe('the ESG ETF rule (src/methodology/esg-etfs.ts)', () => {
  it('publishes the keywords and the rule sentence', () => {
    expect(ESG_ETF_KEYWORDS).toEqual(['ESG', '永續', '公司治理', '低碳', '氣候', '淨零', '碳', '綠能', '環境']);
    for (const k of ESG_ETF_KEYWORDS) expect(ESG_ETF_RULE).toContain(k);
    for (const t of DOMESTIC_EQUITY_FUND_TYPES) expect(ESG_ETF_RULE).toContain(t);
  });

  it.each([
    ['元大台灣ESG永續', '不適用', true],
    ['富邦公司治理', '臺灣公司治理100指數', true],
    ['國泰台灣低碳', '', true],
    ['某某氣候變遷', '', true],
    ['某某淨零', '', true],
    ['某某減碳', '', true],
    ['某某綠能', '', true],
    ['某某環境', '', true],
    ['元大高股息', '臺灣高股息指數', false],
    ['元大台灣50', '臺灣ＥＳＧ永續指數', true],
    ['富邦ｅｓｇ', '', true],
    ['主動群益台灣強棒', '不適用', false],
  ])('isEsgEtf(%j, %j) → %s', (name, index, yes) => {
    expect(isEsgEtf(name, index)).toBe(yes);
  });

  it('only domestic-constituent equity ETFs (index or active) qualify by type', () => {
    expect(isDomesticEquityEtf(INDEX)).toBe(true);
    expect(isDomesticEquityEtf(ACTIVE)).toBe(true);
    expect(isDomesticEquityEtf('國內成分證券主動式交易所交易基金（股票）')).toBe(true);
    for (const t of ['國外成分證券指數股票型基金', '槓桿/反向指數股票型基金', '國外成分債券指數股票型基金', '指數股票型期貨信託基金', ''])
      expect(isDomesticEquityEtf(t)).toBe(false);
  });

  it('compares types without a parenthesised suffix (half- or full-width), unless it names another asset class', () => {
    expect(isDomesticEquityEtf('國內成分證券指數股票型基金(股票)')).toBe(true);
    expect(isDomesticEquityEtf('國內成分證券指數股票型基金（股票）')).toBe(true);
    expect(isDomesticEquityEtf('國內成分證券主動式交易所交易基金')).toBe(true);
    expect(isDomesticEquityEtf('國外成分證券指數股票型基金(股票)')).toBe(false);
    expect(isDomesticEquityEtf('國內成分證券主動式交易所交易基金(債券)')).toBe(false);
    expect(fundTypeBase('國內成分證券主動式交易所交易基金（股票）')).toBe('國內成分證券主動式交易所交易基金');
    expect(fundTypeBase('國內成分證券主動式交易所交易基金(債券)')).toBeNull();
  });
});

describe('isEsgFund: the rule on one fund of the list, as the build applies it', () => {
  const fund = (fullName: string, o: Partial<FundListRow> = {}) => listRow('00999', fullName, { shortName: '', ...o });

  it('needs an ESG word (in a name or the index) and a domestic equity type', () => {
    expect(isEsgFund(fund('某某台灣ESG永續ETF基金'))).toBe(true);
    expect(isEsgFund(fund('某某台灣高股息ETF基金', { index: '臺灣永續高股息指數' }))).toBe(true);
    expect(isEsgFund(fund('某某台灣高股息ETF基金', { shortName: '某某低碳' }))).toBe(true);
    expect(isEsgFund(fund('某某全球ESG綠色電力ETF基金', { fundType: '國外成分證券指數股票型基金' }))).toBe(false);
    expect(hasEsgWord(fund('某某全球ESG綠色電力ETF基金', { fundType: '國外成分證券指數股票型基金' }))).toBe(true);
    expect(isEsgFund(fund('某某台灣高股息ETF基金'))).toBe(false);
  });

  it('full-width letters and digits in a name or index still match (NFKC)', () => {
    expect(isEsgFund(fund('某某臺灣ＥＳＧ永續ＥＴＦ證券投資信託基金'))).toBe(true);
    expect(isEsgFund(fund('某某臺灣ｅｓｇ精選３０ＥＴＦ基金'))).toBe(true);
    expect(isEsgFund(fund('某某台灣30ETF基金', { index: '臺灣ＥＳＧ　３０指數' }))).toBe(true);
  });
});

/**
 * This test's own reading of the published rule (shared/spec/sources.md, "ETF holdings"), on the
 * records as served: its own decoding of HTML references, NFKC, 臺 as 台, its own keyword list and
 * type test. The module's pick must agree with it.
 */
const OWN_KEYWORDS = ['ESG', '永續', '公司治理', '低碳', '氣候', '淨零', '碳', '綠能', '環境'];
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', nbsp: '\u00a0' };
const unescaped = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) =>
    e.startsWith('#') ? String.fromCodePoint(/^#x/i.test(e) ? parseInt(e.slice(2), 16) : Number(e.slice(1))) : (NAMED[e] ?? m),
  );
const folded = (s: string) => unescaped(s).normalize('NFKC').replace(/臺/g, '台').replace(/\s/g, '').toUpperCase();
const hasWord = (...texts: string[]) => texts.some((t) => OWN_KEYWORDS.some((k) => folded(t).includes(k)));
const domesticEquity = (type: string) => /^國內成分證券/.test(type) && !/債|貨幣|期貨|多重資產|平衡|商品/.test(type);

describe('the ESG rule on the genuine fund list (209 funds, older schema)', () => {
  const fixtureDir = fixtureDirs('genuine-funds-');
  const expected = genuineFundList
    .filter((r) => domesticEquity(r['基金類型']!) && hasWord(r['基金名稱']!, r['標的指數|追蹤指數名稱']!))
    .map((r) => r['基金代號']!);

  it('picks exactly the ten domestic ESG ETFs, as this test computes them from the file', async () => {
    const rejects = new RejectLog();
    const { rows } = await readFundList(genuineFundListFolder(fixtureDir), rejects, new SourceTally());
    expect(rejects.format()).toBe('');
    const picked = rows.filter(isEsgFund).map((r) => r.code);
    expect(picked).toEqual(expected);
    expect(picked).toEqual(['00692', '00850', '00878', '00891', '00896', '00923', '00930', '00932', '00936', '00961']);
    // 00920 has the words but holds foreign constituents.
    const f00920 = rows.find((r) => r.code === '00920')!;
    expect([hasEsgWord(f00920), isEsgFund(f00920), f00920.fundType]).toEqual([true, false, '國外成分證券指數股票型基金']);
  });

  it('joinFunds keeps the same ten when SITCA names every fund of the list', async () => {
    const { rows } = await readFundList(genuineFundListFolder(fixtureDir), new RejectLog(), new SourceTally());
    const j = joinFunds(
      rows.map((r) => sitcaFund(r.fullName)),
      rows,
    );
    expect(j.unmatched).toEqual([]);
    expect(j.funds.map((f) => f.code)).toEqual(expected);
  });
});

describe('joinFunds', () => {
  it('matches on the normalised full name, keeps only ESG ETFs in the answer, reports no-code and several-code names', () => {
    const list = [
      listRow('00850', '元大台灣ESG永續ETF證券投資信託基金', { shortName: '元大臺灣ESG永續', index: '臺灣永續指數' }),
      listRow('0056', '元大台灣高股息證券投資信託基金', { index: '臺灣高股息指數' }),
      listRow('00999', '某某低碳已清算ETF證券投資信託基金'),
      listRow('00881', '國泰台灣5G+ETF證券投資信託基金', { index: '臺灣ESG 5G指數', fundType: '國外成分證券指數股票型基金' }),
      listRow('00901', '重名永續ETF基金'),
      listRow('00902', '重名永續ＥＴＦ基金'),
      listRow('00980A', '主動野村臺灣優選ETF證券投資信託基金', { fundType: ACTIVE, shortName: '' }),
      listRow('00990A', '主動某某永續ETF證券投資信託基金', { fundType: ACTIVE, shortName: '' }),
    ];
    const sitca = [
      sitcaFund('元大臺灣ＥＳＧ永續ＥＴＦ證券投資信託基金', [
        { kind: '國內上市', code: '2330', name: '台積電', weight: 0.321 },
        { kind: '國外', code: 'us0378331005', name: 'APPLE INC', weight: 0.01 },
      ]),
      sitcaFund('元大台灣高股息證券投資信託基金'),
      sitcaFund('國泰台灣5G+ETF證券投資信託基金'),
      sitcaFund('無此基金ETF證券投資信託基金'),
      sitcaFund('重名永續ETF基金'),
      sitcaFund('主動野村台灣優選ETF證券投資信託基金'),
      { ...sitcaFund('主動某某永續 ETF證券投資信託基金'), fundClass: 'AL11' as const, period: '202512' },
    ];
    const j = joinFunds(sitca, list);
    expect(j.unmatched).toEqual(['無此基金ETF證券投資信託基金']);
    expect(j.ambiguous).toEqual(['重名永續ETF基金']);
    expect(j.funds).toEqual<EtfFund[]>([
      {
        code: '00850',
        name: '元大臺灣ESG永續',
        period: '2025Q3',
        asof: '2025-09-30',
        minWeight: 0.01,
        sourceId: 'SRC-SITCA-ETF-HOLDINGS',
        holdings: [
          { code: '2330', name: '台積電', weight: 0.321 },
          { code: 'US0378331005', name: 'APPLE INC', weight: 0.01 },
        ],
      },
      {
        code: '00990A',
        name: '主動某某永續 ETF證券投資信託基金',
        period: '2025Q4',
        asof: '2025-12-31',
        minWeight: 0.01,
        sourceId: 'SRC-SITCA-ETF-HOLDINGS',
        holdings: [{ code: '2330', name: '台積電', weight: 0.3 }],
      },
    ]);
    // The liquidated fund in the list (00999) is not in the answer: it never comes out.
    expect(j.funds.map((f) => f.code)).not.toContain('00999');
  });

  it('two SITCA funds on one code are left out and reported, never guessed', () => {
    const j = joinFunds([sitcaFund('甲永續ETF基金'), sitcaFund('甲永續ＥＴＦ基金')], [listRow('00901', '甲永續ETF基金')]);
    expect(j.funds).toEqual([]);
    expect(j.ambiguous).toEqual(['甲永續ETF基金', '甲永續ＥＴＦ基金']);
  });

  it('quarter ends', () => {
    expect([quarterEnd(2025, 1), quarterEnd(2024, 2), quarterEnd(2025, 3), quarterEnd(2025, 4)]).toEqual([
      '2025-03-31',
      '2024-06-30',
      '2025-09-30',
      '2025-12-31',
    ]);
  });
});

describe("joinFunds on the genuine answer's form (test/fixtures/sitca-IN2630-genuine-form.html)", () => {
  const html = readFileSync(join(import.meta.dirname, '../../../fixtures/sitca-IN2630-genuine-form.html'), 'utf8');
  const sitca = parseSitcaAnswer(html, 'sitca-IN2630-202509-AH11.html', '202509', 'AH11', new RejectLog());
  /** The list as t187ap47_L names the funds: with 證券投資信託; the bond ETF (TPEx-listed) is not in it. */
  const list = (esgType: string) => [
    listRow('00690', '兆豐臺灣藍籌30ETF證券投資信託基金', { shortName: '兆豐藍籌30', index: '臺灣藍籌30指數' }),
    listRow('00878', '國泰台灣高股息傘型證券投資信託基金之台灣ESG永續高股息ETF證券投資信託基金', {
      shortName: '國泰永續高股息',
      index: 'MSCI臺灣ESG永續高股息精選30指數',
      fundType: esgType,
    }),
    listRow('00961', '富蘭克林華美臺灣ESG永續高息ETF證券投資信託基金', {
      shortName: 'FT臺灣永續高息',
      index: '特選臺灣ESG永續高息指數',
      fundType: esgType,
    }),
  ];

  it('a name with a note after <br> or in trailing parentheses matches its code; an ETF not in the list is reported', () => {
    const j = joinFunds(sitca, list(INDEX));
    expect(j.funds.map((f) => [f.code, f.name, f.holdings.map((h) => h.code)])).toEqual([
      ['00878', '國泰永續高股息', ['2303', '3231']],
      ['00961', 'FT臺灣永續高息', ['2412']],
    ]);
    expect(j.unmatched).toEqual(['兆豐美國企業優選投資級公司債ETF基金']);
    expect(j.ambiguous).toEqual([]);
  });

  it('an ESG fund typed with a parenthesised suffix (國內成分證券指數股票型基金(股票)) passes the rule', () => {
    expect(joinFunds(sitca, list('國內成分證券指數股票型基金(股票)')).funds.map((f) => f.code)).toEqual(['00878', '00961']);
  });

  it('fails the build, naming the types seen, when ESG-named funds exist but none has a domestic equity type', () => {
    const err = (() => {
      try {
        joinFunds(sitca, list('國外成分證券指數股票型基金'));
      } catch (e) {
        return e as Error;
      }
      return null;
    })();
    expect(err).toBeInstanceOf(EtfFundTypeError);
    expect(err!.message).toMatch(/^SRC-TWSE-ETF-LIST: 2 funds of SITCA's answer have an ESG word/);
    expect(err!.message).toContain('"國外成分證券指數股票型基金" (2)');
    // One domestic ESG fund is enough: the other is left out by the rule, not a failure.
    const mixed = list(INDEX).map((r) => (r.code === '00961' ? { ...r, fundType: '國外成分證券指數股票型基金' } : r));
    expect(joinFunds(sitca, mixed).funds.map((f) => f.code)).toEqual(['00878']);
  });
});

describe('the demo SITCA files, read back (build-scripts/sources/etfs/demo-files.ts)', () => {
  const fixtureDir = fixtureDirs('sitca-demo-');

  it('yield every demo ESG ETF with its holdings of 1 % or more, and only them', async () => {
    const u = buildUniverse({ seed: 11, companies: 300, asof: parseIsoDay('2026-11-20') });
    const dir = fixtureDir({});
    const counts = await writeSitcaDemoFiles(dir, u);
    expect(Object.keys(counts)).toEqual([
      'sitca-IN2630-form.html',
      'sitca-IN2630-202609-AH11.html',
      'sitca-IN2630-202609-AL11.html',
      't187ap47_L.json',
    ]);
    expect(counts['sitca-IN2630-202609-AL11.html']).toBeGreaterThan(0);

    const list = JSON.parse(readFileSync(join(dir, 't187ap47_L.json'), 'utf8')) as Record<string, unknown>[];
    for (const r of list) for (const v of Object.values(r)) expect(typeof v).toBe('string');
    expect(list.every((r) => String(r['基金代號']).startsWith('DE'))).toBe(true);
    expect(list.some((r) => /^0\d{6}$/.test(String(r['上市日期'])))).toBe(true);

    const rejects = new RejectLog();
    const sitca = await readSitcaHoldings(dir, rejects);
    const tally = new SourceTally();
    const fundList = await readFundList(dir, rejects, tally);
    expect(rejects.format()).toBe('');
    // The demo writes the newer schema, stamped with the universe's date.
    expect(fundList.rows.every((r) => r.shortName !== '')).toBe(true);
    expect(tally.of('SRC-TWSE-ETF-LIST').publisherDate).toBe('2026-11-20');
    // The variant spelling (臺, full-width, an ideographic space) is in SITCA's answer and still matches.
    expect(sitca.some((f) => /臺/.test(f.name) && /ＥＴＦ/.test(f.name))).toBe(true);
    // The genuine form's features: a fund name's note after <br> and security names marked * (the readers drop both).
    const ah11 = readFileSync(join(dir, 'sitca-IN2630-202609-AH11.html'), 'utf8');
    expect(ah11).toContain('<br>(基金之配息來源可能為收益平準金)</td>');
    expect(ah11).toMatch(/<td[^>]*>[^<]+\*<\/td>/);
    expect(ah11).toContain('<td class="DTFooter" colspan="9">合計</td>');
    expect(readFileSync(join(dir, 'sitca-IN2630-form.html'), 'utf8')).toContain('<option selected="selected" value="202609">2026 年 09 月</option>');
    for (const f of sitca) expect(f.name).not.toMatch(/收益平準金|\*$/);
    for (const f of sitca) for (const h of f.holdings) expect(h.name).not.toMatch(/\*$/);
    const j = joinFunds(sitca, fundList.rows);
    expect(j.unmatched).toEqual([]);
    expect(j.ambiguous).toEqual([]);
    expect(j.funds.map((f) => f.code)).toEqual(u.etfs.map((e) => e.code));
    // The non-ESG active fund is in the answer, the liquidated ESG fund only in the list.
    expect(sitca.map((f) => f.fundClass)).toContain('AL11');
    expect(fundList.rows.length).toBe(u.etfs.length + 2);
    for (const e of u.etfs) {
      const f = j.funds.find((x) => x.code === e.code)!;
      expect(f.name).toBe(e.name);
      expect(f.period).toBe(`${e.year}Q${e.quarter}`);
      expect(f.asof).toBe(quarterEnd(e.year, e.quarter));
      expect(f.minWeight).toBe(0.01);
      const published = e.holdings.filter((h) => h.weight >= 100 && h.code !== 'CASH');
      expect(f.holdings.map((h) => h.code)).toEqual(published.map((h) => h.code));
      f.holdings.forEach((h, i) => expect(h.weight).toBeCloseTo(published[i]!.weight / 10_000, 10));
    }
  });

  it('are the same bytes for the same seed', async () => {
    const u = buildUniverse({ seed: 3, companies: 200, asof: parseIsoDay('2026-05-02') });
    const a = fixtureDir({});
    const b = fixtureDir({});
    await writeSitcaDemoFiles(a, u);
    await writeSitcaDemoFiles(b, u);
    for (const f of ['sitca-IN2630-form.html', 'sitca-IN2630-202603-AH11.html', 'sitca-IN2630-202603-AL11.html', 't187ap47_L.json']) {
      expect(readFileSync(join(a, f), 'utf8')).toBe(readFileSync(join(b, f), 'utf8'));
    }
  });
});

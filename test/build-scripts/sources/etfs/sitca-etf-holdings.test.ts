import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RejectLog, SourceFileError } from '../../../../build-scripts/adapters/read-layout.js';
import {
  checkSitcaAnswer,
  newestPeriod,
  parseSitcaAnswer,
  readSitcaHoldings,
  readSitcaPage,
  SITCA_URL,
  sitcaEtfHoldingsModule,
  type SitcaFund,
} from '../../../../build-scripts/sources/etfs/sitca-etf-holdings.js';
import { fundNameOf, securityName, withoutFundNote } from '../../../../build-scripts/sources/etfs/sitca-table.js';
import type { AnswerRequest, FetchSession, KeptAnswer } from '../../../../build-scripts/sources/kit/source.js';
import { fixtureDirs } from '../../adapters/fixture-dir.js';

const fixtureDir = fixtureDirs('sitca-');

/**
 * A SITCA IN2630 answer written by hand from shared/spec/sources.md: the ASP.NET form (hidden state,
 * the period and class selects with the chosen option marked), then one table. A fund's first row
 * starts with its full name, later rows hold one holding each, a 合計 row closes the fund; holding
 * cells are market, code, name, amount, …, and last the weight in percent of net assets.
 */
function answer(o: { period?: string; fundClass?: string; state?: string; table?: string | null } = {}): string {
  const period = o.period ?? '202509';
  const fundClass = o.fundClass ?? 'AH11';
  const state = o.state ?? 'S1';
  const opt = (v: string, chosen: string) => `<option value="${v}"${v === chosen ? ' selected="selected"' : ''}>${v}</option>`;
  const table = o.table === undefined ? TABLE : (o.table ?? '');
  return `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>基金投資明細</title></head><body>
<form method="post" action="./IN2630.aspx?pid=IN22601_05" id="aspnetForm">
<input type="hidden" name="__EVENTTARGET" id="__EVENTTARGET" value="" />
<input type="hidden" name="__VIEWSTATE" id="__VIEWSTATE" value="VS-${state}+/=" />
<input type="hidden" name="__VIEWSTATEGENERATOR" id="__VIEWSTATEGENERATOR" value="GEN-${state}" />
<input type="hidden" name="__EVENTVALIDATION" id="__EVENTVALIDATION" value="EV-${state}" />
<table><tr><td>年月</td><td><select name="ctl00$ContentPlaceHolder1$ddlQ_YM">${['202503', '202506', '202509'].map((p) => opt(p, period)).join('')}</select></td></tr>
<tr><td>類型</td><td><select name="ctl00$ContentPlaceHolder1$ddlQ_Class">${['AA1', 'AH11', 'AL11'].map((c) => opt(c, fundClass)).join('')}</select></td></tr></table>
${table}
</form></body></html>`;
}

const HEADER =
  '<tr><th>基金名稱</th><th>標的種類</th><th>標的代號</th><th>標的名稱</th><th>金額</th><th>擔保機構</th><th>次順位債券</th><th>受益權單位數</th><th>占基金淨資產價值之比例(%)</th></tr>';
const TABLE = `<table class="DataTable">
${HEADER}
<tr><td rowspan="3">元大台灣ESG永續ETF證券投資信託基金</td><td>國內上市</td><td>2330</td><td>台積電</td><td>12,345,678,901</td><td></td><td></td><td>0</td><td>32.10</td></tr>
<tr><td>國內上櫃</td><td>5274</td><td>信驊</td><td>1,234,567</td><td></td><td></td><td>0</td><td>1.05</td></tr>
<tr><td>國外</td><td>us0378331005</td><td>APPLE INC</td><td>987,654</td><td></td><td></td><td>0</td><td>1.00%</td></tr>
<tr><td colspan="4">合計</td><td>12,347,901,122</td><td></td><td></td><td></td><td>34.15</td></tr>
<tr><td rowspan="3">國泰台灣低碳&nbsp;ETF證券投資信託基金</td><td>國內上市</td><td>2317</td><td>鴻海</td><td>500,000</td><td></td><td></td><td>0</td><td>5.5</td></tr>
<tr><td>國內上市</td><td>00878</td><td>國泰永續高股息</td><td>100,000</td><td></td><td></td><td>0</td><td>2.25</td></tr>
<tr><td>合計</td><td></td><td></td><td>600,000</td><td></td><td></td><td></td><td>7.75</td></tr>
</table>`;

const FUND_A: SitcaFund['holdings'] = [
  { kind: '國內上市', code: '2330', name: '台積電', weight: 0.321 },
  { kind: '國內上櫃', code: '5274', name: '信驊', weight: 0.0105 },
  { kind: '國外', code: 'US0378331005', name: 'APPLE INC', weight: 0.01 },
];

describe('parseSitcaAnswer (SRC-SITCA-ETF-HOLDINGS)', () => {
  it('reads funds spanning rows (rowspan), a 國外 row with its ISIN, and 合計 rows closing each fund', () => {
    const rejects = new RejectLog();
    const funds = parseSitcaAnswer(answer(), 'sitca-IN2630-202509-AH11.html', '202509', 'AH11', rejects);
    expect(rejects.format()).toBe('');
    expect(funds.map((f) => ({ name: f.name, period: f.period, fundClass: f.fundClass, holdings: f.holdings }))).toEqual([
      { name: '元大台灣ESG永續ETF證券投資信託基金', period: '202509', fundClass: 'AH11', holdings: FUND_A },
      {
        name: '國泰台灣低碳 ETF證券投資信託基金',
        period: '202509',
        fundClass: 'AH11',
        holdings: [
          { kind: '國內上市', code: '2317', name: '鴻海', weight: 0.055 },
          { kind: '國內上市', code: '00878', name: '國泰永續高股息', weight: 0.0225 },
        ],
      },
    ]);
    expect(funds[0]!.line).toBeGreaterThan(1);
  });

  it('reads later rows written without the fund cell (no rowspan) and a name repeated on every row', () => {
    const table = `<table>${HEADER}
<tr><td>甲基金</td><td>國內上市</td><td>1101</td><td>台泥</td><td>1</td><td></td><td></td><td>0</td><td>3</td></tr>
<tr><td>國內上市</td><td>1102</td><td>亞泥</td><td>1</td><td></td><td></td><td>0</td><td>2</td></tr>
<tr><td colspan="8">合計</td><td>5</td></tr>
<tr><td>乙基金</td><td>國內上市</td><td>2330</td><td>台積電</td><td>1</td><td></td><td></td><td>0</td><td>4</td></tr>
<tr><td>乙基金</td><td>國內上市</td><td>2454</td><td>聯發科</td><td>1</td><td></td><td></td><td>0</td><td>1.5</td></tr>
<tr><td colspan="8">合計</td><td>5.5</td></tr></table>`;
    const rejects = new RejectLog();
    const funds = parseSitcaAnswer(answer({ table }), 'a.html', '202509', 'AH11', rejects);
    expect(rejects.count).toBe(0);
    expect(funds.map((f) => [f.name, f.holdings.map((h) => [h.code, h.weight])])).toEqual([
      [
        '甲基金',
        [
          ['1101', 0.03],
          ['1102', 0.02],
        ],
      ],
      [
        '乙基金',
        [
          ['2330', 0.04],
          ['2454', 0.015],
        ],
      ],
    ]);
  });

  it('refuses an answer showing another period than the one asked for, naming the request and what came back', () => {
    const err = (() => {
      try {
        parseSitcaAnswer(answer({ period: '202506' }), 'sitca-IN2630-202509-AH11.html', '202509', 'AH11', new RejectLog());
      } catch (e) {
        return e as Error;
      }
      return null;
    })();
    expect(err).toBeInstanceOf(SourceFileError);
    expect(err!.message).toMatch(
      /SRC-SITCA-ETF-HOLDINGS sitca-IN2630-202509-AH11\.html: asked for period 202509, class AH11; the answer shows period 202506, class AH11/,
    );
  });

  it('refuses an answer showing another class than the one asked for', () => {
    expect(() => parseSitcaAnswer(answer({ fundClass: 'AL11' }), 'x.html', '202509', 'AH11', new RejectLog())).toThrow(
      /asked for period 202509, class AH11; the answer shows period 202509, class AL11/,
    );
  });

  it('refuses an answer with no holdings table; a table with no rows is an empty class', () => {
    expect(() => parseSitcaAnswer(answer({ table: null }), 'x.html', '202509', 'AH11', new RejectLog())).toThrow(
      /SRC-SITCA-ETF-HOLDINGS x\.html: asked for period 202509, class AH11; the answer has no holdings table/,
    );
    expect(() => parseSitcaAnswer(answer({ table: '<p>查詢逾時，請重新查詢</p>' }), 'x.html', '202509', 'AH11', new RejectLog())).toThrow(
      /no holdings table/,
    );
    expect(parseSitcaAnswer(answer({ table: `<table>${HEADER}</table>` }), 'x.html', '202509', 'AH11', new RejectLog())).toEqual([]);
  });

  it('refuses a page that marks no period or class selected (a lost session answers the bare form)', () => {
    const bare = answer().replace(/ selected="selected"/g, '');
    expect(() => parseSitcaAnswer(bare, 'x.html', '202509', 'AH11', new RejectLog())).toThrow(
      /the answer shows period \(none selected\), class \(none selected\)/,
    );
    const noSelects = '<html><body><form><p>查詢逾時，請重新查詢</p></form></body></html>';
    expect(() => parseSitcaAnswer(noSelects, 'x.html', '202509', 'AH11', new RejectLog())).toThrow(
      /the answer shows period \(no such select\), class \(no such select\)/,
    );
  });

  it('fails loudly, naming the file and the header, when a column cannot be told from the header', () => {
    const renamed = HEADER.replace('占基金淨資產價值之比例(%)', '說明');
    expect(() =>
      parseSitcaAnswer(
        answer({
          table: `<table>${renamed}<tr><td>甲</td><td>國內上市</td><td>1101</td><td>台泥</td><td>1</td><td></td><td></td><td>0</td><td>3</td></tr></table>`,
        }),
        'x.html',
        '202509',
        'AH11',
        new RejectLog(),
      ),
    ).toThrow(
      /x\.html: cannot tell the holdings columns from the table's header \[基金名稱 \| 標的種類 \| 標的代號 \| 標的名稱 \| 金額 \| 擔保機構 \| 次順位債券 \| 受益權單位數 \| 說明\]: no column labelled 比例/,
    );
  });

  it('rejects rows that do not fit (file:line: reason) and leaves out a fund the table leaves unclosed', () => {
    const table = `<table>${HEADER}
<tr><td rowspan="3">甲基金</td><td>國內上市</td><td>1101</td><td>台泥</td><td>1</td><td></td><td></td><td>0</td><td>abc</td></tr>
<tr><td>國內上市</td><td></td><td>亞泥</td><td>1</td><td></td><td></td><td>0</td><td>2</td></tr>
<tr><td>國內上市</td><td>2330</td><td>台積電</td><td>1</td><td></td><td></td><td>0</td><td>4</td></tr>
<tr><td colspan="8">合計</td><td>4</td></tr>
<tr><td>乙基金</td><td>國內上市</td><td>2330</td><td>台積電</td><td>1</td><td></td><td></td><td>0</td><td>4</td></tr>
</table>`;
    const rejects = new RejectLog();
    const funds = parseSitcaAnswer(answer({ table }), 'x.html', '202509', 'AH11', rejects);
    expect(funds.map((f) => [f.name, f.holdings.map((h) => h.code)])).toEqual([['甲基金', ['2330']]]);
    const lines = rejects.format().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^x\.html:\d+: 占基金淨資產價值之比例\(%\): /);
    expect(lines[1]).toMatch(/^x\.html:\d+: 標的代號: must not be empty$/);
    expect(lines[2]).toMatch(/^x\.html:\d+: 乙基金: not closed by a 合計 row at the end of the table/);
  });
});

/** A hand-written page in the genuine answer's form (test/fixtures; see its header comment). */
const GENUINE_FORM = readFileSync(join(import.meta.dirname, '../../../fixtures/sitca-IN2630-genuine-form.html'), 'utf8');

describe("the genuine answer's form (10 columns with 名次, 合計 over nine, notes, 國巨*)", () => {
  it('reads funds without their notes, names without *, kinds, ISINs and weights by the header labels', () => {
    const rejects = new RejectLog();
    const funds = parseSitcaAnswer(GENUINE_FORM, 'sitca-IN2630-202509-AH11.html', '202509', 'AH11', rejects);
    expect(rejects.format()).toBe('');
    expect(funds.map((f) => [f.name, f.holdings.map((h) => [h.kind, h.code, h.name, h.weight])])).toEqual([
      [
        '兆豐臺灣藍籌30ETF基金',
        [
          ['國內上市', '2330', '台積電', 0.2556],
          ['國內上市', '2454', '聯發科', 0.1457],
          ['國內上市', '2327', '國巨', 0.0315],
        ],
      ],
      [
        '國泰台灣高股息傘型基金之台灣ESG永續高股息ETF基金',
        [
          ['國內上市', '2303', '聯電', 0.0412],
          ['國內上市', '3231', '緯創', 0.0377],
        ],
      ],
      [
        '兆豐美國企業優選投資級公司債ETF基金',
        [
          ['公司債 無擔保', 'US30303MAE21', 'META 5 58 111555', 0.0162],
          ['公司債 無擔保', 'US747525BT99', 'QCOM 6 052053', 0.0152],
          ['公司債 無擔保', 'US00206RML32', 'AT&T 5.4 021534', 0.0123],
        ],
      ],
      ['富蘭克林華美臺灣ESG永續高息ETF基金', [['國內上市', '2412', '中華電', 0.0308]]],
    ]);
    // The fund cell's whitespace (a new line and tabs around the name) is not part of the name.
    for (const f of funds) expect(f.name).toBe(f.name.trim());
  });

  it('reads the period options labelled `2025 年 09 月`, by value or, without one, by label', () => {
    const page = readSitcaPage(GENUINE_FORM, 'f.html');
    expect(page.periods).toEqual(['202506', '202509']);
    expect(page.period).toBe('202509');
    expect(page.fundClass).toBe('AH11');
    const labelsOnly = readSitcaPage(GENUINE_FORM.replace(/ value="(\d{6})"/g, ''), 'f.html');
    expect(labelsOnly.periods).toEqual(['202506', '202509']);
    expect(labelsOnly.period).toBe('202509');
    expect(newestPeriod(labelsOnly.periods)).toBe('202509');
  });

  it('a fund cell whose rowspan counts more rows than the table shows (an excerpt) ends at its 合計', () => {
    const table = `<table><tr><td>基金名稱</td><td>名次</td><td>標的種類</td><td>標的代號</td><td>標的名稱</td><td>金額</td><td>擔保機構**</td><td>次順位債券**</td><td>受益權單位數***</td><td>占基金淨資產價值之比例(%)</td></tr>
<tr><td rowspan="10">甲ETF基金</td><td>1</td><td>國內上市</td><td>2330</td><td>台積電</td><td>1</td><td></td><td></td><td>0</td><td>25.56</td></tr>
<tr><td>2</td><td>國內上市</td><td>2327</td><td>國巨*</td><td>1</td><td></td><td></td><td>0</td><td>3.15</td></tr>
<tr><td colspan="9">合計</td><td>28.71</td></tr>
<tr><td rowspan="10">乙ETF基金<br>(基金之配息來源可能為收益平準金)</td><td>1</td><td>公司債 無擔保</td><td>US30303MAE21</td><td>META 5 58 111555</td><td>1</td><td></td><td></td><td>0</td><td>1.62</td></tr>
<tr><td colspan="9">合計</td><td>1.62</td></tr></table>`;
    const rejects = new RejectLog();
    const funds = parseSitcaAnswer(answer({ table }), 'x.html', '202509', 'AH11', rejects);
    expect(rejects.format()).toBe('');
    expect(funds.map((f) => [f.name, f.holdings.map((h) => [h.code, h.name, h.weight])])).toEqual([
      [
        '甲ETF基金',
        [
          ['2330', '台積電', 0.2556],
          ['2327', '國巨', 0.0315],
        ],
      ],
      ['乙ETF基金', [['US30303MAE21', 'META 5 58 111555', 0.0162]]],
    ]);
  });

  it('fund notes: after <br> or in trailing parentheses (half- or full-width) they go; a class or currency stays', () => {
    expect(fundNameOf(['元大台灣高股息基金', '(基金之配息來源可能為收益平準金)'])).toBe('元大台灣高股息基金');
    expect(fundNameOf(['國泰台灣高股息傘型基金之', '台灣ESG永續高股息ETF基金'])).toBe('國泰台灣高股息傘型基金之 台灣ESG永續高股息ETF基金');
    expect(withoutFundNote('元大台灣高股息基金(基金之配息來源可能為收益平準金)')).toBe('元大台灣高股息基金');
    expect(withoutFundNote('元大台灣高股息基金 （本基金之配息來源可能為收益平準金）')).toBe('元大台灣高股息基金');
    expect(withoutFundNote('某某基金(美元)')).toBe('某某基金(美元)');
    expect(withoutFundNote('元大美國政府20年期(以上)債券ETF基金')).toBe('元大美國政府20年期(以上)債券ETF基金');
    expect(securityName('國巨*')).toBe('國巨');
    expect(securityName('台積電')).toBe('台積電');
  });
});

describe('readSitcaPage', () => {
  it('reads the hidden state, the periods and the chosen options with a real HTML parser', () => {
    const page = readSitcaPage(answer({ period: '202506', fundClass: 'AL11', state: 'Z' }), 'f.html');
    expect(page.hidden).toEqual({ __VIEWSTATE: 'VS-Z+/=', __VIEWSTATEGENERATOR: 'GEN-Z', __EVENTVALIDATION: 'EV-Z' });
    expect(page.periods).toEqual(['202503', '202506', '202509']);
    expect(page.period).toBe('202506');
    expect(page.fundClass).toBe('AL11');
    expect(newestPeriod(page.periods)).toBe('202509');
    expect(newestPeriod(['202412', '202509', '202503'])).toBe('202509');
  });
});

describe('readSitcaHoldings', () => {
  const al11 = answer({
    fundClass: 'AL11',
    table: `<table>${HEADER}<tr><td rowspan="2">主動甲ETF證券投資信託基金</td><td>國內上市</td><td>2330</td><td>台積電</td><td>1</td><td></td><td></td><td>0</td><td>9.5</td></tr><tr><td>合計</td><td></td><td></td><td></td><td></td><td></td><td></td><td>9.5</td></tr></table>`,
  });

  it('reads both classes of the newest period only', async () => {
    const dir = fixtureDir({
      'sitca-IN2630-form.html': answer({ table: null }),
      'sitca-IN2630-202509-AH11.html': answer(),
      'sitca-IN2630-202509-AL11.html': al11,
      // An older period kept from an earlier fetch: ignored (and it would be refused: it shows another period).
      'sitca-IN2630-202506-AH11.html': answer(),
      'unrelated.html': '<html></html>',
    });
    const rejects = new RejectLog();
    const funds = await readSitcaHoldings(dir, rejects);
    expect(rejects.count).toBe(0);
    expect(funds.map((f) => [f.name, f.fundClass, f.period, f.file])).toEqual([
      ['元大台灣ESG永續ETF證券投資信託基金', 'AH11', '202509', 'sitca-IN2630-202509-AH11.html'],
      ['國泰台灣低碳 ETF證券投資信託基金', 'AH11', '202509', 'sitca-IN2630-202509-AH11.html'],
      ['主動甲ETF證券投資信託基金', 'AL11', '202509', 'sitca-IN2630-202509-AL11.html'],
    ]);
    expect(funds[0]!.holdings).toEqual(FUND_A);
  });

  it('refuses a file whose page shows another period than its name, and one class without the other', async () => {
    await expect(
      readSitcaHoldings(
        fixtureDir({ 'sitca-IN2630-202509-AH11.html': answer({ period: '202506' }), 'sitca-IN2630-202509-AL11.html': al11 }),
        new RejectLog(),
      ),
    ).rejects.toThrow(/asked for period 202509, class AH11; the answer shows period 202506/);
    await expect(readSitcaHoldings(fixtureDir({ 'sitca-IN2630-202509-AH11.html': answer() }), new RejectLog())).rejects.toThrow(
      /sitca-IN2630-202509-AL11\.html is missing/,
    );
  });
});

/** A fetch session answering from canned pages: keeps each answer under `file`, calls the plan's check, records what was asked. */
class FakeSession implements FetchSession {
  readonly requests: AnswerRequest[] = [];
  constructor(
    private readonly dir: string,
    private readonly serve: (r: AnswerRequest) => string,
  ) {}
  async request(r: AnswerRequest): Promise<KeptAnswer> {
    this.requests.push(r);
    const path = join(this.dir, r.file);
    writeFileSync(path, this.serve(r));
    const records = r.check ? await r.check(path) : 0;
    return { file: r.file, path, records, sha256: '' };
  }
  log(): void {}
}

describe('sitcaEtfHoldingsModule', () => {
  it('registry: SITCA, not government, quarterly, no open-data licence', () => {
    const i = sitcaEtfHoldingsModule.info;
    expect(i).toMatchObject({
      source_id: 'SRC-SITCA-ETF-HOLDINGS',
      owner_org: 'SITCA',
      is_government: false,
      update_frequency: 'quarterly',
      homepage_url: SITCA_URL,
    });
    expect(i.licence.id).toBe('none');
    expect(sitcaEtfHoldingsModule.files.answers.test('sitca-IN2630-form.html')).toBe(true);
    expect(sitcaEtfHoldingsModule.files.answers.test('sitca-IN2630-202509-AL11.html')).toBe(true);
    expect(sitcaEtfHoldingsModule.files.answers.test('sitca-IN2630-202509-AA1.html')).toBe(false);
  });

  it('plan: GET the form, then POST AH11 and AL11 for the newest period, each with the state of the answer before it', async () => {
    const dir = fixtureDir({});
    const session = new FakeSession(dir, (r) => {
      if (r.method === 'GET') return answer({ period: '202509', state: 'FORM', table: null });
      const body = new URLSearchParams(r.body);
      const cls = body.get('ctl00$ContentPlaceHolder1$ddlQ_Class')!;
      return cls === 'AH11' ? answer({ fundClass: 'AH11', state: 'AFTER-AH11' }) : answer({ fundClass: 'AL11', state: 'AFTER-AL11' });
    });
    await sitcaEtfHoldingsModule.plan!.run(session, { url: SITCA_URL, asof: '2025-11-30', moenvKey: '' });
    expect(session.requests.map((r) => [r.method, r.file, r.expect])).toEqual([
      ['GET', 'sitca-IN2630-form.html', 'html'],
      ['POST', 'sitca-IN2630-202509-AH11.html', 'html'],
      ['POST', 'sitca-IN2630-202509-AL11.html', 'html'],
    ]);
    const [, ah11, al11] = session.requests;
    const sent = Object.fromEntries(new URLSearchParams(ah11!.body));
    expect(sent).toEqual({
      __EVENTTARGET: '',
      __EVENTARGUMENT: '',
      __VIEWSTATE: 'VS-FORM+/=',
      __VIEWSTATEGENERATOR: 'GEN-FORM',
      __EVENTVALIDATION: 'EV-FORM',
      ctl00$ContentPlaceHolder1$rdo1: 'rbClass',
      ctl00$ContentPlaceHolder1$ddlQ_YM: '202509',
      ctl00$ContentPlaceHolder1$ddlQ_Class: 'AH11',
      ctl00$ContentPlaceHolder1$ddlQ_Class1: 'AH11',
      ctl00$ContentPlaceHolder1$ddlQ_Comid: 'A0001',
      ctl00$ContentPlaceHolder1$ddlQ_Comid1: 'A0001',
      ctl00$ContentPlaceHolder1$BtnQuery: '查詢',
    });
    expect(ah11!.headers).toEqual({ 'content-type': 'application/x-www-form-urlencoded', referer: SITCA_URL, origin: 'https://www.sitca.org.tw' });
    expect(new URLSearchParams(al11!.body).get('__VIEWSTATE')).toBe('VS-AFTER-AH11+/=');
    expect(new URLSearchParams(al11!.body).get('__EVENTVALIDATION')).toBe('EV-AFTER-AH11');
    // The manifest's copy of the body leaves the echoed state out.
    const recorded = Object.fromEntries(new URLSearchParams(al11!.recordedBody));
    expect(recorded.__VIEWSTATE).toBe('(from the previous answer)');
    expect(recorded.__EVENTVALIDATION).toBe('(from the previous answer)');
    expect(al11!.recordedBody).not.toContain('AFTER');
    expect(recorded['ctl00$ContentPlaceHolder1$ddlQ_Class']).toBe('AL11');
  });

  it('plan: refuses an answer for another period (the known fault) and counts holding rows', async () => {
    const dir = fixtureDir({});
    const session = new FakeSession(dir, (r) => (r.method === 'GET' ? answer({ table: null }) : answer({ period: '202506' })));
    await expect(sitcaEtfHoldingsModule.plan!.run(session, { url: SITCA_URL, asof: '2025-11-30', moenvKey: '' })).rejects.toThrow(
      /asked for period 202509, class AH11; the answer shows period 202506/,
    );
    const path = join(dir, 'ok.html');
    writeFileSync(path, answer());
    expect(await checkSitcaAnswer(path, 'ok.html', '202509', 'AH11')).toBe(5);
    expect(readFileSync(path, 'utf8')).toContain('合計');
  });
});

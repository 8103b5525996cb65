/**
 * The demo's ETF holdings in the forms the real publishers serve them (shared/spec/sources.md, "ETF
 * holdings"): SITCA's IN2630 form page and its two class answers for the newest quarter (HTML, the
 * fund's full name spanning its rows, a 合計 row closing each fund, only holdings of 1 % of net
 * assets or more), and the TWSE fund list `t187ap47_L.json` (every value a string) that gives the
 * full names their codes. The same file names a fetch writes, so the real readers beside it
 * (sitca-etf-holdings.ts, twse-etf-list.ts, etf-funds.ts) read the demo as they read the publishers.
 *
 * Beside the demo's ESG ETFs the files hold a few funds that exercise the rules: an active fund with
 * no ESG word (in the AL11 answer, left out by the rule), a liquidated ESG fund (in the list, absent
 * from the answers) and one ESG ETF whose full name SITCA writes with 臺, full-width letters and an
 * ideographic space where the list writes 台 and half-width (the join still matches it). The table
 * has the genuine answer's form (sources.md, "Genuine answers"): ten columns with 名次 and 標的種類,
 * `合計` spanning nine, period options labelled `2026 年 09 月`, a high-dividend fund's name carrying
 * the note `<br>(基金之配息來源可能為收益平準金)`, and some security names marked `*` (國巨*); the
 * readers drop the note and the mark, so the demo's facts do not depend on them.
 */
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FIELD, SITCA_FORM_FILE, sitcaAnswerFile, type HiddenState, type SitcaClass } from './sitca-etf-holdings.js';
import { fromYmd, rocYear, toYmd, type Day } from '../../demo-model/dates.js';
import type { Company, Universe } from '../../demo-model/model.js';

const LIST_FILE = 't187ap47_L.json';
const ISSUER = '示範投信';
const INDEX_TYPE = '國內成分證券指數股票型基金';
const ACTIVE_TYPE = '國內成分證券主動式交易所交易基金(股票)';
/** Holdings under 1 % of net assets (100 hundredths of a percent) are not published. */
const MIN_HUNDREDTHS = 100;
/** Quarters offered by the form's period list, the newest last. */
const PERIODS_OFFERED = 8;

/** An extra fund of the files (not one of the universe's ETFs). */
interface ExtraFund {
  code: string;
  name: string;
  type: string;
  index: string;
  /** In SITCA's answer (class), or absent (liquidated). */
  fundClass: SitcaClass | null;
}

const NON_ESG_ACTIVE: ExtraFund = { code: 'DE5901', name: '示範主動科技成長', type: ACTIVE_TYPE, index: '不適用', fundClass: 'AL11' };
const LIQUIDATED: ExtraFund = { code: 'DE5902', name: '示範低碳領航', type: INDEX_TYPE, index: '示範低碳領航指數', fundClass: null };

interface Row {
  /** 標的種類. */
  kind: string;
  code: string;
  name: string;
  /** Hundredths of a percent of net assets. */
  weight: number;
}

interface SitcaDemoFund {
  fullName: string;
  /** SITCA's note after the name (`<br>`), if any. */
  note?: string;
  /** Net assets in NT$, for the amount column. */
  nav: number;
  rows: Row[];
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const thousands = (n: number) =>
  Math.round(n)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
const pct = (hundredths: number) => (hundredths / 100).toFixed(2);
/** ROC compact as t187ap47_L writes dates: seven digits, a leading zero before ROC year 100 (`0920630`). */
function roc7(day: Day): string {
  const { y, m, d } = toYmd(day);
  return `${String(rocYear(y)).padStart(3, '0')}${String(m).padStart(2, '0')}${String(d).padStart(2, '0')}`;
}
const halfToFull = (s: string) => s.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));

/** The full name a fund has in the list; SITCA writes the same name (one fund in another spelling). */
const listFullName = (name: string) => `${ISSUER}${name.replace(/臺/g, '台')}ETF證券投資信託基金`;
const sitcaVariantName = (name: string) => `${ISSUER}\u3000${name.replace(/台/g, '臺')}${halfToFull('ETF')}證券投資信託基金`;

/** Base64 state values as ASP.NET writes them, fixed by the seed and the page. */
function state(seed: number, page: string): HiddenState {
  const h = (what: string, n: number) => {
    let out = '';
    for (let i = 0; out.length < n; i++) out += createHash('sha256').update(`${seed}/${page}/${what}/${i}`).digest('base64').replace(/=+$/, '');
    return out.slice(0, n);
  };
  return {
    __VIEWSTATE: `/wEPDw${h('viewstate', 400)}`,
    __VIEWSTATEGENERATOR: createHash('sha256').update(`${seed}/generator`).digest('hex').slice(0, 8).toUpperCase(),
    __EVENTVALIDATION: `/wEdA${h('validation', 160)}`,
  };
}

function periodsUpTo(year: number, quarter: number): string[] {
  const out: string[] = [];
  for (let k = PERIODS_OFFERED - 1; k >= 0; k--) {
    const idx = year * 4 + (quarter - 1) - k;
    out.push(`${Math.floor(idx / 4)}${String(((idx % 4) + 1) * 3).padStart(2, '0')}`);
  }
  return out;
}

function select(name: string, options: readonly (readonly [string, string])[], chosen: string): string {
  const id = name.replace(/\$/g, '_');
  const opts = options
    .map(([v, label]) => `\t\t<option${v === chosen ? ' selected="selected"' : ''} value="${esc(v)}">${esc(label)}</option>`)
    .join('\n');
  return `<select name="${esc(name)}" id="${id}">\n${opts}\n\t</select>`;
}

const CLASS_OPTIONS = [
  ['AH11', 'AH11 國內成分證券指數股票型基金'],
  ['AL11', 'AL11 國內成分證券主動式ETF'],
] as const;

/** The whole page: the ASP.NET form with its state and filters, and the holdings table when given. */
function page(s: HiddenState, periods: readonly string[], period: string, fundClass: SitcaClass, table: string): string {
  const periodOptions = periods.map((p) => [p, `${p.slice(0, 4)} 年 ${p.slice(4)} 月`] as const);
  const company = [['A0001', 'A0001 示範投信']] as const;
  return (
    `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml">
<head><meta http-equiv="Content-Type" content="text/html; charset=utf-8" /><title>
	示範 基金投資明細－季占基金淨資產價值1%以上 (fictional demo page)
</title></head>
<body>
<form method="post" action="./IN2630.aspx?pid=IN22601_05" id="aspnetForm">
<div class="aspNetHidden">
<input type="hidden" name="__EVENTTARGET" id="__EVENTTARGET" value="" />
<input type="hidden" name="__EVENTARGUMENT" id="__EVENTARGUMENT" value="" />
<input type="hidden" name="__VIEWSTATE" id="__VIEWSTATE" value="${esc(s.__VIEWSTATE)}" />
</div>
<div class="aspNetHidden">
	<input type="hidden" name="__VIEWSTATEGENERATOR" id="__VIEWSTATEGENERATOR" value="${esc(s.__VIEWSTATEGENERATOR)}" />
	<input type="hidden" name="__EVENTVALIDATION" id="__EVENTVALIDATION" value="${esc(s.__EVENTVALIDATION)}" />
</div>
<table class="QueryTable" width="100%">
	<tr>
		<td class="QueryLabel">資料年月</td>
		<td>${select(FIELD.period, periodOptions, period)}</td>
	</tr>
	<tr>
		<td class="QueryLabel"><input id="ctl00_ContentPlaceHolder1_rbComid" type="radio" name="${FIELD.radio}" value="rbComid" /><label for="ctl00_ContentPlaceHolder1_rbComid">依公司</label></td>
		<td>${select(FIELD.company, company, 'A0001')} ${select(FIELD.fundClass1, CLASS_OPTIONS, fundClass)}</td>
	</tr>
	<tr>
		<td class="QueryLabel"><input id="ctl00_ContentPlaceHolder1_rbClass" type="radio" name="${FIELD.radio}" ` +
    `value="rbClass" checked="checked" /><label for="ctl00_ContentPlaceHolder1_rbClass">依類型</label></td>
		<td>${select(FIELD.fundClass, CLASS_OPTIONS, fundClass)} ${select(FIELD.company1, company, 'A0001')}</td>
	</tr>
	<tr>
		<td colspan="2"><input type="submit" name="${FIELD.button}" value="查詢" id="ctl00_ContentPlaceHolder1_BtnQuery" /></td>
	</tr>
</table>
${table}
</form>
</body>
</html>
`
  );
}

const HEADER = [
  '基金名稱',
  '名次',
  '標的種類',
  '標的代號',
  '標的名稱',
  '金額',
  '擔保機構**',
  '次順位債券**',
  '受益權單位數***',
  '占基金淨資產價值之比例(%)',
];
/** The note SITCA writes under the name of a fund that may pay distributions from its equalisation reserve. */
const DISTRIBUTION_NOTE = '(基金之配息來源可能為收益平準金)';

function holdingsTable(funds: readonly SitcaDemoFund[]): string {
  const lines = [
    '<table class="DataTable" border="1" cellspacing="0" cellpadding="2">',
    `\t<tr>${HEADER.map((h) => `<td class="DTHeader">${esc(h)}</td>`).join('')}</tr>`,
  ];
  for (const f of funds) {
    f.rows.forEach((r, i) => {
      const cls = i % 2 === 0 ? 'DTeven' : 'DTodd';
      const amount = (f.nav * r.weight) / 10_000;
      const cells = [String(i + 1), r.kind, r.code, r.name, thousands(amount), '', '', '0', pct(r.weight)].map(
        (c, k) => `<td class="${cls}"${k === 0 || k >= 4 ? ' align="right"' : ''}>${esc(c)}</td>`,
      );
      const name = i === 0 ? `<td class="DTeven" rowspan="${f.rows.length}">${esc(f.fullName)}${f.note ? `<br>${esc(f.note)}` : ''}</td>` : '';
      lines.push(`\t<tr>${name}${cells.join('')}</tr>`);
    });
    const sumWeight = f.rows.reduce((s, r) => s + r.weight, 0);
    lines.push(`\t<tr><td class="DTFooter" colspan="9">合計</td><td class="DTFooter" align="right">${pct(sumWeight)}</td></tr>`);
  }
  lines.push('</table>');
  return lines.join('\n');
}

const MARKET = { listed: '國內上市', otc: '國內上櫃' } as const;

/** Writes the SITCA form page, both class answers of the newest quarter and the TWSE fund list; returns data-row counts by file name. */
export async function writeSitcaDemoFiles(dir: string, u: Universe): Promise<Record<string, number>> {
  const first = u.etfs[0];
  if (first === undefined) throw new Error('the demo universe has no ETFs to write');
  const { year, quarter } = first;
  if (u.etfs.some((e) => e.year !== year || e.quarter !== quarter)) throw new Error('the demo ETFs are not all of one quarter');
  const periods = periodsUpTo(year, quarter);
  const period = periods[periods.length - 1]!;
  const byTicker = new Map<string, Company>(u.companies.map((c) => [c.ticker, c]));
  const marketOf = (code: string) => {
    const c = byTicker.get(code);
    return c ? MARKET[c.market] : '國外';
  };
  const variant = Math.max(
    0,
    u.etfs.findIndex((e) => e.name.includes('臺')),
  );
  const noted = Math.max(
    0,
    u.etfs.findIndex((e) => e.name.includes('高股息')),
  );
  // Some securities carry SITCA's mark (國巨*), always the same ones.
  const marked = (code: string, name: string) => ((byTicker.get(code)?.index ?? 1) % 9 === 0 ? `${name}*` : name);
  const row = (kind: string, code: string, name: string, weight: number): Row => ({ kind, code, name: marked(code, name), weight });

  const index: SitcaDemoFund[] = u.etfs.map((e, i) => ({
    fullName: i === variant ? sitcaVariantName(e.name) : listFullName(e.name),
    ...(i === noted ? { note: DISTRIBUTION_NOTE } : {}),
    nav: 2e9 * (i + 1) + 5e8,
    // Cash is not a security: SITCA lists securities only.
    rows: e.holdings.filter((h) => h.weight >= MIN_HUNDREDTHS && h.code !== 'CASH').map((h) => row(marketOf(h.code), h.code, h.name, h.weight)),
  }));
  const largest = [...u.companies].sort((a, b) => b.capital - a.capital || a.index - b.index).slice(0, 15);
  const active: SitcaDemoFund[] = [
    {
      fullName: listFullName(NON_ESG_ACTIVE.name),
      nav: 3.2e9,
      rows: largest.map((c, i) => row(MARKET[c.market], c.ticker, c.shortName, 900 - 40 * i)),
    },
  ];

  const counts: Record<string, number> = {};
  await writeFile(join(dir, SITCA_FORM_FILE), page(state(u.seed, SITCA_FORM_FILE), periods, period, 'AH11', ''), 'utf8');
  counts[SITCA_FORM_FILE] = 0;
  for (const [fundClass, funds] of [
    ['AH11', index],
    ['AL11', active],
  ] as const) {
    const file = sitcaAnswerFile(period, fundClass);
    await writeFile(join(dir, file), page(state(u.seed, file), periods, period, fundClass, holdingsTable(funds)), 'utf8');
    counts[file] = funds.reduce((s, f) => s + f.rows.length, 0);
  }

  const asof = roc7(u.asof);
  const record = (code: string, name: string, type: string, idx: string, i: number) => {
    const listed = fromYmd(i === 0 ? 2010 : 2014 + i, 1 + ((i * 5) % 12), 10 + (i % 15));
    return {
      出表日期: asof,
      基金代號: code,
      基金簡稱: name,
      基金類型: type,
      基金中文名稱: listFullName(name),
      基金英文名稱: `Demo Investment Trust ${code} ETF (fictional)`,
      '標的指數/追蹤指數名稱': idx,
      成立日期: roc7(listed - 7),
      上市日期: roc7(listed),
      '發行單位數/轉換數': String(50_000_000 + 12_345_000 * i),
    };
  };
  const list = [
    ...u.etfs.map((e, i) => record(e.code, e.name, INDEX_TYPE, `${e.name}指數`, i)),
    ...[NON_ESG_ACTIVE, LIQUIDATED].map((f, k) => record(f.code, f.name, f.type, f.index, u.etfs.length + k)),
  ];
  await writeFile(join(dir, LIST_FILE), JSON.stringify(list), 'utf8');
  counts[LIST_FILE] = list.length;
  return counts;
}

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { parse } from 'parse5';
import { cleanText } from '../../adapters/clean-text.js';
import { detectEncoding } from '../../adapters/decode.js';
import { attr, elements, textOf, type Element } from '../../adapters/html.js';
import { RejectLog, SourceFileError } from '../../adapters/read-layout.js';
import { joinFunds } from './etf-funds.js';
import type { EtfFund } from '../kit/facts.js';
import { filesOf } from '../kit/files.js';
import { OWNERS, type Licence } from '../kit/registry-info.js';
import { fundsOfTable, holdingsTable, SITCA_SOURCE_ID, type HoldingsTable, type SitcaTableFund } from './sitca-table.js';
import type { FetchSession, PlanContext, ReadContext, SourceModule } from '../kit/source.js';
import { readFundList, twseEtfListModule } from './twse-etf-list.js';

/**
 * SRC-SITCA-ETF-HOLDINGS: the quarterly holdings of 1 % of net assets or more of every domestic ETF,
 * published by SITCA (中華民國證券投資信託暨顧問商業同業公會) on IN2630, an ASP.NET WebForms page
 * (shared/spec/sources.md, "The two sources with no GET file"). A fetch GETs the page
 * (`sitca-IN2630-form.html`), reads its hidden state and its periods, then POSTs the query for the
 * newest period, class AH11 (domestic index ETFs) and then AL11 (domestic active ETFs), each with
 * the hidden state of the answer before it; each answer is kept as served,
 * `sitca-IN2630-<YYYYMM>-<class>.html`. Every page is read with parse5, a real HTML parser; the
 * table's reading (columns found by their header labels, never by position) is in sitca-table.ts.
 *
 * SITCA names funds, not codes: the codes come from the TWSE fund list (twse-etf-list.ts), joined
 * on the full name in etf-funds.ts.
 */

export const SITCA_URL = 'https://www.sitca.org.tw/ROC/Industry/IN2630.aspx?pid=IN22601_05';
const SOURCE_ID = SITCA_SOURCE_ID;
export type { SitcaHolding } from './sitca-table.js';

export const SITCA_CLASSES = ['AH11', 'AL11'] as const;
export type SitcaClass = (typeof SITCA_CLASSES)[number];

export const SITCA_FORM_FILE = 'sitca-IN2630-form.html';
export const sitcaAnswerFile = (period: string, fundClass: SitcaClass) => `sitca-IN2630-${period}-${fundClass}.html`;
const ANSWER = /^sitca-IN2630-(\d{6})-(AH11|AL11)\.html$/;

/** The ASP.NET state a postback must echo, taken from the answer before it. */
export const HIDDEN_FIELDS = ['__VIEWSTATE', '__VIEWSTATEGENERATOR', '__EVENTVALIDATION'] as const;
export type HiddenState = Record<(typeof HIDDEN_FIELDS)[number], string>;

/** The form's control names. */
export const FIELD = {
  period: 'ctl00$ContentPlaceHolder1$ddlQ_YM',
  fundClass: 'ctl00$ContentPlaceHolder1$ddlQ_Class',
  fundClass1: 'ctl00$ContentPlaceHolder1$ddlQ_Class1',
  company: 'ctl00$ContentPlaceHolder1$ddlQ_Comid',
  company1: 'ctl00$ContentPlaceHolder1$ddlQ_Comid1',
  radio: 'ctl00$ContentPlaceHolder1$rdo1',
  button: 'ctl00$ContentPlaceHolder1$BtnQuery',
} as const;

/** What the manifest records in place of the echoed state (bulky and meaningless out of the session). */
export const STATE_NOTE = '(from the previous answer)';

/** SITCA's pages are public disclosure by an industry association: no open-data licence is granted, and the registry says so. */
export const SITCA_NO_LICENCE: Licence = { id: 'none', name: 'Public disclosure by SITCA; no open-data licence', url: SITCA_URL };

/** The POST body of one query (class and period) with the given hidden state, form-urlencoded. */
export function sitcaQueryBody(state: HiddenState, period: string, fundClass: SitcaClass): string {
  return new URLSearchParams([
    ['__EVENTTARGET', ''],
    ['__EVENTARGUMENT', ''],
    ...HIDDEN_FIELDS.map((f) => [f, state[f]] as [string, string]),
    [FIELD.radio, 'rbClass'],
    [FIELD.period, period],
    [FIELD.fundClass, fundClass],
    [FIELD.fundClass1, fundClass],
    [FIELD.company, 'A0001'],
    [FIELD.company1, 'A0001'],
    [FIELD.button, '查詢'],
  ]).toString();
}

/** The newest of the periods a form offers (YYYYMM; the greatest). */
export function newestPeriod(periods: readonly string[], file = SITCA_FORM_FILE): string {
  const valid = periods.filter((p) => /^\d{6}$/.test(p));
  if (valid.length === 0)
    throw new SourceFileError(
      `${SOURCE_ID} ${file}: the period list (${FIELD.period}) offers no YYYYMM period: ${JSON.stringify(periods.slice(0, 5))}`,
    );
  return valid.reduce((a, b) => (b > a ? b : a));
}

async function run(session: FetchSession, ctx: PlanContext): Promise<void> {
  const origin = new URL(ctx.url).origin;
  const form = await session.request({
    file: SITCA_FORM_FILE,
    method: 'GET',
    url: ctx.url,
    expect: 'html',
    check: async (path) => {
      const page = readSitcaPage(await decodeHtml(path), SITCA_FORM_FILE);
      hiddenState(page, SITCA_FORM_FILE);
      newestPeriod(page.periods);
      return 0;
    },
  });
  const period = newestPeriod(readSitcaPage(await decodeHtml(form.path), SITCA_FORM_FILE).periods);
  session.log(`${SOURCE_ID}: newest period ${period}`);
  let previous = { file: form.file, path: form.path };
  for (const fundClass of SITCA_CLASSES) {
    const state = hiddenState(readSitcaPage(await decodeHtml(previous.path), previous.file), previous.file);
    const file = sitcaAnswerFile(period, fundClass);
    const kept = await session.request({
      file,
      method: 'POST',
      url: ctx.url,
      headers: { 'content-type': 'application/x-www-form-urlencoded', referer: ctx.url, origin },
      body: sitcaQueryBody(state, period, fundClass),
      recordedBody: sitcaQueryBody({ __VIEWSTATE: STATE_NOTE, __VIEWSTATEGENERATOR: STATE_NOTE, __EVENTVALIDATION: STATE_NOTE }, period, fundClass),
      expect: 'html',
      check: (path) => checkSitcaAnswer(path, file, period, fundClass),
    });
    previous = { file: kept.file, path: kept.path };
  }
}

export const sitcaEtfHoldingsModule: SourceModule = {
  info: {
    source_id: SOURCE_ID,
    name: '基金投資明細－季占基金淨資產價值1%以上 (quarterly ETF holdings of 1 % of net assets or more, SITCA IN2630)',
    ...OWNERS.SITCA,
    licence: SITCA_NO_LICENCE,
    update_frequency: 'quarterly',
    homepage_url: SITCA_URL,
    description:
      'The holdings of every domestic index ETF (class AH11) and active ETF (AL11) that reach 1 % of the fund’s net ' +
      'assets, each quarter, with their weights. Only those holdings are published, so the listed weights of a broad ' +
      'ETF sum to well under 100 %. SITCA names funds, not codes: the code comes from the TWSE fund list ' +
      '(SRC-TWSE-ETF-LIST) by the fund’s full name. SITCA is an industry association under the FSC, not a government ' +
      'body, and its pages carry no open-data licence. No record-level link is known: a person finds a fund on the ' +
      'page by choosing the quarter and the class.',
    record_link: null,
  },
  files: { answers: /^sitca-IN2630-(form|\d{6}-(AH11|AL11))\.html$/, placed: [] },
  plan: { url: SITCA_URL, run },
  read: { kind: 'funds', read: readSitcaFunds },
  uses: [twseEtfListModule],
  // About 1,500 holding rows over some 150 domestic ETFs.
  assertions: { minRecords: 300, maxRecords: 20_000 },
};

// ---------------------------------------------------------------------------------------------
// Reading a page

interface Option {
  value: string;
  label: string;
  selected: boolean;
}
interface Select {
  options: Option[];
  /** The option the page marks `selected` (the last, if several); null when none is marked. */
  chosen: Option | null;
}

/** What a SITCA page says of itself: its hidden state, its selects, its tables. */
export interface SitcaPage {
  file: string;
  title: string;
  hidden: Partial<HiddenState>;
  /** Every value of the period select, in page order. */
  periods: string[];
  /** The period and class the page marks selected (null when the select is absent or marks none). */
  period: string | null;
  fundClass: string | null;
  /** Whether the period and class selects are on the page at all. */
  selects: { period: boolean; fundClass: boolean };
  tables: Element[];
}

function readSelect(sel: Element | undefined): Select | null {
  if (sel === undefined) return null;
  const options = [...elements(sel)]
    .filter((e) => e.tagName === 'option')
    .map((o) => ({ value: cleanText(attr(o, 'value') ?? textOf(o)), label: textOf(o), selected: attr(o, 'selected') !== null }));
  const marked = options.filter((o) => o.selected);
  return { options, chosen: marked[marked.length - 1] ?? null };
}

/**
 * A period option as YYYYMM: its value when that is YYYYMM, else read from the label SITCA shows
 * (`2026 年 08 月`, value `202608`); anything else as served, for the checks to refuse.
 */
function periodOf(o: Option): string {
  if (/^\d{6}$/.test(o.value)) return o.value;
  const m = /^(\d{4})\s*年\s*(\d{1,2})\s*月$/.exec(/年/.test(o.value) ? o.value : o.label);
  return m ? `${m[1]}${m[2]!.padStart(2, '0')}` : o.value;
}

/** Parses one SITCA page (the form or an answer). */
export function readSitcaPage(html: string, file: string): SitcaPage {
  const doc = parse(html, { sourceCodeLocationInfo: true });
  const all = [...elements(doc)];
  const hidden: Partial<HiddenState> = {};
  for (const f of HIDDEN_FIELDS) {
    const input = all.find((e) => e.tagName === 'input' && attr(e, 'name') === f);
    if (input) hidden[f] = attr(input, 'value') ?? '';
  }
  const select = (name: string) => readSelect(all.find((e) => e.tagName === 'select' && attr(e, 'name') === name));
  const periods = select(FIELD.period);
  const classes = select(FIELD.fundClass);
  const title = all.find((e) => e.tagName === 'title');
  return {
    file,
    title: title ? textOf(title) : '',
    hidden,
    periods: periods?.options.map(periodOf) ?? [],
    period: periods?.chosen ? periodOf(periods.chosen) : null,
    fundClass: classes?.chosen?.value ?? null,
    selects: { period: periods !== null, fundClass: classes !== null },
    tables: all.filter((e) => e.tagName === 'table'),
  };
}

/** The hidden state a postback echoes; a page without it cannot be posted back. */
export function hiddenState(page: SitcaPage, file: string): HiddenState {
  const missing = HIDDEN_FIELDS.filter((f) => page.hidden[f] === undefined);
  if (missing.length > 0)
    throw new SourceFileError(
      `${SOURCE_ID} ${file}: no hidden ${missing.join(', ')} on the page (not the ASP.NET form; title ${JSON.stringify(page.title)})`,
    );
  return page.hidden as HiddenState;
}

/** A SITCA page's text (UTF-8, or Big5 when the bytes say so; a BOM dropped). */
export async function decodeHtml(path: string): Promise<string> {
  const bytes = await readFile(path);
  return iconv.decode(bytes, detectEncoding(bytes.subarray(0, 1 << 16)) === 'utf8' ? 'utf8' : 'cp950');
}

// ---------------------------------------------------------------------------------------------
// The holdings table

/** One fund of one answer, named as SITCA names it (the full name, without a note). */
export interface SitcaFund extends SitcaTableFund {
  /** YYYYMM, a quarter-end month. */
  period: string;
  fundClass: SitcaClass;
  file: string;
}

const shown = (value: string | null, present: boolean) => value ?? (present ? '(none selected)' : '(no such select)');

/** Refuses an answer that is not the one asked for: another period or class, or no holdings table. */
function confirm(page: SitcaPage, period: string, fundClass: SitcaClass): HoldingsTable {
  const asked = `asked for period ${period}, class ${fundClass}`;
  if (page.period !== period || page.fundClass !== fundClass) {
    throw new SourceFileError(
      `${SOURCE_ID} ${page.file}: ${asked}; the answer shows period ${shown(page.period, page.selects.period)}, ` +
        `class ${shown(page.fundClass, page.selects.fundClass)} (the server answers other periods with another table; ` +
        `a lost session answers the bare form)`,
    );
  }
  const table = holdingsTable(page.tables, page.file);
  if (table === null)
    throw new SourceFileError(
      `${SOURCE_ID} ${page.file}: ${asked}; the answer has no holdings table (${page.tables.length} tables, none with a 代號 header; title ${JSON.stringify(page.title)})`,
    );
  return table;
}

/**
 * Parses one answer: checks that it shows the period and class asked for and has a holdings table,
 * and returns its funds (none when the table lists none: a class may be empty; the source's
 * assertions catch an empty fetch). Throws naming the source, the request and what came back.
 */
export function parseSitcaAnswer(html: string, file: string, period: string, fundClass: SitcaClass, rejects: RejectLog): SitcaFund[] {
  const page = readSitcaPage(html, file);
  return fundsOfTable(confirm(page, period, fundClass), file, rejects).map((f) => ({ ...f, period, fundClass, file }));
}

/** The fetch's check of one answer: the number of holding rows, or an Error refusing it. */
export async function checkSitcaAnswer(path: string, file: string, period: string, fundClass: SitcaClass): Promise<number> {
  const funds = parseSitcaAnswer(await decodeHtml(path), file, period, fundClass, new RejectLog());
  return funds.reduce((s, f) => s + f.holdings.length, 0);
}

/** YYYYMM of a quarter-end month, or null. */
const quarterEndPeriod = (p: string) => (/^\d{4}(03|06|09|12)$/.test(p) ? p : null);

/**
 * The funds of the newest period present in the folder, both classes (a fetch keeps both; one
 * without the other is refused). Each answer must show the period and class its name says. A fund
 * served twice with the same holdings is one fund; with other holdings, a reject (the first kept).
 */
export async function readSitcaHoldings(dir: string, rejects: RejectLog): Promise<SitcaFund[]> {
  const answers = filesOf(dir, sitcaEtfHoldingsModule).flatMap((f) => {
    const m = ANSWER.exec(f);
    return m ? [{ file: f, period: m[1]!, fundClass: m[2] as SitcaClass }] : [];
  });
  if (answers.length === 0)
    throw new SourceFileError(`${SOURCE_ID}: no answer (${sitcaAnswerFile('YYYYMM', 'AH11')}) in the folder, only ${SITCA_FORM_FILE} or nothing`);
  const period = answers.reduce((a, b) => (b.period > a.period ? b : a)).period;
  if (quarterEndPeriod(period) === null)
    throw new SourceFileError(`${SOURCE_ID}: period ${period} is not a quarter-end month (SITCA publishes quarterly, YYYY03/06/09/12)`);
  const funds: SitcaFund[] = [];
  const seen = new Map<string, SitcaFund>();
  for (const fundClass of SITCA_CLASSES) {
    const a = answers.find((x) => x.period === period && x.fundClass === fundClass);
    if (!a)
      throw new SourceFileError(
        `${SOURCE_ID}: ${sitcaAnswerFile(period, fundClass)} is missing beside ${answers
          .filter((x) => x.period === period)
          .map((x) => x.file)
          .join(', ')} (a fetch keeps both classes of the newest period)`,
      );
    for (const f of parseSitcaAnswer(await decodeHtml(join(dir, a.file)), a.file, period, fundClass, rejects)) {
      const before = seen.get(f.name);
      if (before === undefined) {
        seen.set(f.name, f);
        funds.push(f);
      } else if (JSON.stringify(before.holdings) !== JSON.stringify(f.holdings)) {
        rejects.add(f.file, f.line, `${f.name}: listed again with other holdings (the first, ${before.file}:${before.line}, is kept)`);
      }
    }
  }
  return funds;
}

/**
 * The ESG ETFs of SITCA's answers, each with its code from the TWSE fund list. A fund whose name
 * matches no code or several is listed in the summary and left out, never guessed; the funds that
 * are not ESG ETFs are counted as skipped. Every holding SITCA lists is a record of this source, and
 * every fund of the list a record of the list's.
 */
async function readSitcaFunds({ dir, rejects, tally }: ReadContext, inUniverse: (code: string) => boolean): Promise<EtfFund[]> {
  const sitca = await readSitcaHoldings(dir, rejects);
  // The list counts its own records and stamps its publisher date (readFundList).
  const list = await readFundList(dir, rejects, tally);
  const joined = joinFunds(sitca, list.rows);
  tally
    .of(SOURCE_ID)
    .unmatched.push(...joined.unmatched.map((n) => `${n} (no fund code)`), ...joined.ambiguous.map((n) => `${n} (several fund codes)`));
  for (const f of sitca) for (const h of f.holdings) tally.record(SOURCE_ID, inUniverse(h.code) ? h.code : null);
  const notEsg = sitca.length - joined.funds.length - joined.unmatched.length - joined.ambiguous.length;
  if (notEsg > 0) tally.skip(SOURCE_ID, 'funds that are not ESG ETFs by the published rule', notEsg);
  return joined.funds;
}

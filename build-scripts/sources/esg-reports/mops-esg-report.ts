import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { AssuredLevel } from '../../../src/contract/vocabulary.js';
import { cleanText } from '../../adapters/clean-text.js';
import { sniffEncoding } from '../../adapters/decode.js';
import { readLayout, SourceFileError, type RejectLog } from '../../adapters/read-layout.js';
import { opt, req, type FileLayout } from '../../adapters/layouts.js';
import { parseDate } from '../../adapters/dates.js';
import { code, optionalPublisherDate, text, year } from '../../adapters/values.js';
import { FetchFailure } from '../kit/fetch-failure.js';
import type { ReportFiling } from '../kit/facts.js';
import { filesOf } from '../kit/files.js';
import { OGDL_TW, OWNERS } from '../kit/registry-info.js';
import type { FetchSession, SourceModule } from '../kit/source.js';
import { FirstById, type SourceTally } from '../kit/tally.js';

/**
 * SRC-MOPS-ESGREPORT: sustainability-report filings and their assurance, from TWSE ESG GenPlus
 * (shared/spec/sources.md, "The two sources with no GET file"). A JSON POST API: one request per
 * report year and market (0 listed, 1 OTC), report years from 2023 at `…/MopsSustainReport/data`,
 * years up to 2022 at the same URL + `/old` (the old MOPS columns in odd case). Each answer is kept
 * as served: `esggenplus-<year>-<sii|otc>.json`. A MOPS CSV export placed by hand (`esg_report.csv`)
 * is still read.
 *
 * Before the POSTs the plan asks the site's ASP.NET Core antiforgery endpoint for a token
 * (`GET …/api/api/Antiforgery/token`, sources.md "Genuine answers") and sends it as a
 * `RequestVerificationToken` header with each POST; the session carries the antiforgery cookie that
 * answer sets. That answer is kept too (`esggenplus-antiforgery-token.json`, 0 records: no facts come
 * from it, the reader passes over it). Where the endpoint does not exist (HTTP 404) the POSTs go
 * without the header.
 */

const SITE = 'https://esggenplus.twse.com.tw';
const API = `${SITE}/api/api/MopsSustainReport/data`;
/** MOPS sustainability-report filings with their assurance (永續報告書), as a CSV export an operator places by hand (SRC-MOPS-ESGREPORT). */
export const esgReportLayout = {
  file: 'esg_report.csv',
  alternatives: ['esg_report.json'],
  sourceId: 'SRC-MOPS-ESGREPORT',
  columns: {
    market: opt('市場別'),
    year: req('年份'),
    ticker: req('公司代號'),
    companyName: opt('公司名稱'),
    reason: opt('申報原因'),
    industry: opt('產業類別'),
    period: opt('報告書內容涵蓋期間'),
    standard: opt('編製依循準則'),
    thirdParty: req('第三方驗證單位名稱'),
    thirdPartyStandard: req('第三方驗證採用標準'),
    cpa: req('會計師確信驗證單位'),
    cpaStandard: opt('會計師確信採用標準'),
    cpaOpinion: req('會計師確信意見類型'),
    uploadDate: opt('上傳日期'),
    amended: opt('修正後報告書'),
  },
} as const satisfies FileLayout;

/** The first report year MOPS holds filings for; every later year is fetched (an assurance of any year is scored, contract 7.1). */
export const FIRST_REPORT_YEAR = 2014;
/** Report years up to this one are served by `/old`. */
const LAST_OLD_YEAR = 2022;
const MARKETS = [
  { type: 0, name: 'sii' },
  { type: 1, name: 'otc' },
] as const;
type MarketName = (typeof MARKETS)[number]['name'];

const ANSWER = /^esggenplus-(\d{4})-(sii|otc)\.json$/;
/** The antiforgery endpoint's answer, kept as served like every answer of a fetch; never read as filings. */
export const TOKEN_FILE = 'esggenplus-antiforgery-token.json';
/** The antiforgery endpoint, on the data API's origin. */
const TOKEN_PATH = '/api/api/Antiforgery/token';

/** Report years a fetch as of `asof` asks for: a year's reports are filed in the next year, so up to year(asof) − 1. */
export function reportYears(asof: string): number[] {
  const last = Number(asof.slice(0, 4)) - 1;
  return Array.from({ length: Math.max(0, last - FIRST_REPORT_YEAR + 1) }, (_, i) => FIRST_REPORT_YEAR + i);
}

export const mopsEsgReportModule: SourceModule = {
  info: {
    source_id: 'SRC-MOPS-ESGREPORT',
    name: '永續報告書 (sustainability report filings and assurance, TWSE ESG GenPlus)',
    ...OWNERS.MOPS,
    licence: OGDL_TW,
    update_frequency: 'annual',
    homepage_url: `${SITE}/inquiry/report`,
    description:
      'Sustainability report filings with the CPA firm that assured them (its standard and opinion: limited or ' +
      'reasonable) and any third-party verifier, from TWSE ESG GenPlus (report years from 2023, and the older MOPS ' +
      'filings it serves). A CPA firm’s assurance is the one shown and scored; a verifier alone is shown as ' +
      'third-party verification. Each report links to its file where GenPlus has one (or to the old MOPS file), else ' +
      'to its GenPlus page for the company and year.',
    record_link: null,
  },
  files: { answers: /^esggenplus-(?:\d{4}-(?:sii|otc)|antiforgery-token)\.json$/, placed: ['esg_report.csv', 'esg_report.json'] },
  plan: {
    url: API,
    async run(session, ctx) {
      const token = await antiforgeryToken(session, ctx.url);
      for (const y of reportYears(ctx.asof)) {
        for (const m of MARKETS) {
          const body = JSON.stringify({ year: y, marketType: m.type, industryNameList: [], companyCodeList: [] });
          await session.request({
            file: `esggenplus-${y}-${m.name}.json`,
            method: 'POST',
            url: y <= LAST_OLD_YEAR ? `${ctx.url}/old` : ctx.url,
            headers: {
              'content-type': 'application/json',
              origin: SITE,
              referer: `${SITE}/inquiry/report?market=${m.type}&year=${y}`,
              ...(token !== null ? { RequestVerificationToken: token } : {}),
            },
            body,
            expect: 'json',
            check: async (path) => genplusRecords(path, `esggenplus-${y}-${m.name}.json`).length,
          });
        }
      }
    },
  },
  read: { kind: 'filings', read: (c) => readReportFilings(c.dir, c.rejects, c.tally) },
  // About 1,800 filings a year in the recent years, fewer before; most filers are in the universe.
  assertions: { minRecords: 2_000, maxRecords: 60_000, minOfPrevious: 0.8, minLinkedShare: 0.5 },
};

/**
 * The antiforgery request token, from `GET <origin of the data URL>/api/api/Antiforgery/token` (the
 * answer kept as TOKEN_FILE); null, with a line in the log, when the endpoint does not exist (404).
 * Any other failure, or a 200 answer holding no token, fails the plan.
 */
async function antiforgeryToken(session: FetchSession, dataUrl: string): Promise<string | null> {
  const url = new URL(TOKEN_PATH, dataUrl).toString();
  const found: { token: string | null } = { token: null };
  try {
    await session.request({
      file: TOKEN_FILE,
      method: 'GET',
      url,
      headers: { referer: `${SITE}/inquiry/report` },
      expect: 'json',
      check: async (path) => {
        found.token = antiforgeryTokenOf(readFileSync(path, 'utf8'), TOKEN_FILE);
        return 0;
      },
    });
  } catch (e) {
    if (!(e instanceof FetchFailure && e.status === 404)) throw e;
    session.log(
      `${mopsEsgReportModule.info.source_id}: no antiforgery token endpoint (HTTP 404 at ${url}); posting without a RequestVerificationToken header`,
    );
    return null;
  }
  return found.token;
}

/** What a request token looks like: one run of visible ASCII (a header value), 20 characters or more (ASP.NET Core's are ~150). */
const TOKEN = /^[\x21-\x7e]{20,}$/;
/** Where the token may stand in a JSON answer: GenPlus's envelope (`data`, as its callers read it), or ASP.NET Core's usual `{token}` / `{requestToken}`. */
const TOKEN_KEYS = ['data', 'token', 'requestToken', 'RequestToken', 'Token'];

function tokenIn(value: unknown, depth: number): string | null {
  if (typeof value === 'string') return TOKEN.test(value.trim()) ? value.trim() : null;
  if (depth === 0 || value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const o = value as Record<string, unknown>;
  if ('success' in o && o.success !== true) return null;
  for (const key of TOKEN_KEYS) {
    const t = key in o ? tokenIn(o[key], depth - 1) : null;
    if (t !== null) return t;
  }
  return null;
}

/**
 * The request token in the antiforgery endpoint's answer: GenPlus's envelope `{success: true, data:
 * "<token>"}` (how third-party callers read it), `{token}` or `{requestToken}` (at the top or under
 * `data`), a JSON string, or the bare token as text. Any other form throws naming the source and the
 * file: a changed form must fail, not post without the token.
 */
export function antiforgeryTokenOf(body: string, file: string): string {
  const text = body.replace(/^\uFEFF/, '').trim();
  let value: unknown = text;
  try {
    value = JSON.parse(text);
  } catch {
    // Not JSON: the bare token as text, or nothing we know.
  }
  const token = tokenIn(value, 2);
  if (token === null) {
    throw new SourceFileError(
      `${mopsEsgReportModule.info.source_id} ${file}: the antiforgery answer holds no token in a form we know ` +
        `({success: true, data: "<token>"}, {token}, {requestToken} or the bare token): ` +
        `${JSON.stringify(text.slice(0, 160))}`,
    );
  }
  return token;
}

/** GenPlus's answer envelope; anything else (an error page's JSON, `success: false`) refuses the answer. `data: null` is a year with no reports. */
const envelope = z.object({ success: z.literal(true), data: z.array(z.unknown()).nullable() }).loose();

/** The records of one GenPlus answer (UTF-8 JSON; `data: null` is none); throws naming the source and the file when it is not a successful answer. */
export function genplusRecords(path: string, file: string): unknown[] {
  const bytes = readFileSync(path);
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (e) {
    throw new SourceFileError(`SRC-MOPS-ESGREPORT ${file}: not a UTF-8 JSON answer (${(e as Error).message})`);
  }
  const parsed = envelope.safeParse(value);
  if (!parsed.success) {
    const v = value as { success?: unknown; message?: unknown; code?: unknown } | null;
    const said =
      v && typeof v === 'object' && 'success' in v
        ? `success: ${JSON.stringify(v.success)}, code ${JSON.stringify(v.code)}, message ${JSON.stringify(v.message)}`
        : 'no {success, data} envelope';
    throw new SourceFileError(`SRC-MOPS-ESGREPORT ${file}: not a successful GenPlus answer (${said})`);
  }
  return parsed.data.data ?? [];
}

/** A value GenPlus may send as null, the empty string or text (already through cleanText): the text, or null. The key itself must be there. */
const maybe = z.union([z.string(), z.null()]).transform((s) => (s === null || s === '' ? null : s));

/** A record with every text value through cleanText (references decoded, U+3000 and other spaces trimmed), once; other values as served. */
function cleaned(raw: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, typeof v === 'string' ? cleanText(v) : v]));
}

/**
 * The new form (report years from 2023). Keys as sources.md confirms them; unknown keys (such as
 * `twFirstReportDownloadUrl`, `twEditReportDownloadUrl`, `enFirstReportDownloadUrl`) are ignored: the
 * link is built from the download ids, whose form is confirmed.
 */
const newRecord = z.object({
  code,
  name: maybe,
  partnerOrganization: maybe,
  stdCompliance: maybe,
  accOptionType: maybe,
  valiProvider: maybe,
  thirdStd: maybe,
  twFirstReportDownloadId: maybe,
  twEditReportDownloadId: maybe,
  twCommencementDate: maybe.refine((s) => s === null || parseDate(s) !== null, 'not a date (ISO, ROC or YYYY/MM/DD)'),
});

/** The old form (years up to 2022): the old MOPS columns in odd case. It states no CPA opinion type. */
const oldRecord = z.object({
  companY_ID: code,
  companY_ABBR_NAME: maybe,
  surE_A: maybe,
  acC_S: maybe,
  acC_A: maybe,
  filE_NAME: maybe,
  useR_DATE1: maybe.refine((s) => s === null || parseDate(s) !== null, 'not a date (ISO, ROC or YYYY/MM/DD)'),
});

const NO_FILE = /^0{8}-0{4}-0{4}-0{4}-0{12}$/;

/** 有限確信 / 合理確信: the CPA opinion types GenPlus serves. Any other value is a form we do not know. */
const CPA_OPINION: Readonly<Record<string, AssuredLevel>> = { 有限確信: 'limited', 合理確信: 'reasonable' };

/**
 * A verifier's level (contract 3.2): `limited` unless its standard states a high or reasonable level
 * (AA1000 Type 2 high, 高度保證, 合理確信). Also the level of an old CPA filing, which states no
 * opinion type: the lower level unless the filing says otherwise, so no report is credited above
 * what it states.
 */
function statedLevel(standard: string | null): AssuredLevel {
  return standard !== null && /合理|高度|reasonable|high/i.test(standard) ? 'reasonable' : 'limited';
}

const reportPage = (market: MarketName, year: number, ticker: string) =>
  `${SITE}/inquiry/report?market=${market === 'sii' ? 0 : 1}&year=${year}&companyCode=${encodeURIComponent(ticker)}&lang=zh-TW`;
const fileLink = (id: string) => `${API}/FileStream?id=${encodeURIComponent(id)}`;
const oldFileLink = (name: string) =>
  `https://mopsov.twse.com.tw/server-java/FileDownLoad?step=9&filePath=/home/html/nas/protect/t100/&fileName=${encodeURIComponent(name)}`;
const mopsRecordLink = (ticker: string, year: number) =>
  `https://mopsov.twse.com.tw/mops/web/ajax_t100sb11?step=2&co_id=${encodeURIComponent(ticker)}&year=${year - 1911}&filename=${encodeURIComponent(`${ticker}_${year - 1911}.pdf`)}`;

type Mapped = { ok: true; filing: ReportFiling } | { ok: false; key: string; reason: string };

function assurance(
  cpa: string | null,
  cpaStandard: string | null,
  cpaLevel: AssuredLevel | null,
  verifier: string | null,
  verifierStandard: string | null,
): ReportFiling['assurance'] {
  if (cpa !== null && cpaLevel !== null) {
    return {
      kind: 'cpa',
      provider: cpa,
      level: cpaLevel,
      standard: cpaStandard,
      verifications: verifier !== null ? [{ provider: verifier, standard: verifierStandard }] : [],
    };
  }
  if (verifier !== null)
    return { kind: 'third_party', provider: verifier, level: statedLevel(verifierStandard), standard: verifierStandard, verifications: [] };
  return null;
}

function mapNew(raw: unknown, year: number, market: MarketName): Mapped {
  const parsed = newRecord.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, key: String(issue.path[0] ?? 'record'), reason: issue.message };
  }
  const r = parsed.data;
  let level: AssuredLevel | null = null;
  if (r.partnerOrganization !== null) {
    level = r.accOptionType === null ? null : (CPA_OPINION[r.accOptionType] ?? null);
    if (level === null)
      return {
        ok: false,
        key: 'accOptionType',
        reason: `a CPA firm with an opinion type we do not know: ${JSON.stringify(r.accOptionType)} (expected 有限確信 or 合理確信)`,
      };
  }
  const download = [r.twEditReportDownloadId, r.twFirstReportDownloadId].find((id) => id !== null && !NO_FILE.test(id)) ?? null;
  return {
    ok: true,
    filing: {
      ticker: r.code,
      year,
      assurance: assurance(r.partnerOrganization, r.stdCompliance, level, r.valiProvider, r.thirdStd),
      link: download !== null ? fileLink(download) : reportPage(market, year, r.code),
      sourceId: mopsEsgReportModule.info.source_id,
    },
  };
}

function mapOld(raw: unknown, year: number): Mapped {
  const parsed = oldRecord.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, key: String(issue.path[0] ?? 'record'), reason: issue.message };
  }
  const r = parsed.data;
  const cpaLevel = r.acC_A !== null ? statedLevel(null) : null;
  return {
    ok: true,
    filing: {
      ticker: r.companY_ID,
      year,
      assurance: assurance(r.acC_A, null, cpaLevel, r.surE_A, r.acC_S),
      link: r.filE_NAME !== null ? oldFileLink(r.filE_NAME) : mopsRecordLink(r.companY_ID, year),
      sourceId: mopsEsgReportModule.info.source_id,
    },
  };
}

/**
 * Every filing in the folder: the GenPlus answers (each record checked against the form of its
 * year), or the MOPS CSV placed by hand. A record that does not fit its form is a reject naming the
 * file, the record and the key; a filing of one company and year served twice is one filing.
 */
export async function* readReportFilings(dir: string, rejects: RejectLog, tally: SourceTally): AsyncGenerator<ReportFiling> {
  const once = new FirstById(tally.of(mopsEsgReportModule.info.source_id));
  for (const file of filesOf(dir, mopsEsgReportModule)) {
    if (file === TOKEN_FILE) continue;
    const m = ANSWER.exec(file);
    if (!m) {
      for await (const filing of readPlacedCsv(dir, rejects)) if (once.first(`${filing.ticker}/${filing.year}`, filing)) yield filing;
      continue;
    }
    const y = Number(m[1]);
    const market = m[2] as MarketName;
    const path = join(dir, file);
    if ((await sniffEncoding(path)) !== 'utf8')
      throw new SourceFileError(`SRC-MOPS-ESGREPORT ${file}: JSON that is not UTF-8 (the bytes read as Big5/CP950)`);
    const records = genplusRecords(path, file);
    for (const [i, raw] of records.entries()) {
      if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
        rejects.add(file, i + 1, 'not a JSON object', 'record');
        continue;
      }
      const record = cleaned(raw);
      const mapped = y <= LAST_OLD_YEAR ? mapOld(record, y) : mapNew(record, y, market);
      if (!mapped.ok) {
        rejects.add(file, i + 1, `${mapped.key}: ${mapped.reason}`, 'record');
        continue;
      }
      if (once.first(`${mapped.filing.ticker}/${y}`, mapped.filing)) yield mapped.filing;
    }
  }
}

/** The MOPS CSV columns (an export placed by hand): 會計師確信意見類型 gives a CPA's level; a verifier alone is third-party verification. */
const csvSchema = z
  .object({
    market: text,
    year,
    ticker: code,
    thirdParty: text,
    thirdPartyStandard: text,
    cpa: text,
    cpaStandard: text,
    cpaOpinion: text,
    uploadDate: optionalPublisherDate,
  })
  .transform((r, ctx) => {
    const cpaLevel = r.cpa
      ? (CPA_OPINION[r.cpaOpinion] ?? (/合理/.test(r.cpaOpinion) ? 'reasonable' : /有限/.test(r.cpaOpinion) ? 'limited' : null))
      : null;
    if (r.cpa && cpaLevel === null) {
      ctx.addIssue({ code: 'custom', path: ['cpaOpinion'], message: `a CPA firm with an opinion type we do not know: "${r.cpaOpinion}"` });
      return z.NEVER;
    }
    return { ...r, cpaLevel };
  });

async function* readPlacedCsv(dir: string, rejects: RejectLog): AsyncGenerator<ReportFiling> {
  for await (const { row } of readLayout(dir, esgReportLayout, csvSchema, rejects)) {
    const or = (s: string) => (s === '' ? null : s);
    yield {
      ticker: row.ticker,
      year: row.year,
      assurance: assurance(or(row.cpa), or(row.cpaStandard), row.cpaLevel, or(row.thirdParty), or(row.thirdPartyStandard)),
      // The export names the market (上市 / 上櫃): a report's GenPlus page is by market, year and company.
      link:
        row.year <= LAST_OLD_YEAR ? mopsRecordLink(row.ticker, row.year) : reportPage(/櫃/.test(row.market) ? 'otc' : 'sii', row.year, row.ticker),
      sourceId: mopsEsgReportModule.info.source_id,
    };
  }
}

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { MissingColumnError, RejectLog, SourceFileError } from '../../../../build-scripts/adapters/read-layout.js';
import type { ReportFiling } from '../../../../build-scripts/sources/kit/facts.js';
import { FetchFailure } from '../../../../build-scripts/sources/kit/fetch-failure.js';
import {
  antiforgeryTokenOf,
  mopsEsgReportModule,
  readReportFilings,
  reportYears,
  TOKEN_FILE,
} from '../../../../build-scripts/sources/esg-reports/mops-esg-report.js';
import type { AnswerRequest, FetchSession, KeptAnswer } from '../../../../build-scripts/sources/kit/source.js';
import { SourceTally } from '../../../../build-scripts/sources/kit/tally.js';
import { collect, fixtureDirs } from '../../adapters/fixture-dir.js';

const SOURCE = 'SRC-MOPS-ESGREPORT';
const fixtureDir = fixtureDirs('source-esgreport-');

const SITE = 'https://esggenplus.twse.com.tw';
const FILE_STREAM = `${SITE}/api/api/MopsSustainReport/data/FileStream?id=`;
const NO_FILE = '00000000-0000-0000-0000-000000000000';
const FIRST_ID = '3f2a9c1e-5b7d-4e8f-a1b2-c3d4e5f60718';
const EDIT_ID = '9b8a7c6d-1e2f-4a3b-8c4d-5e6f70819203';

type Rec = Record<string, unknown>;

/** One filing in GenPlus's new form (report years from 2023): every key sources.md confirms, values as seen. */
function filing(over: Rec = {}): Rec {
  return {
    code: 'D2330',
    name: '示範積體電路製造股份有限公司',
    shortName: '示範積電',
    enName: null,
    enShortName: '',
    sector: '半導體業',
    reason: '屬自願確信/保證者',
    reportingInterval: '2024/01/01~2024/12/31',
    complianceNotes: 'GRI準則',
    partnerOrganization: '資誠聯合會計師事務所',
    stdCompliance: '確信準則3000號',
    accOptionType: '有限確信',
    aConfirmTarget: '溫室氣體排放量等指標',
    valiProvider: '',
    thirdStd: null,
    thirdPartyVerify: '否',
    twDocLink: 'https://example.invalid/esg-2024.pdf',
    twFirstReportDownloadId: FIRST_ID,
    twEditReportDownloadId: NO_FILE,
    twCommencementDate: '2025/08/28',
    twRevisionDate: null,
    enDocLink: null,
    contactInfo: null,
    note: null,
    ...over,
  };
}

/** One filing in the old form (report years up to 2022): the old MOPS columns in odd case. */
function oldFiling(over: Rec = {}): Rec {
  return {
    companY_ID: 'D1101',
    companY_ABBR_NAME: '示範泥',
    englisH_ABBR_NAME: null,
    sub: '依規定申報',
    duratioN_B: '110/01/01',
    duratioN_E: '110/12/31',
    cS_A1: 'GRI準則',
    surE_A: '',
    acC_S: '',
    acC_A: '',
    filE_NAME: 'D1101_110.pdf',
    useR_DATE1: '2022/08/29',
    weB_INFO: null,
    memo: null,
    ...over,
  };
}

/** A GenPlus answer as served: the `{code, success, data, message}` envelope. */
const answer = (...data: unknown[]) => JSON.stringify({ code: 200, success: true, data, message: null });

interface Read {
  rows: ReportFiling[];
  rejects: RejectLog;
  tally: SourceTally;
}
async function readFiles(files: Record<string, string | Buffer>): Promise<Read> {
  const dir = fixtureDir({});
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  const rejects = new RejectLog();
  const tally = new SourceTally();
  return { rows: await collect(readReportFilings(dir, rejects, tally)), rejects, tally };
}
const readOne = (...data: unknown[]) => readFiles({ 'esggenplus-2024-sii.json': answer(...data) });
const failure = (files: Record<string, string | Buffer>) =>
  readFiles(files).then(
    () => null,
    (e: unknown) => e as Error,
  );

describe('readReportFilings: GenPlus answers, new form (report years from 2023)', () => {
  it("a CPA with a verifier beside it: kind cpa at the CPA's level, the verifier in verifications; the file linked", async () => {
    const { rows, rejects } = await readOne(
      filing({ valiProvider: '台灣檢驗科技股份有限公司', thirdStd: 'AA1000', thirdPartyVerify: '是' }),
      filing({ code: 'd2303', partnerOrganization: '勤業眾信聯合會計師事務所', stdCompliance: '確信準則3410號', accOptionType: '合理確信' }),
    );
    expect(rejects.count).toBe(0);
    expect(rows).toEqual<ReportFiling[]>([
      {
        ticker: 'D2330',
        year: 2024,
        assurance: {
          kind: 'cpa',
          provider: '資誠聯合會計師事務所',
          level: 'limited',
          standard: '確信準則3000號',
          verifications: [{ provider: '台灣檢驗科技股份有限公司', standard: 'AA1000' }],
        },
        link: `${FILE_STREAM}${FIRST_ID}`,
        sourceId: SOURCE,
      },
      {
        ticker: 'D2303',
        year: 2024,
        assurance: { kind: 'cpa', provider: '勤業眾信聯合會計師事務所', level: 'reasonable', standard: '確信準則3410號', verifications: [] },
        link: `${FILE_STREAM}${FIRST_ID}`,
        sourceId: SOURCE,
      },
    ]);
  });

  it('a verifier alone is third_party, limited unless its standard states a high or reasonable level (not a reject)', async () => {
    const verifierOnly = (valiProvider: string, thirdStd: string | null) =>
      filing({ partnerOrganization: '', stdCompliance: null, accOptionType: '', valiProvider, thirdStd, thirdPartyVerify: '是' });
    const { rows, rejects } = await readOne(
      verifierOnly('台灣檢驗科技股份有限公司', 'AA1000'),
      { ...verifierOnly('英國標準協會', 'AA1000 高度保證'), code: 'D2002' },
      { ...verifierOnly('立恩威國際驗證股份有限公司', 'ISAE 3000'), code: 'D2003' },
      { ...verifierOnly('台灣衛理國際品保驗證股份有限公司', 'ISAE 3000 reasonable assurance'), code: 'D2004' },
      { ...verifierOnly('某驗證機構', null), code: 'D2005' },
    );
    expect(rejects.count).toBe(0);
    expect(rows.map((r) => [r.ticker, r.assurance])).toEqual([
      ['D2330', { kind: 'third_party', provider: '台灣檢驗科技股份有限公司', level: 'limited', standard: 'AA1000', verifications: [] }],
      ['D2002', { kind: 'third_party', provider: '英國標準協會', level: 'reasonable', standard: 'AA1000 高度保證', verifications: [] }],
      ['D2003', { kind: 'third_party', provider: '立恩威國際驗證股份有限公司', level: 'limited', standard: 'ISAE 3000', verifications: [] }],
      [
        'D2004',
        {
          kind: 'third_party',
          provider: '台灣衛理國際品保驗證股份有限公司',
          level: 'reasonable',
          standard: 'ISAE 3000 reasonable assurance',
          verifications: [],
        },
      ],
      ['D2005', { kind: 'third_party', provider: '某驗證機構', level: 'limited', standard: null, verifications: [] }],
    ]);
  });

  it('a filing with neither a CPA nor a verifier is an unassured report: assurance null', async () => {
    const { rows, rejects } = await readOne(
      filing({ partnerOrganization: '', stdCompliance: '', accOptionType: '', valiProvider: '', thirdStd: '' }),
      filing({ code: 'D2002', partnerOrganization: null, stdCompliance: null, accOptionType: null, valiProvider: null, thirdStd: null }),
      // An opinion type without a CPA firm states no assurance either.
      filing({ code: 'D2003', partnerOrganization: '  ', accOptionType: '有限確信', valiProvider: '' }),
    );
    expect(rejects.count).toBe(0);
    expect(rows.map((r) => [r.ticker, r.year, r.assurance])).toEqual([
      ['D2330', 2024, null],
      ['D2002', 2024, null],
      ['D2003', 2024, null],
    ]);
  });

  it('a CPA with an opinion type we do not know is a reject naming accOptionType; the other filings are read', async () => {
    const { rows, rejects } = await readOne(
      filing({ code: 'D2001', accOptionType: '無' }),
      filing({ code: 'D2002' }),
      filing({ code: 'D2003', accOptionType: '' }),
    );
    expect(rows.map((r) => r.ticker)).toEqual(['D2002']);
    expect(rejects.format().split('\n')).toEqual([
      'esggenplus-2024-sii.json:record 1: accOptionType: a CPA firm with an opinion type we do not know: "無" (expected 有限確信 or 合理確信)',
      'esggenplus-2024-sii.json:record 3: accOptionType: a CPA firm with an opinion type we do not know: null (expected 有限確信 or 合理確信)',
    ]);
    expect(rejects.rejects[0]).toMatchObject({ file: 'esggenplus-2024-sii.json', line: 1, unit: 'record' });
  });

  it('a renamed key (partnerOrg for partnerOrganization) is a reject naming the key the form needs', async () => {
    const { partnerOrganization, ...rest } = filing();
    const { rows, rejects } = await readOne({ ...rest, partnerOrg: partnerOrganization }, filing({ code: 'D2002' }));
    expect(rows.map((r) => r.ticker)).toEqual(['D2002']);
    expect(rejects.count).toBe(1);
    expect(rejects.format()).toMatch(/^esggenplus-2024-sii\.json:record 1: partnerOrganization: /);
  });

  it('a value that is neither text nor null, a bad ticker, a bad upload date and a non-object record are rejects', async () => {
    const { rows, rejects } = await readOne(
      filing({ code: 'D2001', valiProvider: { name: 'SGS' } }),
      filing({ code: 'D-2002' }),
      filing({ code: 'D2003', twCommencementDate: '2025/02/30' }),
      42,
      filing({ code: 'D2005' }),
    );
    expect(rows.map((r) => r.ticker)).toEqual(['D2005']);
    const lines = rejects.format().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^esggenplus-2024-sii\.json:record 1: valiProvider: /);
    expect(lines[1]).toMatch(/^esggenplus-2024-sii\.json:record 2: code: /);
    expect(lines[2]).toBe('esggenplus-2024-sii.json:record 3: twCommencementDate: not a date (ISO, ROC or YYYY/MM/DD)');
    expect(lines[3]).toBe('esggenplus-2024-sii.json:record 4: not a JSON object');
  });

  it('links the report file when a download id exists (the revised one first), else the report page for market, year and company', async () => {
    const { rows } = await readFiles({
      'esggenplus-2024-sii.json': answer(
        filing({ code: 'D2001' }),
        filing({ code: 'D2002', twEditReportDownloadId: EDIT_ID }),
        filing({ code: 'D2003', twFirstReportDownloadId: NO_FILE }),
        filing({ code: 'D2004', twFirstReportDownloadId: null, twEditReportDownloadId: '' }),
      ),
      'esggenplus-2023-otc.json': answer(filing({ code: 'D6488', twFirstReportDownloadId: NO_FILE, twEditReportDownloadId: NO_FILE })),
    });
    expect(Object.fromEntries(rows.map((r) => [`${r.ticker}/${r.year}`, r.link]))).toEqual({
      'D2001/2024': `${FILE_STREAM}${FIRST_ID}`,
      'D2002/2024': `${FILE_STREAM}${EDIT_ID}`,
      'D2003/2024': `${SITE}/inquiry/report?market=0&year=2024&companyCode=D2003&lang=zh-TW`,
      'D2004/2024': `${SITE}/inquiry/report?market=0&year=2024&companyCode=D2004&lang=zh-TW`,
      'D6488/2023': `${SITE}/inquiry/report?market=1&year=2023&companyCode=D6488&lang=zh-TW`,
    });
  });

  it('reads every answer in the folder, the year from its file name, and nothing else', async () => {
    const { rows } = await readFiles({
      'esggenplus-2024-otc.json': answer(filing({ code: 'D6488' })),
      'esggenplus-2023-sii.json': answer(filing({ code: 'D2001' })),
      'esggenplus-2024-sii.json': answer(filing({ code: 'D2001' }), filing({ code: 'D2002' })),
      'esggenplus-2024-pub.json': answer(filing({ code: 'D9999' })),
      'notes.json': '{}',
    });
    expect(rows.map((r) => `${r.ticker}/${r.year}`)).toEqual(['D2001/2023', 'D6488/2024', 'D2001/2024', 'D2002/2024']);
  });

  it('the same company and year served twice is one filing; the copy counted (and, if it differs, counted as conflicting)', async () => {
    const { rows, rejects, tally } = await readFiles({
      'esggenplus-2024-sii.json': answer(filing({ code: 'D2001' }), filing({ code: 'D2002' }), filing({ code: 'D2001' })),
      'esggenplus-2024-otc.json': answer(filing({ code: 'D2002', accOptionType: '合理確信' }), filing({ code: 'D6488' })),
    });
    expect(rejects.count).toBe(0);
    expect(rows.map((r) => `${r.ticker}/${r.year}`)).toEqual(['D2002/2024', 'D6488/2024', 'D2001/2024']);
    // The otc answer sorts first, so its D2002 (reasonable) is the one kept.
    expect(rows.find((r) => r.ticker === 'D2002')!.assurance!.level).toBe('reasonable');
    expect(tally.of(SOURCE).duplicates).toBe(2);
    expect(tally.of(SOURCE).conflicting).toBe(1);
  });

  it('an empty answer (no filings that year) yields nothing', async () => {
    const { rows, rejects } = await readOne();
    expect(rows).toEqual([]);
    expect(rejects.count).toBe(0);
  });

  it('`data: null` (a year with no reports) yields nothing and is no error, beside a year with filings', async () => {
    const { rows, rejects } = await readFiles({
      'esggenplus-2023-sii.json': JSON.stringify({ code: 200, success: true, data: null, message: null }),
      'esggenplus-2024-sii.json': answer(filing()),
    });
    expect(rows.map((r) => `${r.ticker}/${r.year}`)).toEqual(['D2330/2024']);
    expect(rejects.count).toBe(0);
  });

  it('every text value goes through cleanText: HTML references decoded, U+3000 and spaces trimmed, once', async () => {
    const { rows, rejects } = await readOne(
      filing({
        code: 'D2330\u3000',
        partnerOrganization: '\u3000資誠聯合會計師事務所 ',
        stdCompliance: '確信準則&#51;000號',
        valiProvider: '邁&#33834;驗證股份有限公司\u3000',
        thirdStd: 'AA1000 &amp;lt;Type 2&amp;gt;',
      }),
      filing({
        code: ' D2002',
        accOptionType: '合理確信\u3000',
        twFirstReportDownloadId: `${FIRST_ID}\u3000`,
        twCommencementDate: '2025/08/28\u3000',
      }),
    );
    expect(rejects.count).toBe(0);
    expect(rows[0]).toMatchObject({
      ticker: 'D2330',
      assurance: {
        kind: 'cpa',
        provider: '資誠聯合會計師事務所',
        level: 'limited',
        standard: '確信準則3000號',
        verifications: [{ provider: `邁${String.fromCodePoint(33834)}驗證股份有限公司`, standard: 'AA1000 &lt;Type 2&gt;' }],
      },
    });
    expect(rows[1]).toMatchObject({ ticker: 'D2002', assurance: { level: 'reasonable' }, link: `${FILE_STREAM}${FIRST_ID}` });
  });

  it('ignores the download-URL keys some answers carry (twFirstReportDownloadUrl, twEditReportDownloadUrl, enFirstReportDownloadUrl)', async () => {
    const urls = { twFirstReportDownloadUrl: 'https://example.invalid/a.pdf', twEditReportDownloadUrl: null, enFirstReportDownloadUrl: '' };
    const { rows, rejects } = await readOne(filing({ code: 'D2001', ...urls }), filing({ code: 'D2002', twFirstReportDownloadId: NO_FILE, ...urls }));
    expect(rejects.count).toBe(0);
    expect(rows.map((r) => r.link)).toEqual([`${FILE_STREAM}${FIRST_ID}`, `${SITE}/inquiry/report?market=0&year=2024&companyCode=D2002&lang=zh-TW`]);
  });

  it('passes over the kept antiforgery answer: it is no filing and not a placed CSV', async () => {
    const { rows, rejects } = await readFiles({
      [TOKEN_FILE]: JSON.stringify({ code: 200, success: true, data: 'CfDJ8AbCdEfGhIjKlMnOpQrStUvWxYz0123456789', message: null }),
      'esggenplus-2024-sii.json': answer(filing()),
    });
    expect(TOKEN_FILE).toMatch(mopsEsgReportModule.files.answers);
    expect(rows.map((r) => r.ticker)).toEqual(['D2330']);
    expect(rejects.count).toBe(0);
  });
});

describe('readReportFilings: GenPlus answers, old form (report years up to 2022)', () => {
  it('maps the old MOPS columns: a CPA (no opinion type served: limited), verifiers, and the MOPS file', async () => {
    const { rows, rejects } = await readFiles({
      'esggenplus-2021-sii.json': answer(
        oldFiling({ acC_A: '安永聯合會計師事務所', surE_A: '台灣檢驗科技股份有限公司', acC_S: 'AA1000' }),
        oldFiling({ companY_ID: 'D1102', surE_A: '英國標準協會', acC_S: 'AA1000 Type 2 高度保證', filE_NAME: 'D1102_110.pdf' }),
        oldFiling({ companY_ID: 'D1103', surE_A: 'SGS', acC_S: 'AA1000 Type 2 中度保證', filE_NAME: 'D1103_110.pdf' }),
        oldFiling({ companY_ID: 'd1104', filE_NAME: null, useR_DATE1: '111/08/29' }),
      ),
    });
    expect(rejects.count).toBe(0);
    const oldFile = (name: string) =>
      `https://mopsov.twse.com.tw/server-java/FileDownLoad?step=9&filePath=/home/html/nas/protect/t100/&fileName=${name}`;
    expect(rows).toEqual<ReportFiling[]>([
      {
        ticker: 'D1101',
        year: 2021,
        assurance: {
          kind: 'cpa',
          provider: '安永聯合會計師事務所',
          level: 'limited',
          standard: null,
          verifications: [{ provider: '台灣檢驗科技股份有限公司', standard: 'AA1000' }],
        },
        link: oldFile('D1101_110.pdf'),
        sourceId: SOURCE,
      },
      {
        ticker: 'D1102',
        year: 2021,
        assurance: { kind: 'third_party', provider: '英國標準協會', level: 'reasonable', standard: 'AA1000 Type 2 高度保證', verifications: [] },
        link: oldFile('D1102_110.pdf'),
        sourceId: SOURCE,
      },
      {
        ticker: 'D1103',
        year: 2021,
        assurance: { kind: 'third_party', provider: 'SGS', level: 'limited', standard: 'AA1000 Type 2 中度保證', verifications: [] },
        link: oldFile('D1103_110.pdf'),
        sourceId: SOURCE,
      },
      {
        ticker: 'D1104',
        year: 2021,
        assurance: null,
        // No file name: the MOPS record of the company and (ROC) year.
        link: 'https://mopsov.twse.com.tw/mops/web/ajax_t100sb11?step=2&co_id=D1104&year=110&filename=D1104_110.pdf',
        sourceId: SOURCE,
      },
    ]);
  });

  it("each year is read in its own form: new keys in an old year's answer are rejects naming the old key", async () => {
    const { rows, rejects } = await readFiles({ 'esggenplus-2022-otc.json': answer(filing(), oldFiling()) });
    expect(rows.map((r) => `${r.ticker}/${r.year}`)).toEqual(['D1101/2022']);
    expect(rejects.format()).toMatch(/^esggenplus-2022-otc\.json:record 1: companY_ID: /);
  });
});

describe('readReportFilings: answers that are not a successful GenPlus answer', () => {
  it('`success: false` is refused, naming the source, the file and what GenPlus said', async () => {
    const err = await failure({ 'esggenplus-2024-sii.json': JSON.stringify({ success: false, message: '系統忙碌中，請稍後再試' }) });
    expect(err).toBeInstanceOf(SourceFileError);
    expect(err!.message).toMatch(/^SRC-MOPS-ESGREPORT esggenplus-2024-sii\.json: not a successful GenPlus answer \(success: false/);
    expect(err!.message).toContain('系統忙碌中，請稍後再試');
  });

  it('an HTML page saved as the .json is refused, naming the source and the file', async () => {
    const err = await failure({
      'esggenplus-2023-otc.json': '<!DOCTYPE html><html><head><title>系統維護中</title></head><body>維護中</body></html>',
    });
    expect(err).toBeInstanceOf(SourceFileError);
    expect(err!.message).toMatch(/^SRC-MOPS-ESGREPORT esggenplus-2023-otc\.json: not a UTF-8 JSON answer/);
  });

  it('JSON without the envelope (a bare array, data neither an array nor null, data missing) is refused', async () => {
    const bare = await failure({ 'esggenplus-2024-sii.json': JSON.stringify([filing()]) });
    expect(bare).toBeInstanceOf(SourceFileError);
    expect(bare!.message).toBe('SRC-MOPS-ESGREPORT esggenplus-2024-sii.json: not a successful GenPlus answer (no {success, data} envelope)');
    for (const data of [{ rows: [] }, 'none']) {
      const other = await failure({ 'esggenplus-2024-sii.json': JSON.stringify({ code: 200, success: true, data, message: null }) });
      expect(other).toBeInstanceOf(SourceFileError);
      expect(other!.message).toMatch(/^SRC-MOPS-ESGREPORT esggenplus-2024-sii\.json: not a successful GenPlus answer/);
    }
    const missing = await failure({ 'esggenplus-2024-sii.json': JSON.stringify({ code: 200, success: true, message: null }) });
    expect(missing).toBeInstanceOf(SourceFileError);
  });

  it('Big5-encoded JSON is refused, naming the source and the file', async () => {
    const big5 = iconv.encode(answer(filing(), filing({ code: 'D2002', partnerOrganization: '勤業眾信聯合會計師事務所' })), 'cp950');
    const err = await failure({ 'esggenplus-2024-sii.json': big5 });
    expect(err).toBeInstanceOf(SourceFileError);
    expect(err!.message).toMatch(/^SRC-MOPS-ESGREPORT esggenplus-2024-sii\.json: JSON that is not UTF-8/);
  });

  it('GenPlus answers beside a hand-placed MOPS CSV are refused: two forms of one source', async () => {
    const err = await failure({ 'esggenplus-2024-sii.json': answer(filing()), 'esg_report.csv': `${HEADER}\n` });
    expect(err).toBeInstanceOf(SourceFileError);
    expect(err!.message).toBe('SRC-MOPS-ESGREPORT: esggenplus-2024-sii.json and esg_report.csv are two forms of one source in one folder; keep one');
  });
});

const HEADER =
  '市場別,年份,公司代號,公司名稱,申報原因,產業類別,報告書內容涵蓋期間,編製依循準則,第三方驗證單位名稱,第三方驗證採用標準,會計師確信驗證單位,會計師確信採用標準,會計師確信意見類型,上傳日期,修正後報告書';
interface R {
  year?: string;
  ticker?: string;
  tp?: string;
  tpStd?: string;
  cpa?: string;
  cpaStd?: string;
  opinion?: string;
  upload?: string;
}
const row = (o: R = {}) =>
  [
    '上市',
    o.year ?? '113',
    o.ticker ?? 'D1101',
    '示範水泥',
    '依規定申報',
    '水泥工業',
    '113/01/01~113/12/31',
    'GRI',
    o.tp ?? '',
    o.tpStd ?? '',
    o.cpa ?? '',
    o.cpaStd ?? '',
    o.opinion ?? '',
    o.upload ?? '114/08/29',
    '',
  ].join(',');
const readCsv = (lines: string[]) => readFiles({ 'esg_report.csv': `${[HEADER, ...lines].join('\n')}\n` });

describe('readReportFilings: a MOPS CSV placed by hand (esg_report.csv)', () => {
  it('CPA 有限確信 → limited, 合理確信 → reasonable, with the standard; a verifier beside it in verifications', async () => {
    const { rows, rejects } = await readCsv([
      row({ cpa: '安永聯合會計師事務所', cpaStd: '確信準則3000號', opinion: '有限確信', tp: 'SGS', tpStd: 'AA1000AS 高度保證' }),
      row({ ticker: 'D1102', cpa: '勤業眾信聯合會計師事務所', cpaStd: '確信準則3410號', opinion: '合理確信' }),
    ]);
    expect(rejects.count).toBe(0);
    expect(rows.map((r) => [r.ticker, r.year, r.assurance])).toEqual([
      [
        'D1101',
        2024,
        {
          kind: 'cpa',
          provider: '安永聯合會計師事務所',
          level: 'limited',
          standard: '確信準則3000號',
          verifications: [{ provider: 'SGS', standard: 'AA1000AS 高度保證' }],
        },
      ],
      ['D1102', 2024, { kind: 'cpa', provider: '勤業眾信聯合會計師事務所', level: 'reasonable', standard: '確信準則3410號', verifications: [] }],
    ]);
    expect(rows.every((r) => r.sourceId === SOURCE)).toBe(true);
  });

  it('a verifier alone is third_party: …高度保證 → reasonable, …中度保證 or an unstated level → limited', async () => {
    const { rows, rejects } = await readCsv([
      row({ tp: '英國標準協會', tpStd: 'AA1000AS v3 第二類型高度保證' }),
      row({ ticker: 'D1102', tp: 'SGS', tpStd: 'AA1000AS v3 第二類型中度保證' }),
      row({ ticker: 'D1103', tp: 'SGS', tpStd: 'ISO 14064-3' }),
    ]);
    expect(rejects.count).toBe(0);
    expect(rows.map((r) => [r.ticker, r.assurance?.kind, r.assurance?.provider, r.assurance?.level])).toEqual([
      ['D1101', 'third_party', '英國標準協會', 'reasonable'],
      ['D1102', 'third_party', 'SGS', 'limited'],
      ['D1103', 'third_party', 'SGS', 'limited'],
    ]);
  });

  it('no CPA and no verifier → assurance null', async () => {
    const { rows, rejects } = await readCsv([row({ upload: '' })]);
    expect(rows.map((r) => [r.ticker, r.year, r.assurance])).toEqual([['D1101', 2024, null]]);
    expect(rejects.count).toBe(0);
  });

  it('a CPA with an opinion type we do not know is a reject naming the column', async () => {
    const { rows, rejects } = await readCsv([
      row({ cpa: '安永聯合會計師事務所', opinion: '無' }),
      row({ ticker: 'D1102', cpa: 'KPMG', opinion: '有限確信' }),
    ]);
    expect(rows.map((r) => r.ticker)).toEqual(['D1102']);
    expect(rejects.format()).toBe('esg_report.csv:2: 會計師確信意見類型: a CPA firm with an opinion type we do not know: "無"');
  });

  it('years in ROC or Gregorian form; a bad year and a bad upload date are rejects', async () => {
    const ok = await readCsv([row({ year: '2024', upload: '2025-08-29' }), row({ ticker: 'D1102', year: '113', upload: '1140829' })]);
    expect(ok.rows.map((r) => r.year)).toEqual([2024, 2024]);
    const bad = await readCsv([row({ year: '今年' }), row({ upload: '114/02/30' })]);
    expect(bad.rows).toEqual([]);
    expect(bad.rejects.format()).toMatch(/^esg_report\.csv:2: 年份: .*\nesg_report\.csv:3: 上傳日期: /);
  });

  it('links an old year to its MOPS record; the same company and year twice is one filing', async () => {
    const { rows, tally } = await readCsv([row({ year: '110' }), row({ year: '110' })]);
    expect(rows.map((r) => r.link)).toEqual(['https://mopsov.twse.com.tw/mops/web/ajax_t100sb11?step=2&co_id=D1101&year=110&filename=D1101_110.pdf']);
    expect(tally.of(SOURCE).duplicates).toBe(1);
  });

  it('maps the required columns only, in another order, ignoring unknown ones', async () => {
    const { rows } = await readFiles({
      'esg_report.csv': `會計師確信意見類型,會計師確信驗證單位,其他,第三方驗證採用標準,第三方驗證單位名稱,公司代號,年份\n合理確信,KPMG,x,,,d1101,114\n`,
    });
    expect(rows.map((r) => [r.ticker, r.year, r.assurance])).toEqual([
      ['D1101', 2025, { kind: 'cpa', provider: 'KPMG', level: 'reasonable', standard: null, verifications: [] }],
    ]);
  });

  it('a missing required column throws MissingColumnError naming the source, the file and the column', async () => {
    const err = await failure({ 'esg_report.csv': `${HEADER.replace('會計師確信意見類型,', '')}\n` });
    expect(err).toBeInstanceOf(MissingColumnError);
    expect(err!.message).toContain('SRC-MOPS-ESGREPORT esg_report.csv');
    expect(err!.message).toContain('會計師確信意見類型');
  });
});

const TOKEN = 'CfDJ8N3x-Genuine_Looking.Request+Token/0123456789==';
const tokenAnswer = JSON.stringify({ code: 200, success: true, data: TOKEN, message: null });

/**
 * A session that records each request. The antiforgery GET answers `token` (run through the plan's
 * check, as the fetcher does), or fails as the fetcher does for a status (404: FetchFailure with it).
 */
function fakeSession(token: string | { status: number } = tokenAnswer) {
  const requests: AnswerRequest[] = [];
  const logs: string[] = [];
  const session: FetchSession = {
    async request(r: AnswerRequest): Promise<KeptAnswer> {
      requests.push(r);
      if (r.file === TOKEN_FILE) {
        if (typeof token !== 'string') throw new FetchFailure(`${r.method} ${r.url} (${r.file}): HTTP ${token.status}`, token.status);
        const path = join(fixtureDir({ [r.file]: token }), r.file);
        return { file: r.file, path, records: await r.check!(path), sha256: '0'.repeat(64) };
      }
      return { file: r.file, path: `/nowhere/${r.file}`, records: 1, sha256: '0'.repeat(64) };
    },
    log: (m) => logs.push(m),
  };
  return { session, requests, logs };
}

describe('mopsEsgReportModule.plan', () => {
  it('asks GenPlus for every report year up to the year before asof, both markets, years to 2022 at /old', async () => {
    const { session, requests } = fakeSession();
    const url = 'http://127.0.0.1:1/api/api/MopsSustainReport/data';
    await mopsEsgReportModule.plan!.run(session, { url, asof: '2025-11-30', moenvKey: '' });
    expect(reportYears('2025-11-30')).toEqual(Array.from({ length: 11 }, (_, i) => 2014 + i));
    expect(requests.map((r) => r.file)).toEqual([
      TOKEN_FILE,
      ...reportYears('2025-11-30').flatMap((y) => [`esggenplus-${y}-sii.json`, `esggenplus-${y}-otc.json`]),
    ]);
    for (const r of requests.slice(1)) {
      expect(r.file).toMatch(mopsEsgReportModule.files.answers);
      expect(r.method).toBe('POST');
      expect(r.expect).toBe('json');
    }
    const byFile = new Map(requests.map((r) => [r.file, r]));
    expect(byFile.get('esggenplus-2022-otc.json')!.url).toBe(`${url}/old`);
    expect(JSON.parse(byFile.get('esggenplus-2022-otc.json')!.body!)).toEqual({
      year: 2022,
      marketType: 1,
      industryNameList: [],
      companyCodeList: [],
    });
    expect(byFile.get('esggenplus-2023-sii.json')!.url).toBe(url);
    expect(JSON.parse(byFile.get('esggenplus-2023-sii.json')!.body!)).toEqual({
      year: 2023,
      marketType: 0,
      industryNameList: [],
      companyCodeList: [],
    });
    expect(byFile.get('esggenplus-2024-sii.json')!.headers).toMatchObject({ 'content-type': 'application/json', origin: SITE });
  });

  it("first GETs the antiforgery token on the data URL's origin (its answer kept) and sends it as RequestVerificationToken with every POST", async () => {
    const { session, requests } = fakeSession();
    await mopsEsgReportModule.plan!.run(session, { url: 'http://127.0.0.1:8123/api/api/MopsSustainReport/data', asof: '2024-06-30', moenvKey: '' });
    const [first, ...posts] = requests;
    expect(first).toMatchObject({ file: TOKEN_FILE, method: 'GET', url: 'http://127.0.0.1:8123/api/api/Antiforgery/token', expect: 'json' });
    expect(first!.file).toMatch(mopsEsgReportModule.files.answers);
    expect(posts).toHaveLength(2 * (2023 - 2014 + 1));
    for (const r of posts) {
      expect(r.method).toBe('POST');
      expect(r.headers).toMatchObject({ RequestVerificationToken: TOKEN, origin: SITE, 'content-type': 'application/json' });
      expect(r.headers!.referer).toMatch(/^https:\/\/esggenplus\.twse\.com\.tw\/inquiry\/report\?market=[01]&year=\d{4}$/);
    }
  });

  it('without the token endpoint (HTTP 404) posts without the header, saying so once in the log', async () => {
    const { session, requests, logs } = fakeSession({ status: 404 });
    await mopsEsgReportModule.plan!.run(session, { url: 'http://127.0.0.1:8123/api/api/MopsSustainReport/data', asof: '2024-06-30', moenvKey: '' });
    const posts = requests.filter((r) => r.method === 'POST');
    expect(posts).toHaveLength(20);
    for (const r of posts) expect(Object.keys(r.headers!).map((k) => k.toLowerCase())).not.toContain('requestverificationtoken');
    expect(logs).toEqual([
      'SRC-MOPS-ESGREPORT: no antiforgery token endpoint (HTTP 404 at http://127.0.0.1:8123/api/api/Antiforgery/token); posting without a RequestVerificationToken header',
    ]);
  });

  it('any other failure of the token endpoint fails the plan before any POST', async () => {
    const { session, requests } = fakeSession({ status: 403 });
    await expect(
      mopsEsgReportModule.plan!.run(session, { url: 'http://127.0.0.1:1/api/api/MopsSustainReport/data', asof: '2024-06-30', moenvKey: '' }),
    ).rejects.toThrow(/HTTP 403/);
    expect(requests.map((r) => r.method)).toEqual(['GET']);
  });

  it('a token answer in a form we do not know fails the plan naming the source, before any POST', async () => {
    for (const body of [
      JSON.stringify({ code: 200, success: true, data: null, message: null }),
      JSON.stringify({ xsrf: TOKEN }),
      JSON.stringify({ success: false, data: TOKEN }),
      '{}',
      'OK',
    ]) {
      const { session, requests } = fakeSession(body);
      await expect(
        mopsEsgReportModule.plan!.run(session, { url: 'http://127.0.0.1:1/api/api/MopsSustainReport/data', asof: '2024-06-30', moenvKey: '' }),
        body,
      ).rejects.toThrow(/^SRC-MOPS-ESGREPORT esggenplus-antiforgery-token\.json: the antiforgery answer holds no token in a form we know/);
      expect(requests.map((r) => r.method)).toEqual(['GET']);
    }
  });

  it("reads the token from GenPlus's envelope, {token}, {requestToken} (top or under data), a JSON string or bare text", () => {
    const forms = [
      tokenAnswer,
      JSON.stringify({ token: TOKEN }),
      JSON.stringify({ requestToken: TOKEN, headerName: 'RequestVerificationToken' }),
      JSON.stringify({ code: 200, success: true, data: { requestToken: TOKEN }, message: null }),
      JSON.stringify({ success: true, data: { token: TOKEN } }),
      JSON.stringify(TOKEN),
      `\ufeff${TOKEN}\n`,
    ];
    for (const body of forms) expect(antiforgeryTokenOf(body, TOKEN_FILE), body).toBe(TOKEN);
    // Too short to be a token, or not one run of visible ASCII (it goes into a header).
    for (const body of [JSON.stringify({ token: 'abc' }), JSON.stringify({ token: `${TOKEN} x` }), JSON.stringify({ data: [TOKEN] })]) {
      expect(() => antiforgeryTokenOf(body, TOKEN_FILE), body).toThrow(SourceFileError);
    }
  });

  it("its check counts a successful answer's records (none for `data: null`) and refuses `success: false`", async () => {
    const { session, requests } = fakeSession();
    await mopsEsgReportModule.plan!.run(session, { url: 'http://127.0.0.1:1/data', asof: '2024-06-30', moenvKey: '' });
    const check = requests.find((r) => r.file === 'esggenplus-2023-sii.json')!.check!;
    const dir = fixtureDir({
      ok: answer(filing(), filing({ code: 'D2002' })),
      none: JSON.stringify({ code: 200, success: true, data: null, message: null }),
      no: JSON.stringify({ success: false, message: '查無資料' }),
    });
    expect(await check(join(dir, 'ok'))).toBe(2);
    expect(await check(join(dir, 'none'))).toBe(0);
    await expect(check(join(dir, 'no'))).rejects.toThrow(/^SRC-MOPS-ESGREPORT esggenplus-2023-sii\.json: not a successful GenPlus answer/);
  });
});

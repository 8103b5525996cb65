import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MissingColumnError, RejectLog } from '../../../../build-scripts/adapters/read-layout.js';
import type { ConductRow } from '../../../../build-scripts/sources/kit/facts.js';
import { SOURCE_MODULES, sourceModule, urlVariable } from '../../../../build-scripts/sources/index.js';
import type { SourceModule } from '../../../../build-scripts/sources/kit/source.js';
import { SourceTally } from '../../../../build-scripts/sources/kit/tally.js';
import { collect, fixtureDirs } from '../../adapters/fixture-dir.js';

/**
 * shared/spec/sources.md, "SRC-TWSE-SANCTIONS and the three sources beside it": the genuine TWSE
 * answers of 2025-11-22 (t187ap23_L, 79 rows; t187ap22_L, 65 rows) read through the modules' readers
 * as an operator places them (`response.body` of the caller's wrapper), and inline TPEx answers with
 * the mixed keys. Expectations are computed here from the file by the test's own reading.
 */

const GENUINE = join(import.meta.dirname, '../../../fixtures/genuine/SRC-FSC-SANCTIONS');
const body = (name: string) =>
  (JSON.parse(readFileSync(join(GENUINE, name), 'utf8')) as { response: { body: Record<string, string>[] } }).response.body;
const breaches = body('GET__opendata_t187ap23_L.json');
const sanctions = body('GET__opendata_t187ap22_L.json');

const sourceDir = fixtureDirs('conduct-');

async function read(id: string, files: Record<string, string>) {
  const m: SourceModule = sourceModule(id);
  const rejects = new RejectLog();
  const tally = new SourceTally();
  if (m.read?.kind !== 'conduct') throw new Error(`${id} is not a conduct source`);
  const rows: ConductRow[] = await collect(m.read.read({ dir: sourceDir(files), rejects, tally }));
  return { rows, rejects, tally, m };
}

/** The test's own reading: ROC compact `1141113` → `2025-11-13`. */
const iso = (roc: string) => `${Number(roc.slice(0, -4)) + 1911}-${roc.slice(-4, -2)}-${roc.slice(-2)}`;
const sha10 = (s: string) => createHash('sha1').update(s).digest('hex').slice(0, 10);

const TWSE_BREACHES = 'SRC-TWSE-DISCLOSURE-BREACHES';
const TPEX_BREACHES = 'SRC-TPEX-DISCLOSURE-BREACHES';
const TWSE_SANCTIONS = 'SRC-TWSE-SANCTIONS';
const TPEX_SANCTIONS = 'SRC-TPEX-SANCTIONS';

describe('the four modules', () => {
  it('are registered as conduct sources, owned by the exchanges (not government), irregular, OGDL', () => {
    const conduct = SOURCE_MODULES.filter((m) => m.read?.kind === 'conduct').map((m) => m.info.source_id);
    expect(conduct).toEqual([TWSE_BREACHES, TPEX_BREACHES, TWSE_SANCTIONS, TPEX_SANCTIONS]);
    for (const id of conduct) {
      const { info, plan } = sourceModule(id);
      expect(info.is_government).toBe(false);
      expect(info.owner_org).toBe(id.startsWith('SRC-TWSE') ? 'TWSE' : 'TPEX');
      expect(info.update_frequency).toBe('irregular');
      expect(info.licence.id).toBe('OGDL-Taiwan-1.0');
      expect(info.record_link).toBeNull();
      expect(plan?.url).toBe(info.homepage_url);
      expect(urlVariable(id)).toBe(`FETCH_URL_${id.replace(/-/g, '_')}`);
      if (id.includes('SANCTIONS')) expect(info.description).toContain('FSC');
    }
  });
});

describe('TWSE t187ap23_L (79 rows, 2025-11-22)', () => {
  const files = { 't187ap23_L.json': JSON.stringify(breaches, null, 2) };

  it('every row is read, none rejected; kind, date, fine and rule as the file says', async () => {
    expect(breaches).toHaveLength(79);
    const { rows, rejects } = await read(TWSE_BREACHES, files);
    expect(rejects.format()).toBe('');
    expect(rows).toHaveLength(79);
    breaches.forEach((r, i) => {
      const row = rows[i]!;
      expect(row.ticker).toBe(r['股票代號']);
      expect(row.kind).toBe('breach');
      expect(row.date).toBe(iso(r['發函日期']!));
      expect(row.fine).toBe(Math.round(Number(r['裁罰金額(萬)']) * 10000));
      const articles = [r['違反資訊申報作業辦法條款']!, r['違反重大訊息之查證暨公開處理程序條款']!].map((a) => a.trim()).filter((a) => a !== '');
      expect(row.rule).toBe(articles.length > 0 ? articles.join('; ').replace(/\s*[\r\n]\s*/g, ' ') : null);
      expect(row.decision).toBeNull();
      expect(row.sourceUrl).toBe('https://openapi.twse.com.tw/v1/opendata/t187ap23_L');
      expect(row.recordId).toBe(`t187ap23_L:${row.ticker}:${row.date}:${sha10(row.summary)}`);
    });
    expect(new Set(rows.map((r) => r.recordId)).size).toBe(rows.length);
  });

  it('1727 中華化, 2025-11-13: NT$30,000 (3.0 in units of NT$10,000)', async () => {
    const { rows } = await read(TWSE_BREACHES, files);
    const row = rows.find((r) => r.ticker === '1727' && r.date === '2025-11-13')!;
    expect(row.fine).toBe(30000);
    expect(row.recordId).toMatch(/^t187ap23_L:1727:2025-11-13:[0-9a-f]{10}$/);
  });

  it('a code repeating six times yields six rows', async () => {
    const { rows } = await read(TWSE_BREACHES, files);
    const count = new Map<string, number>();
    for (const r of breaches) count.set(r['股票代號']!, (count.get(r['股票代號']!) ?? 0) + 1);
    const six = [...count].filter(([, n]) => n === 6).map(([c]) => c);
    expect(six).toEqual(['2236']);
    expect(rows.filter((r) => r.ticker === '2236')).toHaveLength(6);
  });

  it('hard wraps become one space, references are decoded, article fields trimmed', async () => {
    const { rows } = await read(TWSE_BREACHES, files);
    expect(breaches.every((r) => r['違規事由']!.includes('\r\n'))).toBe(true);
    for (const r of rows) {
      expect(r.summary).not.toMatch(/[\r\n]/);
      expect(r.summary).not.toContain('&#');
      expect(r.summary).toBe(r.summary.trim());
      expect(r.rule ?? '').not.toMatch(/[\r\n]/);
    }
    const first = rows.find((r) => r.ticker === '1727')!;
    expect(first.summary).toContain('前揭財務 報告乙案');
    expect(rows.filter((r) => r.summary.includes('GMI\u2002USA\u2002Corporation'))).toHaveLength(1);
    expect(breaches.some((r) => r['違反重大訊息之查證暨公開處理程序條款'] === '4條1項31款\n')).toBe(true);
    expect(rows.some((r) => r.rule === '4條1項31款')).toBe(true);
  });

  it('the publisher date is 2025-11-22, from 出表日期 1141122', async () => {
    const { tally } = await read(TWSE_BREACHES, files);
    expect(tally.of(TWSE_BREACHES).publisherDate).toBe('2025-11-22');
  });

  it('an exact copy of a row is read once and counted as a duplicate', async () => {
    const { rows, tally } = await read(TWSE_BREACHES, { 't187ap23_L.json': JSON.stringify([...breaches, breaches[0]]) });
    expect(rows).toHaveLength(79);
    expect(tally.of(TWSE_BREACHES).duplicates).toBe(1);
  });

  it('a renamed key fails the file, naming the source and the key', async () => {
    const renamed = breaches.map(({ ['裁罰金額(萬)']: fine, ...rest }) => ({ ...rest, '裁罰金額(千)': fine }));
    const err = await read(TWSE_BREACHES, { 't187ap23_L.json': JSON.stringify(renamed) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MissingColumnError);
    expect((err as Error).message).toContain(TWSE_BREACHES);
    expect((err as Error).message).toContain('裁罰金額(萬)');
  });
});

describe('TWSE t187ap22_L (65 rows, 2025-11-22)', () => {
  const files = { 't187ap22_L.json': JSON.stringify(sanctions, null, 2) };

  it('every row is read, none rejected: kind sanction, no fine, 違反法規 the rule, 裁處情形 the decision', async () => {
    expect(sanctions).toHaveLength(65);
    const { rows, rejects, tally } = await read(TWSE_SANCTIONS, files);
    expect(rejects.format()).toBe('');
    expect(rows).toHaveLength(65);
    const unwrap = (s: string) => s.trim().replace(/\s*[\r\n]\s*/g, ' ');
    sanctions.forEach((r, i) => {
      const row = rows[i]!;
      expect(row.ticker).toBe(r['股票代號']);
      expect(row.kind).toBe('sanction');
      expect(row.date).toBe(iso(r['發函日期']!));
      expect(row.fine).toBeNull();
      expect(row.rule).toBe(unwrap(r['違反法規']!));
      expect(row.decision).toBe(unwrap(r['裁處情形']!));
      expect(row.summary).not.toMatch(/[\r\n]/);
      expect(row.recordId).toBe(`t187ap22_L:${row.ticker}:${row.date}:${sha10(row.summary)}`);
    });
    expect(rows.find((r) => r.ticker === '4576')!.decision).toBe('處絲○○罰鍰8萬元');
    expect(tally.of(TWSE_SANCTIONS).publisherDate).toBe('2025-11-22');
  });

  it('a renamed key fails the file, naming the source and the key', async () => {
    const renamed = sanctions.map(({ ['違反法規']: rule, ...rest }) => ({ ...rest, 違反法令: rule }));
    const err = await read(TWSE_SANCTIONS, { 't187ap22_L.json': JSON.stringify(renamed) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MissingColumnError);
    expect((err as Error).message).toContain(TWSE_SANCTIONS);
    expect((err as Error).message).toContain('違反法規');
  });
});

describe('TPEx answers: Date, SecuritiesCompanyCode, CompanyName beside Chinese keys', () => {
  const breachRow = (code: string, date: string, summary: string, fine: string, info = '', material = '') => ({
    Date: '1141121',
    發函日期: date,
    SecuritiesCompanyCode: code,
    CompanyName: '測試',
    違規事由: summary,
    違反資訊申報作業辦法條款: info,
    違反重大訊息之查證暨公開處理程序條款: material,
    裁罰金額: fine,
  });
  const sanctionRow = (code: string, date: string, summary: string, rule: string, decision: string) => ({
    Date: '1141121',
    發函日期: date,
    SecuritiesCompanyCode: code,
    CompanyName: '測試',
    違規事由: summary,
    違反法規: rule,
    裁處情形: decision,
  });

  it('mopsfin_t187ap23_O: every row yielded (an unlisted code too), wraps and references cleaned', async () => {
    const served = [
      breachRow('6488', '1141105', '該公司延遲發布\r\n重大訊息，子公司ABC&#8194;Inc.之交易', '5.0', '', '4條1項31款\n'),
      breachRow('6488', '1140920', '該公司延遲申報\r\n財務報告', '1.0', '3條1項\n', '2條\n'),
      breachRow('ZZ99', '1140801', '非上櫃公司之列', '10.0'),
    ];
    const { rows, rejects, tally } = await read(TPEX_BREACHES, { 'mopsfin_t187ap23_O.json': JSON.stringify(served) });
    expect(rejects.format()).toBe('');
    expect(rows.map((r) => [r.ticker, r.date, r.fine, r.rule])).toEqual([
      ['6488', '2025-11-05', 50000, '4條1項31款'],
      ['6488', '2025-09-20', 10000, '3條1項; 2條'],
      ['ZZ99', '2025-08-01', 100000, null],
    ]);
    expect(rows[0]!.summary).toBe('該公司延遲發布 重大訊息，子公司ABC\u2002Inc.之交易');
    expect(rows[0]!.recordId).toBe(`mopsfin_t187ap23_O:6488:2025-11-05:${sha10(rows[0]!.summary)}`);
    expect(rows.every((r) => r.kind === 'breach' && r.sourceUrl === 'https://www.tpex.org.tw/openapi/v1/mopsfin_t187ap23_O')).toBe(true);
    expect(tally.of(TPEX_BREACHES).publisherDate).toBe('2025-11-21');
  });

  it('mopsfin_t187ap22_O: kind sanction, the decision as text, no fine', async () => {
    const served = [
      sanctionRow('6488', '1141030', '內部人事前申報\r\n持股異常案件', '證券交易法第22條之2\n', '處王○○罰鍰&#8194;8萬元'),
      sanctionRow('ZZ99', '1140610', '財務報告\n未依規定編製', '證券交易法第14條', '處該公司罰鍰24萬元'),
    ];
    const { rows, rejects } = await read(TPEX_SANCTIONS, { 'mopsfin_t187ap22_O.json': JSON.stringify(served) });
    expect(rejects.format()).toBe('');
    expect(rows.map((r) => [r.ticker, r.kind, r.date, r.summary, r.rule, r.fine, r.decision])).toEqual([
      ['6488', 'sanction', '2025-10-30', '內部人事前申報 持股異常案件', '證券交易法第22條之2', null, '處王○○罰鍰\u20028萬元'],
      ['ZZ99', 'sanction', '2025-06-10', '財務報告 未依規定編製', '證券交易法第14條', null, '處該公司罰鍰24萬元'],
    ]);
  });

  it('a renamed TPEx key fails the file, naming the source and the key', async () => {
    const served = [{ ...sanctionRow('6488', '1141030', 'x', 'y', 'z'), SecuritiesCompanyCode: undefined, CompanyCode: '6488' }];
    const err = await read(TPEX_SANCTIONS, { 'mopsfin_t187ap22_O.json': JSON.stringify(served) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MissingColumnError);
    expect((err as Error).message).toContain(TPEX_SANCTIONS);
    expect((err as Error).message).toContain('SecuritiesCompanyCode');
  });
});

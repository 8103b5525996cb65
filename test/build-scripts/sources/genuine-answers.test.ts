import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanText } from '../../../build-scripts/adapters/clean-text.js';
import { parseDate } from '../../../build-scripts/adapters/dates.js';
import { RejectLog } from '../../../build-scripts/adapters/read-layout.js';
import { readRegistry } from '../../../build-scripts/sources/moenv/moenv-ghg-registry.js';
import { readPenalties } from '../../../build-scripts/sources/moenv/moenv-penalties.js';
import { SourceTally } from '../../../build-scripts/sources/kit/tally.js';
import { readTpexCompanies } from '../../../build-scripts/sources/company-lists/tpex-company.js';
import { readTwseCompanies } from '../../../build-scripts/sources/company-lists/twse-company.js';
import { parseCsv } from '../../helpers/csv-parse.js';
import { collect } from '../adapters/fixture-dir.js';

/**
 * Each fact of shared/spec/sources.md, "Genuine answers", checked against the genuine files
 * (test/fixtures/genuine) and read through the project's own readers. The counts are taken from the
 * files by this test's own parsing; the readers must agree with them. (The empty and blocked states
 * are in test/build-scripts/fetch/carry-forward.test.ts; GenPlus, SITCA and the fund list in their
 * modules' tests; the whole build in test/build-scripts/genuine-build.test.ts.)
 */

const GENUINE = join(import.meta.dirname, '../../fixtures/genuine');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
/** A sources folder holding one genuine file under the name the project reads it by. */
function folderWith(from: string, name: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'genuine-'));
  dirs.push(dir);
  copyFileSync(join(GENUINE, from), join(dir, name));
  return dir;
}
const json = (rel: string) => JSON.parse(readFileSync(join(GENUINE, rel), 'utf8')) as Record<string, string>[];
function csv(rel: string): { header: string[]; rows: Record<string, string>[] } {
  const [header, ...rows] = parseCsv(readFileSync(join(GENUINE, rel), 'utf8').replace(/^\ufeff/, '')).filter((r) => r.length > 1);
  return { header: header!, rows: rows.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i]!]))) };
}
const allValues = (records: Record<string, string>[]) => records.flatMap((r) => Object.values(r));

describe('TWSE t187ap03_L (1,089 companies, 2026-07-09)', () => {
  const records = json('SRC-TWSE-COMPANY/t187ap03_L.json');
  const read = async () => {
    const rejects = new RejectLog();
    const tally = new SourceTally();
    const rows = await collect(readTwseCompanies(folderWith('SRC-TWSE-COMPANY/t187ap03_L.json', 't187ap03_L.json'), rejects, tally));
    return { rows, rejects, tally };
  };

  it('成立日期 and 上市日期 are Gregorian compact; only 出表日期 is ROC', () => {
    expect(records).toHaveLength(1089);
    expect(records.every((r) => /^1\d{6}$/.test(r['出表日期']!) && parseDate(r['出表日期']!)?.startsWith('2026-'))).toBe(true);
    expect(records.every((r) => /^(19|20)\d{6}$/.test(r['上市日期']!))).toBe(true);
    expect(parseDate(records[0]!['上市日期']!)).toBe('1962-02-09');
    expect(parseDate('1150709')).toBe('2026-07-09');
  });

  it('產業別 91 (depositary receipts) is a company, read as 存託憑證, never a reject', async () => {
    const receipts = records.filter((r) => r['產業別'] === '91').map((r) => r['公司代號']);
    expect(receipts).toHaveLength(10);
    const { rows, rejects } = await read();
    expect(rejects.format()).toBe('');
    expect(rows).toHaveLength(records.length);
    expect(rows.filter((r) => r.industry === '存託憑證').map((r) => r.ticker)).toEqual(receipts);
  });

  it('HTML numeric character references (69 values) are decoded in every value read', async () => {
    const withReference = allValues(records).filter((v) => /&#\d+;/.test(v));
    expect(withReference).toHaveLength(69);
    expect(records.find((r) => r['公司代號'] === '6831')!['公司名稱']).toBe('邁&#33834;科技股份有限公司');
    const { rows } = await read();
    expect(rows.find((r) => r.ticker === '6831')!.legalName).toBe(`邁${String.fromCodePoint(33834)}科技股份有限公司`);
    expect(rows.flatMap((r) => [r.legalName, r.shortName]).filter((v) => v.includes('&#'))).toEqual([]);
  });

  it('外國企業註冊地國 is served as `－ ` or padded with spaces: every value cleaned ends in neither', () => {
    expect(records.filter((r) => r['外國企業註冊地國'] === '－ ').length).toBeGreaterThan(900);
    expect(records.some((r) => /^\S.* +$/.test(r['外國企業註冊地國']!) && r['外國企業註冊地國'] !== '－ ')).toBe(true);
    expect(
      allValues(records)
        .map(cleanText)
        .filter((v) => /[\s\u3000]$/.test(v)),
    ).toEqual([]);
  });
});

describe('TPEx mopsfin_t187ap03_O (891 companies, 2026-07-10)', () => {
  const records = json('SRC-TPEX-COMPANY/mopsfin_t187ap03_O.json');

  it('32 English keys, Registration and DateOfIncorporation among them; UnifiedBusinessNo. with its full stop', () => {
    expect(records).toHaveLength(891);
    const keys = Object.keys(records[0]!);
    expect(keys).toHaveLength(32);
    expect(keys).toEqual(
      expect.arrayContaining(['Registration', 'DateOfIncorporation', 'UnifiedBusinessNo.', 'SecuritiesIndustryCode', 'Paidin.Capital.NTDollars']),
    );
  });

  it('251 values end in U+3000 and 57 carry HTML references: read trimmed and decoded, every company kept', async () => {
    expect(allValues(records).filter((v) => v.endsWith('\u3000'))).toHaveLength(251);
    expect(allValues(records).filter((v) => /&#\d+;/.test(v))).toHaveLength(57);
    const rejects = new RejectLog();
    const rows = await collect(
      readTpexCompanies(folderWith('SRC-TPEX-COMPANY/mopsfin_t187ap03_O.json', 'mopsfin_t187ap03_O.json'), rejects, new SourceTally()),
    );
    expect(rejects.format()).toBe('');
    expect(rows).toHaveLength(891);
    const texts = rows.flatMap((r) => [r.ticker, r.legalName, r.shortName, r.industry]);
    expect(texts.filter((v) => /[\s\u3000]$|^[\s\u3000]|&#/.test(v))).toEqual([]);
  });
});

describe('MOENV EMS_P_46 (one 1,000-record page, CSV)', () => {
  const { header, rows: records } = csv('SRC-MOENV-EMS_P_46/ems_p_46.csv');
  const read = async () => {
    const rejects = new RejectLog();
    const tally = new SourceTally();
    const rows = await collect(readPenalties(folderWith('SRC-MOENV-EMS_P_46/ems_p_46.csv', 'EMS_P_46.csv'), rejects, tally));
    return { rows, rejects, tally: tally.of('SRC-MOENV-EMS_P_46') };
  };

  it('38 columns; the business ID is `ban` (no fac_uniformno); ISO dates; plain integer amounts', () => {
    expect(header).toHaveLength(38);
    expect(header).toContain('ban');
    expect(header).not.toContain('fac_uniformno');
    expect(records.every((r) => /^\d{4}-\d{2}-\d{2}$/.test(r.penalty_date!))).toBe(true);
    expect(records.every((r) => /^\d+$/.test(r.penalty_money!))).toBe(true);
  });

  it('`ban` is empty in 24 rows (vehicles, people): read and counted, linking to no company, never a reject', async () => {
    expect(records.filter((r) => r.ban === '')).toHaveLength(24);
    const { rows, rejects, tally } = await read();
    expect(rejects.format()).toBe('');
    expect(rows).toHaveLength(1000);
    expect(rows.filter((r) => r.uniformNo === null)).toHaveLength(24);
    expect(tally.duplicates).toBe(0);
  });

  it('a 裁處書字號 repeats across counties (53 numbers, each naming different decisions), never within one: every decision is kept', async () => {
    const counties = new Map<string, Set<string>>();
    for (const r of records) counties.set(r.document_no!, (counties.get(r.document_no!) ?? new Set()).add(r.county_name!));
    const shared = [...counties].filter(([, c]) => c.size > 1);
    expect(shared).toHaveLength(53);
    expect(new Set(records.map((r) => `${r.county_name}|${r.document_no}`)).size).toBe(records.length);
    const { rows } = await read();
    for (const [doc, c] of shared)
      expect(
        rows
          .filter((r) => r.recordId === doc)
          .map((r) => r.agencyName)
          .sort(),
        doc,
      ).toEqual([...c].sort());
  });

  it('a page is not sorted by date', () => {
    const dates = records.map((r) => r.penalty_date!);
    expect(dates).not.toEqual([...dates].sort());
    expect(dates).not.toEqual([...dates].sort().reverse());
  });
});

describe('MOENV GHG_P_01 (3,140 site-years, ROC 89–111)', () => {
  const { rows: records } = csv('SRC-MOENV-GHG_P_01/ghg_p_01.csv');
  const GASES = ['co2', 'ch4', 'n2o', 'hfcs', 'pfcs', 'sf6', 'nf3'];

  it('`tot` is the site total, the seven gases plus tot2, in every row; the reader takes direct = tot − tot2', async () => {
    expect(records).toHaveLength(3140);
    for (const r of records) expect(Math.abs(GASES.reduce((s, g) => s + Number(r[g]), 0) + Number(r.tot2) - Number(r.tot))).toBeLessThan(0.05);
    const rejects = new RejectLog();
    const tally = new SourceTally();
    const rows = await collect(readRegistry(folderWith('SRC-MOENV-GHG_P_01/ghg_p_01.csv', 'GHG_P_01.csv'), rejects, tally));
    expect(rejects.format()).toBe('');
    expect(rows).toHaveLength(3140);
    rows.forEach((row, i) => {
      expect(row.total).toBe(Number(records[i]!.tot));
      expect(row.indirect).toBe(Number(records[i]!.tot2));
      expect(row.direct).toBeCloseTo(
        GASES.reduce((s, g) => s + Number(records[i]![g]), 0),
        1,
      );
    });
  });

  it('companyno lost its leading zero in 392 rows of years ≤ 110 (台電 3795904 in 110, 03795904 in 111): padded back, and counted', async () => {
    const seven = records.filter((r) => /^\d{7}$/.test(r.companyno!));
    expect(seven).toHaveLength(392);
    expect(seven.every((r) => Number(r.app_year) <= 110)).toBe(true);
    expect(records.some((r) => r.app_year === '110' && r.companyno === '3795904')).toBe(true);
    expect(records.some((r) => r.app_year === '111' && r.companyno === '03795904')).toBe(true);
    const tally = new SourceTally();
    const rows = await collect(readRegistry(folderWith('SRC-MOENV-GHG_P_01/ghg_p_01.csv', 'GHG_P_01.csv'), new RejectLog(), tally));
    expect(tally.of('SRC-MOENV-GHG_P_01').padded).toBe(392);
    expect(new Set(rows.filter((r) => r.year <= 2021).map((r) => r.uniformNo)).has('03795904')).toBe(true);
    expect(rows.every((r) => /^\d{8}$/.test(r.uniformNo))).toBe(true);
  });
});

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RejectLog } from '../../../build-scripts/adapters/read-layout.js';
import { generateDemo } from '../../../build-scripts/demo/generate.js';
import { tpexCompanyLayout } from '../../../build-scripts/sources/company-lists/tpex-company.js';
import { twseCompanyLayout } from '../../../build-scripts/sources/company-lists/twse-company.js';
import { twseGhgLayout } from '../../../build-scripts/sources/ghg-disclosures/twse-esg-ghg.js';
import { loadSources } from '../../../build-scripts/snapshot/load-sources.js';
import { silentProgress } from '../../../build-scripts/snapshot/progress.js';

/**
 * A company on both exchanges' lists (shared/spec/sources.md, "A company moves between the exchanges"):
 * 6423 億而得 was on TWSE's innovation board (`億而得-創`, TWSE's list of 2025-11-26) and has been on
 * TPEx since 2026-01-22 (TPEx's list of 2026-07-10, genuine: test/fixtures/genuine). The TWSE record
 * is made here from the genuine TPEx one under TWSE's keys, as the November list served it; the rest
 * of the folder is a small demo universe. It is one company, with the newer listing's profile, counted
 * in the summary and never a reject.
 */

const GENUINE = join(import.meta.dirname, '../../fixtures/genuine');
const tpexGenuine = (JSON.parse(readFileSync(join(GENUINE, 'SRC-TPEX-COMPANY/mopsfin_t187ap03_O.json'), 'utf8')) as Record<string, string>[]).find(
  (r) => r.SecuritiesCompanyCode === '6423',
)!;

let root: string;
let twse: Record<string, string>[];
let tpex: Record<string, string>[];
let ghg: Record<string, string>[];
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'both-lists-'));
  await generateDemo({ outDir: root, companies: 50 });
  const read = (file: string) => JSON.parse(readFileSync(join(root, file), 'utf8')) as Record<string, string>[];
  twse = read(twseCompanyLayout.file);
  tpex = read(tpexCompanyLayout.file);
  ghg = read(twseGhgLayout.file);
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** 6423 as TWSE's list of November 2025 served it: TWSE's keys, the innovation board's `-創` short name. */
function twseRecord(listed: string): Record<string, string> {
  return {
    出表日期: '1141126',
    公司代號: '6423',
    公司名稱: tpexGenuine.CompanyName!,
    公司簡稱: '億而得-創',
    產業別: tpexGenuine.SecuritiesIndustryCode!,
    營利事業統一編號: tpexGenuine['UnifiedBusinessNo.']!,
    實收資本額: tpexGenuine['Paidin.Capital.NTDollars']!,
    上市日期: listed,
  };
}

async function loadWith(twseExtra: Record<string, string>, tpexExtra: Record<string, string>, ghgExtra: Record<string, string>[] = []) {
  writeFileSync(join(root, twseCompanyLayout.file), JSON.stringify([...twse, twseExtra]));
  writeFileSync(join(root, tpexCompanyLayout.file), JSON.stringify([...tpex, tpexExtra]));
  writeFileSync(join(root, twseGhgLayout.file), JSON.stringify([...ghg, ...ghgExtra]));
  const rejects = new RejectLog();
  // A demo universe with one real company: the kind is the test's to say (the build refuses a mixed folder, snapshot-kind.ts).
  const data = await loadSources(root, rejects, silentProgress, { kindOf: () => 'demo', scale: 1 });
  return { data, rejects };
}

describe('a company on both exchange lists', () => {
  it('is published once, with the newer listing’s profile (TPEx, listed 2026-01-22), counted and never a reject', async () => {
    expect(tpexGenuine.DateOfListing).toBe('20260122');
    const { data, rejects } = await loadWith(twseRecord('20240318'), tpexGenuine);
    expect(rejects.format()).toBe('');
    const c = data.companies.get('6423')!;
    expect([c.marketType, c.sourceId, c.shortName, c.listedOn]).toEqual(['otc', 'SRC-TPEX-COMPANY', '億而得', '2026-01-22']);
    expect([...data.tally.of('SRC-TWSE-COMPANY').skipped]).toEqual([
      ["listed by both exchanges: the newer listing's profile (SRC-TPEX-COMPANY) kept", 1],
    ]);
    expect(data.companies.size).toBe(twse.length + tpex.length + 1);
  });

  it('the other way round, TWSE’s listing is kept when it is the newer', async () => {
    const { data, rejects } = await loadWith(twseRecord('20260301'), tpexGenuine);
    expect(rejects.format()).toBe('');
    const c = data.companies.get('6423')!;
    expect([c.marketType, c.sourceId, c.shortName]).toEqual(['listed', 'SRC-TWSE-COMPANY', '億而得-創']);
    expect([...data.tally.of('SRC-TPEX-COMPANY').skipped]).toEqual([
      ["listed by both exchanges: the newer listing's profile (SRC-TWSE-COMPANY) kept", 1],
    ]);
  });

  it('its TWSE disclosure joins the company on 公司代號, whichever list it is on; a row of three N/A is no disclosure', async () => {
    const row = { ...ghg[0]!, 公司代號: '6423', 公司名稱: '億而得-創' };
    // A listed company of the demo with no disclosure of its own files one that discloses nothing.
    const silent = twse.find((c) => !ghg.some((g) => g.公司代號 === c.公司代號))!.公司代號!;
    const nothing: Record<string, string> = { ...ghg[0]!, 公司代號: silent };
    for (const k of Object.keys(nothing)) if (/排放量/.test(k)) nothing[k] = 'N/A';
    const { data, rejects } = await loadWith(twseRecord('20240318'), tpexGenuine, [row, nothing]);
    expect(rejects.format()).toBe('');
    expect(data.disclosures.get('6423')?.sourceId).toBe('SRC-TWSE-ESG-GHG');
    expect(data.companies.has(silent)).toBe(true);
    expect(data.disclosures.has(silent)).toBe(false);
    expect(data.tally.of('SRC-TWSE-ESG-GHG').skipped.get('all three figures N/A: discloses nothing')).toBeGreaterThanOrEqual(1);
  });
});

import { describe, expect, it } from 'vitest';
import { cleanText } from '../../../build-scripts/adapters/clean-text.js';
import { RejectLog } from '../../../build-scripts/adapters/read-layout.js';
import { SourceTally } from '../../../build-scripts/sources/kit/tally.js';
import { readTwseCompanies } from '../../../build-scripts/sources/company-lists/twse-company.js';
import { collect, fixtureDirs } from './fixture-dir.js';

/**
 * The TWSE company list of November 2025 pads 148 values with U+3000 (ideographic space) at both
 * ends (`\u3000ROUNDTOP\u3000`; shared/spec/sources.md, "Genuine answers, part two"); earlier lists
 * padded only TPEx values, at the end. Every value is trimmed at both ends, through the real reader.
 */

const fixtureDir = fixtureDirs('clean-text-');
const IDEOGRAPHIC_SPACE = '\u3000';
const padded = (s: string) => `${IDEOGRAPHIC_SPACE}${s}${IDEOGRAPHIC_SPACE}`;

describe('cleanText', () => {
  it('trims U+3000 at both ends, and keeps it inside a value', () => {
    expect(cleanText(padded('ROUNDTOP'))).toBe('ROUNDTOP');
    expect(cleanText(`${IDEOGRAPHIC_SPACE}${IDEOGRAPHIC_SPACE} 台積電\t${IDEOGRAPHIC_SPACE}`)).toBe('台積電');
    expect(cleanText(padded(`示範${IDEOGRAPHIC_SPACE}電子`))).toBe(`示範${IDEOGRAPHIC_SPACE}電子`);
  });

  it('trims after decoding references, so a padded name with a reference comes out clean', () => {
    expect(cleanText(padded('邁&#33834;科技股份有限公司'))).toBe(`邁${String.fromCodePoint(33834)}科技股份有限公司`);
    // A reference that is itself U+3000 at an end is padding too.
    expect(cleanText('&#12288;ROUNDTOP&#x3000;')).toBe('ROUNDTOP');
  });
});

describe('a TWSE company record padded with U+3000 at both ends, read by the TWSE company reader', () => {
  it('reads cleanly: ticker, names, industry and business ID without the padding, and no reject', async () => {
    const record = {
      出表日期: padded('1141126'),
      公司代號: padded('6999'),
      公司名稱: padded('ROUNDTOP示範股份有限公司'),
      公司簡稱: padded('ROUNDTOP'),
      外國企業註冊地國: '－ ',
      產業別: padded('24'),
      營利事業統一編號: padded('12345678'),
      實收資本額: padded('1000000000'),
      上市日期: padded('20240318'),
    };
    const rejects = new RejectLog();
    const rows = await collect(readTwseCompanies(fixtureDir({ 't187ap03_L.json': JSON.stringify([record]) }), rejects, new SourceTally()));
    expect(rejects.format()).toBe('');
    expect(rows).toEqual([
      {
        ticker: '6999',
        legalName: 'ROUNDTOP示範股份有限公司',
        shortName: 'ROUNDTOP',
        industryCode: '24',
        industry: expect.any(String),
        uniformNo: '12345678',
        paidInCapital: 1_000_000_000,
        marketType: 'listed',
        listedOn: '2024-03-18',
        sourceId: 'SRC-TWSE-COMPANY',
      },
    ]);
    expect(JSON.stringify(rows)).not.toContain(IDEOGRAPHIC_SPACE);
  });
});

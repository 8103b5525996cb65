import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { afterAll, describe, expect, it } from 'vitest';
import { MissingColumnError, SourceFileError } from '../../../build-scripts/adapters/read-layout.js';
import { readTwseGhg } from '../../../build-scripts/sources/ghg-disclosures/twse-esg-ghg.js';
import { corpusRoot, HEADER, outcome, rec, row } from './hostile-corpus.js';

/**
 * A corpus of hostile source files, generated here (none is committed): each must end in a clean
 * read or a clear report (rejects as file:line: column: reason, or one error naming the file),
 * never a crash or a hang. That memory does not grow with the file is shown over 50–100 MB files in
 * hostile-files-memory.test.ts (the slow lane).
 */

const { folder, remove } = corpusRoot('hostile-');
afterAll(remove);

describe('hostile CSV files', () => {
  it('stray quotes inside unquoted fields are kept as text (the intent is unambiguous)', async () => {
    const dir = folder('EMS_P_46.csv', `${HEADER}\n${row(1, { facts: '5" pipe leaked' })}\n${row(2, { facts: 'say "x" twice' })}\n`);
    expect(await outcome(dir)).toEqual({ rows: 2, rejects: [], error: null });
  });

  it('a quote opened and never closed is one clear error naming the file and line', async () => {
    const dir = folder('EMS_P_46.csv', `${HEADER}\n${row(1)}\n${row(2, { facts: '"never closed' })}\n${row(3, { money: '1000' })}\n`);
    const o = await outcome(dir);
    expect(o.error).toBeInstanceOf(SourceFileError);
    expect(o.error!.message).toBe('SRC-MOENV-EMS_P_46 EMS_P_46.csv:3: unterminated quoted field (a quote opened here is never closed)');
  });

  it('a quote that a later quote closes swallows lines: the reject says where the record runs to', async () => {
    const dir = folder('EMS_P_46.csv', `${HEADER}\n${row(1)}\n${row(2, { facts: '"unbalanced' })}\n${row(3)}\n${row(4, { money: '1000' })}\n`);
    expect(await outcome(dir)).toEqual({
      rows: 2,
      rejects: ['EMS_P_46.csv:3: expected 7 fields, found 10 (the record runs to line 4: an unbalanced quote?)'],
      error: null,
    });
  });

  it('ragged rows are rejects; the other rows are read', async () => {
    const dir = folder('EMS_P_46.csv', `${HEADER}\n${row(1)}\n${row(2)},extra\n南市環字第3號,113/05/21\n${row(4)}\n`);
    expect(await outcome(dir)).toEqual({
      rows: 2,
      rejects: ['EMS_P_46.csv:3: expected 7 fields, found 8', 'EMS_P_46.csv:4: expected 7 fields, found 2'],
      error: null,
    });
  });

  it('a Big5 file is detected and read; a UTF-8 file with a Big5 row rejects that row', async () => {
    const big5 = folder('EMS_P_46.csv', iconv.encode(`${HEADER}\r\n${row(1)}\r\n${row(2)}\r\n`, 'cp950'));
    expect(await outcome(big5)).toEqual({ rows: 2, rejects: [], error: null });
    const mixed = folder(
      'EMS_P_46.csv',
      Buffer.concat([Buffer.from(`${HEADER}\n${row(1)}\n`), iconv.encode(`${row(2)}\n`, 'cp950'), Buffer.from(`${row(3)}\n`)]),
    );
    expect(await outcome(mixed)).toEqual({
      rows: 2,
      rejects: ['EMS_P_46.csv:3: 裁處機關: bytes that are neither UTF-8 nor Big5 (mixed encodings?)'],
      error: null,
    });
  });

  it('duplicated header names a required column twice: one clear error; a repeated header row is a reject', async () => {
    const twice = folder('EMS_P_46.csv', `${HEADER},fac_uniformno\n${row(1)},12345678\n`);
    const o = await outcome(twice);
    expect(o.error).toBeInstanceOf(SourceFileError);
    expect(o.error!.message).toBe('SRC-MOENV-EMS_P_46 EMS_P_46.csv: column "fac_uniformno" appears twice in the header');
    const joined = folder('EMS_P_46.csv', `${HEADER}\n${row(1)}\n${HEADER}\n${row(2)}\n`);
    expect(await outcome(joined)).toEqual({ rows: 2, rejects: ['EMS_P_46.csv:3: the header row again (files joined together?)'], error: null });
  });

  it('a header only is a clean, empty read; an empty file names the missing header', async () => {
    expect(await outcome(folder('EMS_P_46.csv', `${HEADER}\n`))).toEqual({ rows: 0, rejects: [], error: null });
    const empty = await outcome(folder('EMS_P_46.csv', ''));
    expect(empty.error).toBeInstanceOf(MissingColumnError);
    expect(empty.error!.message).toMatch(/^SRC-MOENV-EMS_P_46 EMS_P_46\.csv: missing required column or key "header row"/);
  });

  it('binary junk ends in one clear error naming the file', async () => {
    let seed = 7;
    const junk = Buffer.alloc(300_000, 0).map(() => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) & 0xff);
    const o = await outcome(folder('EMS_P_46.csv', Buffer.from(junk)));
    expect(o.rows).toBe(0);
    expect(o.error).not.toBeNull();
    expect(o.error!.message).toMatch(/^SRC-MOENV-EMS_P_46 EMS_P_46\.csv:/);
  });
});

describe('hostile JSON files', () => {
  it('truncated JSON is one clear error after the complete records', async () => {
    const text = JSON.stringify([rec(1), rec(2), rec(3)]);
    const o = await outcome(folder('EMS_P_46.json', text.slice(0, text.length - 20)));
    expect(o.error).toBeInstanceOf(SourceFileError);
    expect(o.error!.message).toBe(
      'SRC-MOENV-EMS_P_46 EMS_P_46.json: truncated JSON (the file ends inside an unclosed array or object after 2 complete records)',
    );
  });

  it('elements that are not records, nested values and clashing keys are rejects with their record index', async () => {
    const text = JSON.stringify([
      rec(1),
      42,
      rec(3, { penalty_money: { amount: 1 } }),
      rec(4, { 'ban ': '99999999' }),
      rec(5, { penalty_money: 1234 }),
      null,
    ]);
    expect(await outcome(folder('EMS_P_46.json', text))).toEqual({
      rows: 2,
      rejects: [
        'EMS_P_46.json:record 2: not a JSON object',
        'EMS_P_46.json:record 3: penalty_money: not a text or number value',
        'EMS_P_46.json:record 4: ban: given twice with different values',
        'EMS_P_46.json:record 6: not a JSON object',
      ],
      error: null,
    });
  });

  it('an HTML page saved as JSON, or an object without records, is one clear error', async () => {
    const html = await outcome(folder('EMS_P_46.json', '<!DOCTYPE html><html>維護中</html>'));
    expect(html.error).toBeInstanceOf(SourceFileError);
    expect(html.error!.message).toMatch(/^SRC-MOENV-EMS_P_46 EMS_P_46\.json: not a JSON array or object/);
    const obj = await outcome(folder('EMS_P_46.json', '{"error":"quota exceeded"}'));
    expect(obj.error!.message).toBe('SRC-MOENV-EMS_P_46 EMS_P_46.json: a JSON object without a "records" array');
    // The same of a page a fetch kept.
    const page = await outcome(folder('EMS_P_46.0001.json', '<html><body>Too Many Requests</body></html>'));
    expect(page.error!.message).toMatch(/^SRC-MOENV-EMS_P_46 EMS_P_46\.0001\.json: not a JSON array or object/);
  });

  it('a missing required key in the first record names the column; in later records it is a reject', async () => {
    const first = await outcome(folder('t187ap46_L_1.json', JSON.stringify([{ 公司代號: '2330' }])), readTwseGhg);
    expect(first.error).toBeInstanceOf(MissingColumnError);
    expect(first.error!.message).toMatch(/^SRC-TWSE-ESG-GHG t187ap46_L_1\.json: missing required column or key "出表日期"/);
    const text = JSON.stringify([rec(1), { ban: '12345678' }]);
    expect((await outcome(folder('EMS_P_46.json', text))).rejects).toEqual(['EMS_P_46.json:record 2: 裁處機關: missing']);
  });

  it('both forms of one source in a folder is ambiguous, and said so', async () => {
    const dir = folder('EMS_P_46.json', '[]');
    writeFileSync(join(dir, 'EMS_P_46.csv'), `${HEADER}\n`);
    const o = await outcome(dir);
    expect(o.error).toBeInstanceOf(SourceFileError);
    expect(o.error!.message).toBe('SRC-MOENV-EMS_P_46: EMS_P_46.json and EMS_P_46.csv are two forms of one source in one folder; keep one');
  });

  it('Big5-encoded JSON is refused naming the source and the file (JSON is served in UTF-8; a CSV in Big5 is read)', async () => {
    const records = [rec(1, { county_name: '臺南市政府環境保護局' }), rec(2, { county_name: '臺南市政府環境保護局' })];
    const page = await outcome(folder('EMS_P_46.0001.json', iconv.encode(JSON.stringify(records), 'cp950')));
    expect(page.rows).toBe(0);
    expect(page.error).toBeInstanceOf(SourceFileError);
    expect(page.error!.message).toMatch(/^SRC-MOENV-EMS_P_46 EMS_P_46\.0001\.json: JSON that is not UTF-8/);
    const ghg = [
      { 出表日期: '1150301', 報告年度: '114', 公司代號: 'D1101', 公司名稱: '示範水泥', '範疇一排放量(噸CO2e)': '1.0000', '範疇二排放量(噸CO2e)': '' },
    ];
    const single = await outcome(folder('t187ap46_L_1.json', iconv.encode(JSON.stringify(ghg), 'cp950')), readTwseGhg);
    expect(single.error).toBeInstanceOf(SourceFileError);
    expect(single.error!.message).toMatch(/^SRC-TWSE-ESG-GHG t187ap46_L_1\.json: JSON that is not UTF-8/);
  });
});

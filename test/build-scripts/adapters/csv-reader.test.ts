import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readCsv, type CsvRecord } from '../../../build-scripts/adapters/csv-reader.js';

const root = mkdtempSync(join(tmpdir(), 'csv-reader-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
function file(content: string | Buffer): string {
  const path = join(root, `f${n++}.csv`);
  writeFileSync(path, content);
  return path;
}
async function read(content: string | Buffer): Promise<CsvRecord[]> {
  const out: CsvRecord[] = [];
  for await (const r of readCsv(file(content))) out.push(r as CsvRecord);
  return out;
}
const fields = async (content: string | Buffer) => (await read(content)).map((r) => r.fields);

describe('readCsv', () => {
  it('reads plain records with their line numbers', async () => {
    expect(await read('a,b,c\n1,2,3\n')).toEqual([
      { line: 1, fields: ['a', 'b', 'c'] },
      { line: 2, fields: ['1', '2', '3'] },
    ]);
  });

  it('strips a UTF-8 byte-order mark from the first field', async () => {
    const rows = await fields(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('統一編號,名稱\n12345678,甲\n')]));
    expect(rows).toEqual([
      ['統一編號', '名稱'],
      ['12345678', '甲'],
    ]);
    expect(rows[0]![0]!.charCodeAt(0)).not.toBe(0xfeff);
  });

  it('handles CRLF line ends (no stray \\r in fields)', async () => {
    expect(await read('a,b\r\n1,2\r\n3,4\r\n')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['1', '2'] },
      { line: 3, fields: ['3', '4'] },
    ]);
  });

  it('reads a last record with no line end', async () => {
    expect(await fields('a,b\n1,2')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
    expect(await fields('a,b\r\n1,2')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
  });

  it('keeps commas inside quoted fields and un-doubles doubled quotes', async () => {
    expect(await fields('"1,234,567","say ""hi""",plain\n')).toEqual([['1,234,567', 'say "hi"', 'plain']]);
    expect(await fields('"""",""\n')).toEqual([['"', '']]);
    expect(await fields('"a""b""c"\n')).toEqual([['a"b"c']]);
  });

  it('keeps empty fields, including a trailing one', async () => {
    expect(await fields('a,,c\n,,\nx,y,\n')).toEqual([
      ['a', '', 'c'],
      ['', '', ''],
      ['x', 'y', ''],
    ]);
  });

  it('skips blank lines but counts them in line numbers', async () => {
    expect(await read('a,b\n\n1,2\r\n\r\n\n3,4\n\n')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 3, fields: ['1', '2'] },
      { line: 6, fields: ['3', '4'] },
    ]);
  });

  it('keeps line breaks in quoted fields; the next record starts on its physical line', async () => {
    expect(await read('h1,h2\n"multi\nline\nvalue",x\nnext,y\n')).toEqual([
      { line: 1, fields: ['h1', 'h2'] },
      { line: 2, fields: ['multi\nline\nvalue', 'x'], endLine: 4 },
      { line: 5, fields: ['next', 'y'] },
    ]);
  });

  it('throws on an unterminated quoted field, naming the file', async () => {
    const path = file('a,b\n1,"never closed\n2,3\n');
    const consume = async () => {
      for await (const _ of readCsv(path)) void _;
    };
    await expect(consume()).rejects.toThrow(/unterminated/);
    await expect(consume()).rejects.toThrow(path);
  });

  it('an empty file yields nothing', async () => {
    expect(await read('')).toEqual([]);
    expect(await read('\n\n')).toEqual([]);
  });

  it('reads records across stream chunk boundaries (multi-byte text, quotes, CRLF)', async () => {
    // Well over the 1 MiB read buffer, with multi-byte characters, quoted commas and doubled quotes everywhere.
    const rows: string[] = ['id,名稱,note'];
    for (let i = 0; i < 40_000; i++) rows.push(`${i},"臺灣測試公司 ${i}，有限","x,""${i}"" y"`);
    const records = await read(rows.join('\r\n') + '\r\n');
    expect(records.length).toBe(40_001);
    const bad = records
      .slice(1)
      .filter(
        (r, i) =>
          r.line !== i + 2 ||
          r.fields.length !== 3 ||
          r.fields[0] !== String(i) ||
          r.fields[1] !== `臺灣測試公司 ${i}，有限` ||
          r.fields[2] !== `x,"${i}" y`,
      );
    expect(bad).toEqual([]);
  });
});

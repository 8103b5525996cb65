import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JsonFormatError, readJsonRecords, type JsonItem } from '../../../build-scripts/adapters/json-records.js';

const root = mkdtempSync(join(tmpdir(), 'json-records-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
async function items(text: string | Buffer): Promise<JsonItem[]> {
  const path = join(root, `f${n++}.json`);
  writeFileSync(path, text);
  const out: JsonItem[] = [];
  for await (const x of readJsonRecords(path)) out.push(x);
  return out;
}
const values = async (text: string | Buffer) => (await items(text)).map((x) => ('value' in x ? x.value : x));

describe('readJsonRecords', () => {
  it('reads a top-level array and a {records} object, other members skipped, whitespace and a BOM allowed', async () => {
    expect(await values('[{"a":"1"},{"b":"x,]}\\"{"}]')).toEqual([{ a: '1' }, { b: 'x,]}"{' }]);
    expect(await values('\ufeff {"fields":[{"id":"a"}],"records" : [ {"a":"1"} , {"a":"2"} ],"total":"2","_links":{"next":[1]}}\n')).toEqual([
      { a: '1' },
      { a: '2' },
    ]);
    expect(await values('[]')).toEqual([]);
    expect(await values('{"records":[]}')).toEqual([]);
  });

  it('finds records and cuts elements wherever the read chunks split them', async () => {
    // Move the `records` key and an escaped quote across the 64 KiB boundary of the reader.
    for (let shift = 0; shift < 12; shift++) {
      const pad = 'p'.repeat((1 << 16) - 20 + shift);
      const text = `{"pad":"${pad}","records":[{"k":"a\\"b"},{"k":"${'é'.repeat(40_000)}"}]}`;
      const got = await values(text);
      expect(got.length, `shift ${shift}`).toBe(2);
      expect(got[0]).toEqual({ k: 'a"b' });
      expect((got[1] as { k: string }).k.length).toBe(40_000);
    }
  });

  it('numbers each element, and reports elements it cannot use', async () => {
    expect(await items('[{"a":1}, 7, "s", {"a":2}]')).toEqual([
      { index: 1, value: { a: 1 } },
      { index: 2, value: 7 },
      { index: 3, value: 's' },
      { index: 4, value: { a: 2 } },
    ]);
  });

  it.each([
    ['', /empty file/],
    ['[{"a":"1"},{"a"', /truncated JSON .* after 1 complete records/],
    ['{"records":[{"a":"1"}', /truncated JSON/],
    ['{"error":"invalid key"}', /without a "records" array/],
    ['<html></html>', /not a JSON array or object/],
    ['[{"a":1}] [', /text after the end/],
  ])('%j is a JsonFormatError', async (text, message) => {
    const err = await items(text).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JsonFormatError);
    expect((err as Error).message).toMatch(message);
  });
});

import { open, readFile, stat } from 'node:fs/promises';
import iconv from 'iconv-lite';
import { CsvFormatError, readCsv } from '../adapters/csv-reader.js';
import { sniffEncoding } from '../adapters/decode.js';
import { JsonFormatError, readJsonRecords } from '../adapters/json-records.js';
import { FetchFailure } from '../sources/kit/fetch-failure.js';

/**
 * Whether a downloaded answer is what it should be, before it may be kept: publishers answer some
 * failures with status 200 and an HTML page, an ASP.NET form may answer JSON, and a connection that
 * closes early can leave a body that parses up to the cut. With a `count` of its own (a source whose
 * answer has another shape, e.g. GenPlus's `{success, data}`), that counts the records and may
 * refuse; else a JSON answer is read as an array of records (or `{records}`), a CSV as rows. Returns
 * the number of records; throws FetchFailure.
 */

async function headBytes(path: string, n: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buf = Buffer.alloc(n);
    const { bytesRead } = await handle.read(buf, 0, n, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

const head = async (path: string, n = 512) => (await headBytes(path, n)).toString('latin1');

const looksHtml = (start: string, contentType: string) => /html/i.test(contentType) || /^<(!doctype|html|head|body|\?xml)/i.test(start);

/**
 * TWSE's security page (因為安全性考量，您所執行的頁面無法呈現, about 800 bytes, HTTP 200 text/html),
 * served to a client it blocks: recognised by its text, in UTF-8 or Big5, so a refresh can carry the
 * source's previous answers instead of failing on "an HTML page".
 */
const BLOCKED = ['因為安全性考量', '因为安全性考量'];
async function isBlockedPage(path: string): Promise<boolean> {
  const bytes = await headBytes(path, 8192);
  return [bytes.toString('utf8'), iconv.decode(bytes, 'cp950')].some((text) => BLOCKED.some((t) => text.includes(t)));
}

/**
 * A not-found page where data was expected (TWSE's `t187ap46_L_12` answers HTTP 200 text/html, a page
 * of 1,006 bytes whose only content is `<img src="404.png">`): a failed answer, like the security page,
 * not a changed form (contract section 9). Recognised narrowly, so that any other HTML still fails as
 * one: a small page whose title and visible text are empty or say only "404"/"not found", whose images
 * are all 404 images, and which shows at least one such marker.
 */
const NOT_FOUND_MAX_BYTES = 4096;
const NOT_FOUND_TEXT = /^(?:(?:http\s*|error\s*)?404)?\s*[-:]?\s*(?:(?:page|file)\s+)?(?:not\s+found)?\.?$|^找不到(?:網頁|頁面|該頁面|檔案)?$/i;
const NOT_FOUND_IMAGE = /(?:^|\/)404\.(?:png|gif|jpe?g|svg|webp)(?:\?.*)?$/i;
const visibleText = (html: string) =>
  html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/gi, ' ')
    .replace(/\s+/g, ' ')
    .trim();
async function isNotFoundPage(path: string): Promise<boolean> {
  if ((await stat(path)).size > NOT_FOUND_MAX_BYTES) return false;
  const html = (await readFile(path, 'utf8')).replace(/<!--[\s\S]*?-->/g, '');
  const title = visibleText(/<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1] ?? '');
  const body = html.replace(/<head\b[\s\S]*?<\/head>/i, '').replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, '');
  const images = [...body.matchAll(/<img\b[^>]*?\bsrc\s*=\s*["']?([^"'\s>]+)/gi)].map((m) => m[1]!);
  const text = visibleText(body);
  if (!NOT_FOUND_TEXT.test(title) || !NOT_FOUND_TEXT.test(text) || !images.every((src) => NOT_FOUND_IMAGE.test(src))) return false;
  return images.length > 0 || /404|not\s*found|找不到/i.test(`${title} ${text}`);
}

export async function checkBody(
  path: string,
  expect: 'json' | 'csv' | 'html',
  contentType: string,
  count?: (path: string) => Promise<number>,
): Promise<number> {
  const start = (await head(path)).replace(/^\xef\xbb\xbf/, '').trimStart();
  if (start === '') throw new FetchFailure('empty body', 200);
  if (expect === 'html') {
    if (!looksHtml(start, contentType))
      throw new FetchFailure(`expected an HTML page, got ${contentType || 'no content type'}: ${JSON.stringify(start.slice(0, 80))}`, 200);
  } else if (looksHtml(start, contentType)) {
    if (await isBlockedPage(path))
      throw new FetchFailure('blocked by the publisher: its security page (因為安全性考量…) with status 200, not data', 200, 'blocked');
    if (await isNotFoundPage(path))
      throw new FetchFailure('a not-found page with status 200 (its only content a 404 image or "not found"), not data', 200, 'not-found');
    throw new FetchFailure(`an HTML page with status 200, not data (an error or maintenance page?): ${JSON.stringify(start.slice(0, 80))}`, 200);
  }
  if (expect === 'json' && (await sniffEncoding(path)) !== 'utf8')
    throw new FetchFailure('JSON that is not UTF-8 (the bytes read as Big5/CP950)', 200);
  try {
    if (count) return await count(path);
    let records = 0;
    if (expect === 'json') {
      for await (const item of readJsonRecords(path)) {
        if ('skipped' in item) throw new FetchFailure(`record ${item.index}: ${item.skipped}`, 200);
        records++;
      }
    } else if (expect === 'csv') {
      let header = true;
      for await (const item of readCsv(path)) {
        if (header) header = false;
        else records++;
        void item;
      }
    }
    return records;
  } catch (e) {
    if (e instanceof FetchFailure) throw e;
    if (e instanceof JsonFormatError || e instanceof CsvFormatError) throw new FetchFailure(e.message.replace(path, 'the body'), 200);
    throw new FetchFailure((e as Error).message.replace(path, 'the body'), 200);
  }
}

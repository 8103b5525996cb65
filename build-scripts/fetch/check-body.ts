import { open } from 'node:fs/promises';
import { CsvFormatError, readCsv } from '../adapters/csv-reader.js';
import { JsonFormatError, readJsonRecords } from '../adapters/json-records.js';
import { FetchFailure } from './http.js';

/**
 * Whether a downloaded body is the data it should be, before it may replace anything: publishers
 * answer some failures with status 200 and an HTML page, and a connection that closes early can
 * leave a body that parses up to the cut. Returns the number of records; throws FetchFailure.
 */

async function head(path: string, n = 512): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const buf = Buffer.alloc(n);
    const { bytesRead } = await handle.read(buf, 0, n, 0);
    return buf.subarray(0, bytesRead).toString('latin1');
  } finally {
    await handle.close();
  }
}

export async function checkBody(path: string, form: 'json' | 'csv', contentType: string, onRecord?: (value: unknown) => Promise<void> | void): Promise<number> {
  const start = (await head(path)).replace(/^\xef\xbb\xbf/, '').trimStart();
  if (start === '') throw new FetchFailure('empty body', 200);
  if (/html/i.test(contentType) || /^<(!doctype|html|head|body|\?xml)/i.test(start)) {
    throw new FetchFailure(`an HTML page with status 200, not data (an error or maintenance page?): ${JSON.stringify(start.slice(0, 80))}`, 200);
  }
  let records = 0;
  try {
    if (form === 'json') {
      for await (const item of readJsonRecords(path)) {
        if ('skipped' in item) throw new FetchFailure(`record ${item.index}: ${item.skipped}`, 200);
        records++;
        if (onRecord) await onRecord(item.value);
      }
    } else {
      let header = true;
      for await (const item of readCsv(path)) {
        if (header) header = false;
        else records++;
        void item;
      }
    }
  } catch (e) {
    if (e instanceof JsonFormatError || e instanceof CsvFormatError) throw new FetchFailure(e.message.replace(path, 'the body'), 200);
    throw e;
  }
  return records;
}

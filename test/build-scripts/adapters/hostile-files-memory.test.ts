import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { corpusRoot, HEADER, outcome, rec, row } from './hostile-corpus.js';

/**
 * The hostile corpus's large files (hostile-files.test.ts has the rest): a 50 MB line, a 50 MB
 * string in a JSON record and a 100 MB file, each read with memory bounded. They take seconds to
 * write and read, so they run in the slow lane (`npm test`), not in `npm run test:unit`.
 */

const { newDir, remove } = corpusRoot('hostile-memory-');
afterAll(remove);

/** Peak resident memory above the start while `f` runs (sampled every few milliseconds). */
async function peakRssGrowth<T>(f: () => Promise<T>): Promise<{ result: T; growthMb: number }> {
  const start = process.memoryUsage().rss;
  let peak = start;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 2);
  try {
    const result = await f();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, growthMb: (peak - start) / 1e6 };
  } finally {
    clearInterval(timer);
  }
}

describe('hostile CSV files', () => {
  it('a single 50 MB line is skipped and reported; later rows are read; memory stays bounded', async () => {
    const dir = newDir();
    const fd = openSync(join(dir, 'EMS_P_46.csv'), 'w');
    writeSync(fd, `${HEADER}\n${row(1)}\n${row(2, { facts: '' }).slice(0, -1)}`);
    const mb = Buffer.alloc(1 << 20, 'x');
    for (let i = 0; i < 50; i++) writeSync(fd, mb);
    writeSync(fd, `\n${row(3)}\n`);
    closeSync(fd);
    const { result, growthMb } = await peakRssGrowth(() => outcome(dir));
    expect(result).toEqual({ rows: 2, rejects: ['EMS_P_46.csv:3: line longer than 1048576 characters: skipped'], error: null });
    expect(growthMb).toBeLessThan(120);
  }, 60_000);

  it('a 100 MB file streams: memory grows by under half the file (neither the file nor its rows are held)', async () => {
    // Wide rows make the file large for few rows (a row costs the reader more than its bytes): a reader
    // that held the file, or every row it read, would grow by more than the file's 100 MB; one that
    // streams grows by a few MB, and up to some 30 MB where earlier tests left the heap to settle.
    const rows = 10_000;
    const facts = 'x'.repeat(10_000);
    const dir = newDir();
    const fd = openSync(join(dir, 'EMS_P_46.csv'), 'w');
    writeSync(fd, `${HEADER}\n`);
    for (let i = 0; i < rows; i++) writeSync(fd, `${row(i, { facts: `${facts}${i}` })}\n`);
    closeSync(fd);
    const { result, growthMb } = await peakRssGrowth(() => outcome(dir));
    expect(result).toEqual({ rows, rejects: [], error: null });
    expect(growthMb).toBeLessThan(50);
  }, 60_000);
});

describe('hostile JSON files', () => {
  it('a record holding a 50 MB string is skipped and reported, with memory bounded', async () => {
    const dir = newDir();
    const fd = openSync(join(dir, 'EMS_P_46.json'), 'w');
    writeSync(fd, `{"records":[${JSON.stringify(rec(1))},{"ban":"12345678","openinfor":"`);
    const mb = Buffer.alloc(1 << 20, 'y');
    for (let i = 0; i < 50; i++) writeSync(fd, mb);
    writeSync(fd, `"},${JSON.stringify(rec(3))}]}`);
    closeSync(fd);
    const { result, growthMb } = await peakRssGrowth(() => outcome(dir));
    expect(result).toEqual({ rows: 2, rejects: ['EMS_P_46.json:record 2: record longer than 1048576 characters: skipped'], error: null });
    expect(growthMb).toBeLessThan(120);
  }, 60_000);
});

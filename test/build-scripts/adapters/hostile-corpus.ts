import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RejectLog } from '../../../build-scripts/adapters/read-layout.js';
import { readPenalties } from '../../../build-scripts/sources/moenv/moenv-penalties.js';
import { SourceTally } from '../../../build-scripts/sources/kit/tally.js';

/**
 * The parts of the hostile-files corpus shared by its two test files: the quick cases
 * (hostile-files.test.ts, the unit lane) and the memory bounds over 50–100 MB files
 * (hostile-files-memory.test.ts, the slow lane). Every file is generated in a temporary folder.
 */

/** A temporary folder for one test file's corpus, and a fresh sub-folder per case. */
export function corpusRoot(prefix: string) {
  const root = mkdtempSync(join(tmpdir(), prefix));
  let n = 0;
  const newDir = () => {
    const dir = join(root, `d${n++}`);
    mkdirSync(dir);
    return dir;
  };
  const folder = (name: string, content: string | Buffer) => {
    const dir = newDir();
    writeFileSync(join(dir, name), content);
    return dir;
  };
  return { newDir, folder, remove: () => rmSync(root, { recursive: true, force: true }) };
}

export const HEADER = 'fac_uniformno,county_name,document_no,penalty_date,penalty_money,isimportant,openinfor';
export const row = (i: number, over: Partial<Record<'no' | 'money' | 'facts', string>> = {}) =>
  `${over.no ?? String(10_000_000 + i)},臺南市政府環境保護局,南市環字第${i}號,113/05/21,${over.money ?? '"1,000"'},否,${over.facts ?? `事實${i}`}`;

/** A penalty record of the JSON form. */
export const rec = (i: number, over: Record<string, unknown> = {}) => ({
  ban: String(10_000_000 + i),
  county_name: '環境部',
  document_no: `環部字第${i}號`,
  penalty_date: '1130521',
  penalty_money: 'NT$100,000',
  isimportant: '否',
  ...over,
});

export interface Outcome {
  rows: number;
  rejects: string[];
  error: Error | null;
}
const penalties = (dir: string, rejects: RejectLog) => readPenalties(dir, rejects, new SourceTally());

/** What reading a folder gives: the rows read, the rejects as written, or the error it ended in. */
export async function outcome(dir: string, read: (dir: string, rejects: RejectLog) => AsyncIterable<unknown> = penalties): Promise<Outcome> {
  const rejects = new RejectLog();
  let rows = 0;
  let error: Error | null = null;
  try {
    for await (const _ of read(dir, rejects)) rows++;
  } catch (e) {
    error = e as Error;
  }
  return { rows, rejects: rejects.format(1000).split('\n').filter(Boolean), error };
}

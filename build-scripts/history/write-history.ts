import { closeSync, createReadStream, existsSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { historyEntrySchema, historyResponseSchema } from '../../src/contract/history.js';
import { validatorFor } from '../../src/contract/validate.js';
import { fileForUrlPath, urls } from '../../src/site/static-paths.js';
import type { SnapshotStore } from '../../src/snapshot/store.js';
import { historyEntry, historyView } from '../../src/views/history.js';
import { TreeValidationError, type TreeStats } from '../tree/tree-files.js';
import { factsInOrder } from './company-pass.js';

/**
 * Every company's history so far, one JSON line per ticker in ticker order (`{"ticker", "data"}`,
 * newest entry first), beside the snapshot's database. The next build reads it to carry history
 * forward: one older snapshot read per build, never all of them, and pruned snapshots' entries stay.
 */
export const HISTORY_FILE = 'history.jsonl';

/** Buffered appends to one file (a few hundred thousand short lines). */
class LineWriter {
  private buffer = '';
  private readonly fd: number;
  constructor(path: string) {
    this.fd = openSync(path, 'w');
  }
  write(line: string): void {
    this.buffer += `${line}\n`;
    if (this.buffer.length > 1 << 20) this.flush();
  }
  flush(): void {
    if (this.buffer) writeSync(this.fd, this.buffer);
    this.buffer = '';
  }
  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}

/** The previous snapshot's history lines in ticker order, streamed, kept as text: carried entries are copied, never re-parsed. */
async function* previousLines(previousDir: string | null): AsyncGenerator<{ ticker: string; data: string }> {
  if (previousDir === null || !existsSync(join(previousDir, HISTORY_FILE))) return;
  const lines = createInterface({ input: createReadStream(join(previousDir, HISTORY_FILE), 'utf8'), crlfDelay: Infinity });
  for await (const line of lines) if (line) yield splitLine(line);
}

const LINE_HEAD = '{"ticker":"';
/** `{"ticker":"T","data":[…]}` → T and the data array's JSON (tickers are [0-9A-Z], so no escapes). */
function splitLine(line: string): { ticker: string; data: string } {
  const end = line.indexOf('"', LINE_HEAD.length);
  if (!line.startsWith(LINE_HEAD) || !line.startsWith('","data":', end) || !line.endsWith(']}')) throw new Error(`${HISTORY_FILE}: malformed line ${line.slice(0, 60)}`);
  return { ticker: line.slice(LINE_HEAD.length, end), data: line.slice(end + 9, -1) };
}

/**
 * Writes `/company/{t}/history` for every company of `store` and this snapshot's history file into
 * `snapshotDir`: the previous snapshot's lines merged, ticker by ticker, with this snapshot's own
 * entries. Companies no longer listed keep their line (a relisted company keeps its past).
 *
 * At a hundred thousand companies and 24 snapshots this is most of the history's cost, so it works
 * on text: each new entry is validated against its schema and serialised once, then put in front of
 * the carried entries' bytes (validated by the build that first wrote them). The body around them
 * is historyView's with the same key order; the first company's whole body is validated as a check.
 */
export async function writeHistory(o: { store: SnapshotStore; snapshotDir: string; treeDir: string; previousDir: string | null }): Promise<TreeStats> {
  const meta = o.store.meta;
  const checkEntry = validatorFor(historyEntrySchema);
  const checkBody = validatorFor(historyResponseSchema);
  const template = JSON.stringify(historyView(meta, 'T', []));
  const prefix = template.slice(0, template.indexOf('"ticker":"T"'));
  const stats: TreeStats = { files: 0, bytes: 0 };
  const madeDirs = new Set<string>();
  const out = new LineWriter(join(o.snapshotDir, HISTORY_FILE));
  const past = previousLines(o.previousDir);
  let old = await past.next();
  const carry = async (until: string | null) => {
    while (!old.done && (until === null || old.value.ticker < until)) {
      out.write(`${LINE_HEAD}${old.value.ticker}","data":${old.value.data}}`);
      old = await past.next();
    }
  };
  try {
    for (const facts of factsInOrder(o.store)) {
      const ticker = facts.company.ticker;
      await carry(ticker);
      const entry = historyEntry(meta, facts.company, facts.flags);
      const problem = checkEntry(entry);
      if (problem !== null) throw new TreeValidationError(`${urls.history(ticker)}: entry does not match its schema: ${problem}`);
      let data = `[${JSON.stringify(entry)}]`;
      if (!old.done && old.value.ticker === ticker) {
        if (old.value.data !== '[]') data = `${data.slice(0, -1)},${old.value.data.slice(1)}`;
        old = await past.next();
      }
      out.write(`${LINE_HEAD}${ticker}","data":${data}}`);
      const body = `${prefix}"ticker":"${ticker}","data":${data}}`;
      if (stats.files === 0) {
        const first = checkBody(JSON.parse(body));
        if (first !== null) throw new TreeValidationError(`${urls.history(ticker)}: body does not match its schema: ${first}`);
      }
      const file = `${o.treeDir}/${fileForUrlPath(urls.history(ticker))}`;
      const dir = file.slice(0, file.lastIndexOf('/'));
      if (!madeDirs.has(dir)) {
        mkdirSync(dir, { recursive: true });
        madeDirs.add(dir);
      }
      writeFileSync(file, body);
      stats.files++;
      stats.bytes += Buffer.byteLength(body);
    }
    await carry(null);
  } finally {
    out.close();
  }
  return stats;
}

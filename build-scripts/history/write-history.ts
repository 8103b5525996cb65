import { closeSync, createReadStream, existsSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { HistoryEntry } from '../../src/contract/history.js';
import { historyResponseSchema } from '../../src/contract/history.js';
import { urls } from '../../src/site/static-paths.js';
import type { SnapshotStore } from '../../src/snapshot/store.js';
import { historyEntry, historyView } from '../../src/views/history.js';
import { TreeFiles, type TreeStats } from '../tree/tree-files.js';
import { factsInOrder } from './company-pass.js';

/**
 * Every company's history so far, one JSON line per ticker in ticker order (`{"ticker", "data"}`,
 * newest entry first), beside the snapshot's database. The next build reads it to carry history
 * forward: one older snapshot read per build, never all of them, and pruned snapshots' entries stay.
 */
export const HISTORY_FILE = 'history.jsonl';

interface HistoryLine {
  ticker: string;
  data: HistoryEntry[];
}

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

/** The previous snapshot's history lines in ticker order, streamed. */
async function* previousLines(previousDir: string | null): AsyncGenerator<HistoryLine> {
  if (previousDir === null || !existsSync(join(previousDir, HISTORY_FILE))) return;
  const lines = createInterface({ input: createReadStream(join(previousDir, HISTORY_FILE), 'utf8'), crlfDelay: Infinity });
  for await (const line of lines) if (line) yield JSON.parse(line) as HistoryLine;
}

/**
 * Writes `/company/{t}/history` for every company of `store` and this snapshot's history file into
 * `snapshotDir`: the previous snapshot's lines merged, ticker by ticker, with this snapshot's own
 * entries. Companies no longer listed keep their line (a relisted company keeps its past).
 */
export async function writeHistory(o: { store: SnapshotStore; snapshotDir: string; treeDir: string; previousDir: string | null }): Promise<TreeStats> {
  const meta = o.store.meta;
  const tree = new TreeFiles(o.treeDir);
  const out = new LineWriter(join(o.snapshotDir, HISTORY_FILE));
  const past = previousLines(o.previousDir);
  let old = await past.next();
  const carry = async (until: string | null) => {
    while (!old.done && (until === null || old.value.ticker < until)) {
      out.write(JSON.stringify(old.value));
      old = await past.next();
    }
  };
  try {
    for (const facts of factsInOrder(o.store)) {
      const ticker = facts.company.ticker;
      await carry(ticker);
      const earlier = !old.done && old.value.ticker === ticker ? old.value.data.filter((e) => e.dataset_snapshot_id !== meta.dataset_snapshot_id) : [];
      if (!old.done && old.value.ticker === ticker) old = await past.next();
      const data = [historyEntry(meta, facts.company, facts.flags), ...earlier];
      out.write(JSON.stringify({ ticker, data }));
      tree.write({ url: urls.history(ticker), schema: historyResponseSchema, body: historyView(meta, ticker, data) });
    }
    await carry(null);
  } finally {
    out.close();
  }
  return tree.stats;
}

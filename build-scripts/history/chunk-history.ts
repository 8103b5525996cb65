import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { historyEntrySchema, historyResponseSchema } from '../../src/contract/history.js';
import { validatorFor } from '../../src/contract/validate.js';
import { urls } from '../../src/site/static-paths.js';
import type { IndexedChange } from '../../src/snapshot/changes-file.js';
import type { SnapshotMeta } from '../../src/snapshot/schema.js';
import { SnapshotStore, type CompanyFacts } from '../../src/snapshot/store.js';
import { historyEntry, historyView } from '../../src/views/history.js';
import { TreeValidationError, type TreeFiles } from '../tree/tree-files.js';
import { pairsInOrder } from './company-pass.js';
import { explainChange, type Side } from './explain.js';
import { HistoryWriter, PreviousHistory, type HistoryRow } from './history-db.js';

/** Where a build's history pass reads and writes (contract section 10). */
export interface HistoryOptions {
  /** This snapshot's folder: its history database is written there (made by createHistoryDb first). */
  snapshotDir: string;
  /** The previous snapshot's folder (its database, for changes), or null for the first build. */
  previousDir: string | null;
  /** Where the previous snapshot's history database is: previousDir, or a conversion of its older text form. */
  previousHistoryDir: string | null;
}

/**
 * Company histories and changes, a ticker range at a time, inside the tree writer's pass over the
 * companies: each tree thread already holds a chunk's facts, so it reads only the previous
 * snapshot's facts and history rows for the same range (range reads, no per-company query) and
 * writes `/company/{t}/history`, the chunk's history rows and the chunk's explained changes. The
 * threads split this work as they split the company files.
 *
 * History bodies are built as text: each new entry is validated against its schema and serialised
 * once, then put in front of the carried entries' bytes (validated by the build that first wrote
 * them); the body around them is historyView's with the same key order, and each chunk's first body
 * is validated whole as a check.
 */
export class HistoryPass {
  /** This thread's changes, in ticker order within each chunk; the tree writer sorts them all. */
  readonly changes: IndexedChange[] = [];
  private readonly previous: SnapshotStore | null;
  private readonly previousHistory: PreviousHistory | null;
  private readonly writer: HistoryWriter;
  private readonly from: Side | null;
  private readonly to: Side;
  private readonly prefix: string;
  private readonly checkEntry = validatorFor(historyEntrySchema);
  private readonly checkBody = validatorFor(historyResponseSchema);

  constructor(
    private readonly meta: SnapshotMeta,
    o: HistoryOptions,
  ) {
    this.previous = o.previousDir !== null && existsSync(join(o.previousDir, 'snapshot.sqlite')) ? SnapshotStore.open(o.previousDir) : null;
    this.previousHistory = PreviousHistory.open(o.previousHistoryDir);
    this.writer = new HistoryWriter(o.snapshotDir);
    this.from = this.previous ? { asof: this.previous.meta.data_asof, methodologyVersion: this.previous.meta.methodology_version } : null;
    this.to = { asof: meta.data_asof, methodologyVersion: meta.methodology_version };
    const template = JSON.stringify(historyView(meta, 'T', []));
    this.prefix = template.slice(0, template.indexOf('"ticker":"T"'));
  }

  /** The companies with from ≤ ticker < to (`facts`, in ticker order) and whatever the previous snapshot had in that range. */
  chunk(from: string, to: string, facts: readonly CompanyFacts[], files: TreeFiles): void {
    if (this.previous && this.from) {
      for (const { ticker, before, after } of pairsInOrder(this.previous.factsBetween(from, to), facts)) {
        const item = explainChange(ticker, before, after, this.from, this.to);
        if (item) this.changes.push({ industry: (after ?? before)!.company.industry, item });
      }
    }
    const past = this.previousHistory?.between(from, to) ?? [];
    const rows: HistoryRow[] = [];
    let k = 0;
    for (const f of facts) {
      const ticker = f.company.ticker;
      // Companies no longer listed keep their row.
      while (k < past.length && past[k]![0] < ticker) rows.push(past[k++]!);
      const entry = historyEntry(this.meta, f.company, f.flags);
      const problem = this.checkEntry(entry);
      if (problem !== null) throw new TreeValidationError(`${urls.history(ticker)}: entry does not match its schema: ${problem}`);
      let data = `[${JSON.stringify(entry)}]`;
      if (k < past.length && past[k]![0] === ticker) {
        const carried = past[k++]![1];
        if (carried !== '[]') data = `${data.slice(0, -1)},${carried.slice(1)}`;
      }
      rows.push([ticker, data]);
      const body = `${this.prefix}"ticker":"${ticker}","data":${data}}`;
      if (f === facts[0]) {
        const whole = this.checkBody(JSON.parse(body));
        if (whole !== null) throw new TreeValidationError(`${urls.history(ticker)}: body does not match its schema: ${whole}`);
      }
      files.writeText(urls.history(ticker), body);
    }
    while (k < past.length) rows.push(past[k++]!);
    this.writer.write(rows);
  }

  close(): void {
    this.writer.close();
    this.previousHistory?.close();
    this.previous?.close();
  }
}

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { historyEntrySchema, historyResponseSchema } from '../../src/contract/history.js';
import { validatorFor } from '../../src/contract/validate.js';
import { urls } from '../../src/contract/urls.js';
import type { IndexedChange } from '../../src/snapshot/changes-store.js';
import { HISTORY_DB, HistoryChunks, type HistoryRow, type StoreMember } from '../../src/snapshot/history-store.js';
import { newestFirst, type DatedSnapshot } from '../../src/snapshot/newest-first.js';
import type { SnapshotMeta } from '../../src/snapshot/schema.js';
import { SnapshotStore, type CompanyFacts } from '../../src/snapshot/store.js';
import { historyBody, historyEntry, historyHead } from '../../src/views/history.js';
import { TreeValidationError, type TreeFiles } from '../output/tree-files.js';
import { pairsInOrder } from './company-pass.js';
import { explainChange, factsKey, unmovedSince, type Side } from './explain.js';
import { HistoryWriter, type HistoryRecord } from './history-db.js';

/** Where a build's history pass reads and writes (contract section 10). */
export interface HistoryOptions {
  /** This snapshot's folder: its own entries go to HISTORY_DB there (made by createHistoryDb first). */
  snapshotDir: string;
  /** The previous snapshot's folder (its database, for changes), or null for the first build. */
  previousDir: string | null;
  /** The history store's snapshots, every one published before this one: their entries make up the histories. */
  earlier: StoreMember[];
  /** Which of `earlier` is the previous snapshot, whose facts keys settle the companies that did not move; null when none is. */
  previousId: string | null;
}

/** This snapshot's record in the store: one past every earlier snapshot in publish order. */
export function ownRecord(meta: SnapshotMeta, o: HistoryOptions): HistoryRecord {
  const seq = 1 + o.earlier.reduce((max, m) => Math.max(max, m.seq), 0);
  return { dataset_snapshot_id: meta.dataset_snapshot_id, data_asof: meta.data_asof, published_at: meta.published_at, seq, head: historyHead(meta) };
}

/**
 * Company histories and changes, a ticker range at a time, inside the tree writer's pass over the
 * companies: each tree thread already holds a chunk's facts, so it reads only the store's rows and
 * the previous snapshot's facts for the same range (range reads, no per-company query) and writes
 * `/company/{t}/history`, the chunk's own entries and the chunk's explained changes. The threads
 * split this work as they split the company files.
 *
 * A history body is its head, then the company's entries in every snapshot published so far, this
 * one's included, newest first (src/snapshot/newest-first.ts): this one's is not always first, as a
 * corrected older month sorts below the later ones. Bodies are built as bytes (historyBody, which
 * the shim's pinned reads use too): each new entry is validated against its schema and serialised
 * once; earlier entries are the bytes their builds wrote (and validated). Each chunk's first body is
 * validated whole as a check.
 */
export class HistoryPass {
  /** This thread's changes, in ticker order within each chunk; the tree writer sorts them all. */
  readonly changes: IndexedChange[] = [];
  private readonly previous: SnapshotStore | null;
  /** The store files in history order, newest first; null marks where this snapshot's own entry goes. */
  private readonly columns: (HistoryChunks | null)[];
  /** The previous snapshot's store file (its rows carry its facts keys), or null. */
  private readonly previousEntries: HistoryChunks | null;
  private readonly writer: HistoryWriter;
  private readonly from: Side | null;
  private readonly to: Side;
  private readonly head: Buffer;
  private readonly checkEntry = validatorFor(historyEntrySchema);
  private readonly checkBody = validatorFor(historyResponseSchema);

  constructor(
    private readonly meta: SnapshotMeta,
    o: HistoryOptions,
  ) {
    this.previous = o.previousDir !== null && existsSync(join(o.previousDir, 'snapshot.sqlite')) ? SnapshotStore.open(o.previousDir) : null;
    const own: DatedSnapshot = meta;
    const ordered: (StoreMember | DatedSnapshot)[] = [...o.earlier, own].sort(newestFirst);
    this.columns = ordered.map((m) => (m === own ? null : new HistoryChunks((m as StoreMember).path)));
    this.previousEntries = this.columns.find((c, i) => c !== null && ordered[i]!.dataset_snapshot_id === o.previousId) ?? null;
    this.writer = new HistoryWriter(join(o.snapshotDir, HISTORY_DB));
    this.from = this.previous ? { asof: this.previous.meta.data_asof, methodologyVersion: this.previous.meta.methodology_version } : null;
    this.to = { asof: meta.data_asof, methodologyVersion: meta.methodology_version };
    this.head = historyHead(meta);
  }

  /** The companies with from ≤ ticker < to (`facts`, in ticker order) and whatever the store holds for that range. */
  chunk(from: string, to: string, facts: readonly CompanyFacts[], files: TreeFiles): void {
    const stored = this.columns.map((c) => c?.between(from, to) ?? []);
    const keys = facts.map(factsKey);
    this.explainChanges(from, to, facts, keys, this.previousEntries ? stored[this.columns.indexOf(this.previousEntries)]! : null);
    const cursors = new Array<number>(stored.length).fill(0);
    const rows: HistoryRow[] = [];
    facts.forEach((f, i) => {
      const ticker = f.company.ticker;
      const entry = historyEntry(this.meta, f.company, f.flags);
      const problem = this.checkEntry(entry);
      if (problem !== null) throw new TreeValidationError(`${urls.history(ticker)}: entry does not match its schema: ${problem}`);
      const ownEntry = Buffer.from(JSON.stringify(entry));
      // Each column is in ticker order: its cursor only moves forward, past companies not listed now.
      const entries: Buffer[] = [];
      stored.forEach((column, c) => {
        if (this.columns[c] === null) return void entries.push(ownEntry);
        let k = cursors[c]!;
        while (k < column.length && column[k]![0] < ticker) k++;
        if (k < column.length && column[k]![0] === ticker) entries.push(column[k++]![1]);
        cursors[c] = k;
      });
      const body = historyBody(this.head, ticker, entries);
      rows.push([ticker, ownEntry, keys[i]!]);
      if (i === 0) {
        const whole = this.checkBody(JSON.parse(body.toString('utf8')));
        if (whole !== null) throw new TreeValidationError(`${urls.history(ticker)}: body does not match its schema: ${whole}`);
      }
      files.writeText(urls.history(ticker), body);
    });
    this.writer.write(rows);
  }

  /**
   * The chunk's changes since the previous snapshot. Its rows in the store carry the key of the
   * facts each company was scored on there, so a company whose key is unchanged (and none of whose
   * penalties leaves a window) is settled from its key alone, and the previous snapshot's facts are
   * read, in one go, only for the rest: at 100k, hundreds of companies a month rather than all.
   * Rows without keys (carried from before the store, legacy-history.ts) or none at all: every
   * company's facts are read.
   */
  private explainChanges(
    from: string,
    to: string,
    facts: readonly CompanyFacts[],
    keys: readonly string[],
    past: readonly HistoryRow[] | null,
  ): void {
    if (!this.previous || !this.from) return;
    const keyed = past !== null && past.every((r) => r[2] !== null);
    if (!keyed) {
      for (const { ticker, before, after } of pairsInOrder(this.previous.factsBetween(from, to), facts)) this.explain(ticker, before, after);
      return;
    }
    const pastKey = new Map(past!.map((r) => [r[0], r[2]!]));
    const movers: string[] = [];
    facts.forEach((f, i) => {
      const beforeKey = pastKey.get(f.company.ticker) ?? '';
      if (beforeKey !== '' && !unmovedSince(beforeKey, f, keys[i]!, this.from!, this.to)) movers.push(f.company.ticker);
    });
    const now = new Set(facts.map((f) => f.company.ticker));
    for (const [ticker, key] of pastKey) if (key !== '' && !now.has(ticker)) movers.push(ticker);
    movers.sort();
    const before = new Map(this.previous.factsAmong(movers).map((f) => [f.company.ticker, f]));
    const missing = movers.find((t) => !before.has(t));
    if (missing !== undefined) throw new Error(`the previous snapshot's history lists ${missing} as listed, but its database has no such company`);
    // Every company of either side, in ticker order: new listings need no earlier facts.
    const afterFacts = facts.filter((f) => (pastKey.get(f.company.ticker) ?? '') === '' || before.has(f.company.ticker));
    for (const { ticker, before: b, after } of pairsInOrder([...before.values()], afterFacts)) this.explain(ticker, b, after);
  }

  private explain(ticker: string, before: CompanyFacts | null, after: CompanyFacts | null): void {
    const item = explainChange(ticker, before, after, this.from!, this.to);
    if (item) this.changes.push({ industry: (after ?? before)!.company.industry, item });
  }

  close(): void {
    this.writer.close();
    for (const c of this.columns) c?.close();
    this.previous?.close();
  }
}

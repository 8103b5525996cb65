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
import { explainChange, factsKey, unmovedSince, type Side } from './explain.js';
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
 * History bodies are built as bytes: each new entry is validated against its schema and serialised
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
  private readonly prefix: Buffer;
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
    this.prefix = Buffer.from(template.slice(0, template.indexOf('"ticker":"T"')));
  }

  /** The companies with from ≤ ticker < to (`facts`, in ticker order) and whatever the previous snapshot had in that range. */
  chunk(from: string, to: string, facts: readonly CompanyFacts[], files: TreeFiles): void {
    const past = this.previousHistory?.between(from, to) ?? [];
    const keys = facts.map(factsKey);
    this.explainChanges(from, to, facts, keys, past);
    const rows: HistoryRow[] = [];
    let k = 0;
    facts.forEach((f, i) => {
      const ticker = f.company.ticker;
      // Companies no longer listed keep their row, marked as not listed here.
      while (k < past.length && past[k]![0] < ticker) rows.push(notListed(past[k++]!));
      const entry = historyEntry(this.meta, f.company, f.flags);
      const problem = this.checkEntry(entry);
      if (problem !== null) throw new TreeValidationError(`${urls.history(ticker)}: entry does not match its schema: ${problem}`);
      const carried = k < past.length && past[k]![0] === ticker ? past[k++]![1] : null;
      const { body, data } = this.body(ticker, JSON.stringify(entry), carried);
      rows.push([ticker, data, keys[i]!]);
      if (i === 0) {
        const whole = this.checkBody(JSON.parse(body.toString('utf8')));
        if (whole !== null) throw new TreeValidationError(`${urls.history(ticker)}: body does not match its schema: ${whole}`);
      }
      files.writeText(urls.history(ticker), body);
    });
    while (k < past.length) rows.push(notListed(past[k++]!));
    this.writer.write(rows);
  }

  /**
   * The chunk's changes since the previous snapshot. Its history rows carry the key of the facts
   * each company was scored on there, so a company whose key is unchanged (and none of whose
   * penalties leaves a window) is settled from its key alone, and the previous snapshot's facts are
   * read, in one go, only for the rest: at 100k, hundreds of companies a month rather than all.
   * Rows without keys (written by older builds) or no history at all: every company's facts are read.
   */
  private explainChanges(from: string, to: string, facts: readonly CompanyFacts[], keys: readonly string[], past: readonly HistoryRow[]): void {
    if (!this.previous || !this.from) return;
    const keyed = this.previousHistory !== null && past.every((r) => r[2] !== null);
    if (!keyed) {
      for (const { ticker, before, after } of pairsInOrder(this.previous.factsBetween(from, to), facts)) this.explain(ticker, before, after);
      return;
    }
    const pastKey = new Map(past.map((r) => [r[0], r[2]!]));
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

  /**
   * The history file's bytes in one allocation: the envelope, then `[` the new entry, `,` and the
   * carried entries (their array without its `[`), or `]` when there are none. Strings and Buffer
   * concatenation per company cost the pass about as much as writing the files (measured at 100k).
   * `data`, the row the database keeps, is a view of the body's `data` array, not a copy.
   */
  private body(ticker: string, entryJson: string, carried: Buffer | null): { body: Buffer; data: Buffer } {
    const head = `"ticker":"${ticker}","data":[`;
    const more = carried !== null && carried.length > 2;
    const body = Buffer.allocUnsafe(this.prefix.length + head.length + Buffer.byteLength(entryJson) + (more ? carried.length : 1) + 1);
    let at = this.prefix.copy(body, 0);
    at += body.write(head, at, 'latin1');
    const dataStart = at - 1;
    at += body.write(entryJson, at, 'utf8');
    if (more) {
      body[at++] = COMMA;
      at += carried.copy(body, at, 1);
    } else {
      body[at++] = CLOSE_ARRAY;
    }
    body[at++] = CLOSE_OBJECT;
    if (at !== body.length) throw new Error(`${urls.history(ticker)}: body size miscounted`);
    return { body, data: body.subarray(dataStart, at - 1) };
  }

  private explain(ticker: string, before: CompanyFacts | null, after: CompanyFacts | null): void {
    const item = explainChange(ticker, before, after, this.from!, this.to);
    if (item) this.changes.push({ industry: (after ?? before)!.company.industry, item });
  }

  close(): void {
    this.writer.close();
    this.previousHistory?.close();
    this.previous?.close();
  }
}

const COMMA = 0x2c;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/** A carried row of a company not listed in this snapshot: its entries as they were, its key ''. */
const notListed = (row: HistoryRow): HistoryRow => [row[0], row[1], ''];

import type { CompanyFacts, SnapshotStore } from '../../src/snapshot/store.js';

/** Companies read per range: the tree writer's chunk size (six range reads per chunk, no per-company query). */
const CHUNK = 1000;
/** Above every ticker ([0-9A-Z]) in SQLite's byte order: the last chunk's open end. */
const AFTER_LAST = '\uffff';

/** Every company's facts in ticker order, read a thousand companies at a time. */
export function* factsInOrder(store: SnapshotStore): Generator<CompanyFacts> {
  const tickers = store.tickers();
  for (let i = 0; i < tickers.length; i += CHUNK) {
    yield* store.factsBetween(tickers[i]!, tickers[i + CHUNK] ?? AFTER_LAST);
  }
}

export interface FactsPair {
  ticker: string;
  before: CompanyFacts | null;
  after: CompanyFacts | null;
}

/** Two snapshots' companies merged by ticker in one ordered pass over each: what changed is read side by side. */
export function* pairsInOrder(before: SnapshotStore | null, after: SnapshotStore): Generator<FactsPair> {
  const a = before ? factsInOrder(before) : null;
  const b = factsInOrder(after);
  let x = a?.next();
  let y = b.next();
  while ((x && !x.done) || !y.done) {
    const bt = x && !x.done ? x.value.company.ticker : null;
    const at = !y.done ? y.value.company.ticker : null;
    if (at === null || (bt !== null && bt < at)) {
      yield { ticker: bt!, before: x!.value as CompanyFacts, after: null };
      x = a!.next();
    } else if (bt === null || at < bt) {
      yield { ticker: at, before: null, after: y.value as CompanyFacts };
      y = b.next();
    } else {
      yield { ticker: at, before: x!.value as CompanyFacts, after: y.value as CompanyFacts };
      x = a!.next();
      y = b.next();
    }
  }
}

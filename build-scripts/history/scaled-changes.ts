import type { IndexedChange } from '../../src/snapshot/changes-store.js';

/**
 * A month in which `count` companies moved, made from a real month's changes, for load and memory
 * checks at a scale the demo's own months do not reach (the bench's year-boundary month, the shim's
 * memory test): the items of each |score_delta| (largest first, as the contract orders them) copied
 * in turn under the tickers S000000, S000001, …, so ties stay in ticker order and the result is in
 * the contract's order, as writeChangesStore requires.
 */
export function* scaledChanges(real: readonly IndexedChange[], count: number): Generator<IndexedChange> {
  if (real.length === 0) throw new Error('scaledChanges: no changes to copy');
  const copies = Math.ceil(count / real.length);
  let n = 0;
  for (let i = 0; i < real.length;) {
    const abs = Math.abs(real[i]!.item.score_delta);
    let end = i;
    while (end < real.length && Math.abs(real[end]!.item.score_delta) === abs) end++;
    for (let k = 0; k < copies; k++) {
      for (const { industry, item } of real.slice(i, end)) {
        if (n === count) return;
        yield { industry, item: { ...item, ticker: `S${String(n++).padStart(6, '0')}` } };
      }
    }
    i = end;
  }
}

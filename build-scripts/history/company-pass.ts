import type { CompanyFacts } from '../../src/snapshot/store.js';

export interface FactsPair {
  ticker: string;
  before: CompanyFacts | null;
  after: CompanyFacts | null;
}

/** Two snapshots' companies (each in ticker order) merged by ticker: what changed is read side by side. */
export function* pairsInOrder(before: readonly CompanyFacts[], after: readonly CompanyFacts[]): Generator<FactsPair> {
  let i = 0;
  let j = 0;
  while (i < before.length || j < after.length) {
    const b = before[i];
    const a = after[j];
    if (a === undefined || (b !== undefined && b.company.ticker < a.company.ticker)) {
      yield { ticker: b!.company.ticker, before: b!, after: null };
      i++;
    } else if (b === undefined || a.company.ticker < b.company.ticker) {
      yield { ticker: a.company.ticker, before: null, after: a };
      j++;
    } else {
      yield { ticker: a.company.ticker, before: b, after: a };
      i++;
      j++;
    }
  }
}

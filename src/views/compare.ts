import type { CompareResponse } from '../contract/compare.js';
import type { CanonicalSection } from '../contract/vocabulary.js';
import type { SnapshotMeta } from '../snapshot/schema.js';
import type { CompanyFacts } from '../snapshot/store.js';
import { canonicalFields, type SourceNames } from './canonical.js';
import { companySummary } from './company.js';
import { withEnvelope } from './envelope.js';

/** GET /compare (contract 4.4): each company's canonical view without the envelope, plus its summary, in request order. */
export function compareView(
  meta: SnapshotMeta,
  facts: readonly CompanyFacts[],
  names: SourceNames,
  fields?: ReadonlySet<CanonicalSection>,
): CompareResponse {
  return withEnvelope(meta, {
    data: facts.map((f) => {
      // Built up in place (canonicalFields says why: no rest pattern, no spread).
      const item = canonicalFields({}, meta, f, names, fields) as CompareResponse['data'][number];
      item.company = companySummary(meta, f.company);
      return item;
    }),
  });
}

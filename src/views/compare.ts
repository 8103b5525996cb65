import type { CompareResponse } from '../contract/compare.js';
import type { CanonicalSection } from '../contract/vocabulary.js';
import type { SnapshotMeta } from '../snapshot/schema.js';
import type { CompanyFacts } from '../snapshot/store.js';
import { canonicalView, type SourceNames } from './canonical.js';
import { companySummary } from './company.js';
import { withEnvelope } from './envelope.js';

/** GET /compare (contract 4.4): each company's canonical view without the envelope, plus its summary, in request order. */
export function compareView(meta: SnapshotMeta, facts: readonly CompanyFacts[], names: SourceNames, fields?: ReadonlySet<CanonicalSection>): CompareResponse {
  return withEnvelope(meta, {
    data: facts.map((f) => {
      const { ok: _ok, generated_at: _g, methodology_version: _m, dataset_snapshot_id: _d, data_asof: _a, ...view } = canonicalView(meta, f, names, fields);
      return { ...view, company: companySummary(meta, f.company) };
    }),
  });
}

import { fullCanonicalViewSchema } from '../../src/contract/canonical.js';
import { companyResponseSchema } from '../../src/contract/company.js';
import { urls } from '../../src/contract/urls.js';
import type { CompanyFacts, SnapshotStore } from '../../src/snapshot/store.js';
import { canonicalView } from '../../src/views/canonical.js';
import { companyView } from '../../src/views/company.js';
import { sourceNamesOf } from '../../src/views/source-names.js';
import type { StaticResource } from '../output/tree-files.js';

/**
 * The two resources of each company: its summary and its canonical view. Kept apart from the
 * shared resources so a tree worker loads only what company files need.
 */
export function* companyResources(store: SnapshotStore, companies: Iterable<CompanyFacts>): Generator<StaticResource> {
  const meta = store.meta;
  const sourceName = sourceNamesOf(store.sources());
  for (const facts of companies) {
    const t = facts.company.ticker;
    yield { url: urls.company(t), schema: companyResponseSchema, body: companyView(meta, facts.company) };
    yield { url: urls.canonical(t), schema: fullCanonicalViewSchema, body: canonicalView(meta, facts, sourceName) };
  }
}

import { scoreReasons } from '../../src/methodology/score.js';
import type { Locale } from '../../src/site/i18n/locales.js';
import CompanyPage from '../../src/site/pages/Company.astro';
import { pageUrlsFor } from '../../src/site/i18n/paths.js';
import type { SnapshotMeta } from '../../src/snapshot/schema.js';
import type { CompanyFacts, SnapshotStore } from '../../src/snapshot/store.js';
import { canonicalView, type SourceNames } from '../../src/views/canonical.js';
import { companyView } from '../../src/views/company.js';
import { sourceNamesOf } from '../../src/views/source-names.js';
import { inputOf } from '../../src/methodology/input-of.js';
import type { PageFiles } from './page-files.js';
import type { Render } from './render.js';
import { readHistory, type ChangesByTicker } from './tree-bodies.js';

/** What a company page reads beside the database: the snapshot's JSON tree and its changes (read once per thread). */
export interface CompanyTreeBodies {
  treeDir: string;
  changes: ChangesByTicker;
}

/**
 * A company page's props: the very bodies of /api/v1/company/{ticker}, its canonical view and its
 * history, and its item of /changes, so the page and the JSON cannot disagree.
 */
export function companyPageProps(meta: SnapshotMeta, facts: CompanyFacts, sourceName: SourceNames, bodies: CompanyTreeBodies, industrySlug: string) {
  const ticker = facts.company.ticker;
  return {
    meta,
    summary: companyView(meta, facts.company),
    canonical: canonicalView(meta, facts, sourceName),
    history: readHistory(bodies.treeDir, ticker),
    changes: { fromSnapshotId: bodies.changes.fromSnapshotId, latest: bodies.changes.byTicker.get(ticker) ?? null },
    industrySlug,
    reasons: scoreReasons(inputOf(facts, meta.data_asof)),
    feeYear: facts.carbonFee.registry_year,
  };
}

/** The company pages of one chunk, in every language: the props are made once and rendered in each. */
export async function writeCompanyPages(
  store: SnapshotStore,
  companies: CompanyFacts[],
  render: Render,
  files: PageFiles,
  bodies: CompanyTreeBodies,
  industrySlug: (name: string) => string,
  locales: readonly Locale[],
): Promise<void> {
  const meta = store.meta;
  const sourceName = sourceNamesOf(store.sources());
  for (const facts of companies) {
    const props = companyPageProps(meta, facts, sourceName, bodies, industrySlug(facts.company.industry));
    for (const locale of locales) files.write(pageUrlsFor(locale).company(facts.company.ticker), await render(CompanyPage, { ...props, locale }));
  }
}

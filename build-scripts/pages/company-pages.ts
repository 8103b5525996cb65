import CompanyPage from '../../src/site/pages/Company.astro';
import { pageUrls } from '../../src/site/paths.js';
import type { CompanyFacts, SnapshotStore } from '../../src/snapshot/store.js';
import { canonicalView } from '../../src/views/canonical.js';
import { companyView } from '../../src/views/company.js';
import { sourceNamesOf } from '../../src/views/source-names.js';
import type { PageFiles } from './page-files.js';
import type { Render } from './render.js';

/**
 * The company pages of one chunk: each from the very bodies of /api/v1/company/{ticker} and its
 * canonical view, so the page and the JSON cannot disagree.
 */
export async function writeCompanyPages(store: SnapshotStore, companies: CompanyFacts[], render: Render, files: PageFiles, industrySlug: (name: string) => string): Promise<void> {
  const meta = store.meta;
  const sourceName = sourceNamesOf(store.sources());
  for (const facts of companies) {
    const summary = companyView(meta, facts.company);
    const canonical = canonicalView(meta, facts, sourceName);
    const html = await render(CompanyPage, { meta, summary, canonical, industrySlug: industrySlug(facts.company.industry) });
    files.write(pageUrls.company(facts.company.ticker), html);
  }
}

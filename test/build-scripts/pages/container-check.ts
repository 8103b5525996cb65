/**
 * Run in a child process with the page workers' loaders (see container.test.ts): renders sample
 * pages with the project's renderer (build-scripts/pages/render.ts, which builds Astro's internal
 * render result itself) and with Astro's public container API, and prints whether each pair is
 * byte-identical. Guards the one place the project leans on an Astro internal.
 */
import { experimental_AstroContainer } from 'astro/container';
import { createRenderer } from '../../../build-scripts/pages/render.js';
import CompanyPage from '../../../src/site/pages/Company.astro';
import { SnapshotStore } from '../../../src/snapshot/store.js';
import { canonicalView } from '../../../src/views/canonical.js';
import { companyView } from '../../../src/views/company.js';
import { sourceNamesOf } from '../../../src/views/source-names.js';

const store = SnapshotStore.open(process.argv[2]!);
const render = await createRenderer();
const container = await experimental_AstroContainer.create();
const names = sourceNamesOf(store.sources());
const results: { ticker: string; same: boolean; bytes: number }[] = [];
for (const ticker of process.argv.slice(3)) {
  const facts = store.facts(ticker)!;
  const props = { meta: store.meta, summary: companyView(store.meta, facts.company), canonical: canonicalView(store.meta, facts, names), industrySlug: 'x' };
  const ours = await render(CompanyPage, props);
  const theirs = await container.renderToString(CompanyPage, { props, partial: false });
  results.push({ ticker, same: ours === theirs, bytes: ours.length });
}
store.close();
console.log(JSON.stringify(results));

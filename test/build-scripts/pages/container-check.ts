/**
 * Run in a child process with the page workers' loaders (see container.test.ts): renders sample
 * pages with the project's renderer (build-scripts/pages/render.ts, which builds Astro's internal
 * render result itself) and with Astro's public container API, and prints whether each pair is
 * byte-identical. Guards the one place the project leans on an Astro internal.
 */
import { experimental_AstroContainer } from 'astro/container';
import { companyPageProps } from '../../../build-scripts/pages/company-pages.js';
import { createRenderer } from '../../../build-scripts/pages/render.js';
import { readChanges, treeOf } from '../../../build-scripts/pages/tree-bodies.js';
import { LOCALES } from '../../../src/site/i18n/locales.js';
import CompanyPage from '../../../src/site/pages/Company.astro';
import { SnapshotStore } from '../../../src/snapshot/store.js';
import { sourceNamesOf } from '../../../src/views/source-names.js';

const store = SnapshotStore.open(process.argv[2]!);
const render = await createRenderer();
const container = await experimental_AstroContainer.create();
const names = sourceNamesOf(store.sources());
const bodies = { treeDir: treeOf(store.dir), changes: readChanges(treeOf(store.dir)) };
const results: { ticker: string; same: boolean; bytes: number }[] = [];
for (const ticker of process.argv.slice(3)) {
  const facts = store.facts(ticker)!;
  for (const locale of LOCALES) {
    const props = { ...companyPageProps(store.meta, facts, names, bodies, 'x'), locale };
    const ours = await render(CompanyPage, props);
    const theirs = await container.renderToString(CompanyPage, { props, partial: false });
    results.push({ ticker: `${locale} ${ticker}`, same: ours === theirs, bytes: ours.length });
  }
}
store.close();
console.log(JSON.stringify(results));

/**
 * Run in a child process with the page workers' loaders (see assurance-etf-pages.test.ts): builds
 * the hand-made snapshot (test/helpers/hand-built-snapshot.ts) into the folder given, renders its
 * ETF pages and the company pages of the tickers given with the project's renderer, and prints
 * them as one JSON object { "etf/HE001": html, "company/H0001": html, … }. A ticker given as
 * `zh-TW/H0003` is rendered in that language, under "zh-TW/company/H0003".
 */
import { inputOf } from '../../src/methodology/input-of.js';
import { createRenderer } from '../../build-scripts/pages/render.js';
import { scoreReasons } from '../../src/methodology/score.js';
import CompanyPage from '../../src/site/pages/Company.astro';
import EtfPage from '../../src/site/pages/Etf.astro';
import type { Locale } from '../../src/site/i18n/index.js';
import { SnapshotStore } from '../../src/snapshot/store.js';
import { canonicalView } from '../../src/views/canonical.js';
import { companyView } from '../../src/views/company.js';
import { etfView } from '../../src/views/etf.js';
import { sourceNamesOf } from '../../src/views/source-names.js';
import { writeHandBuiltSnapshot } from '../helpers/hand-built-snapshot.js';

const store = SnapshotStore.open(writeHandBuiltSnapshot(process.argv[2]!));
const render = await createRenderer();
const meta = store.meta;
const names = sourceNamesOf(store.sources());
const out: Record<string, string> = {};
for (const e of store.etfs()) {
  const found = store.etf(e.etf_code)!;
  out[`etf/${e.etf_code}`] = await render(EtfPage, { meta, locale: 'en', etf: etfView(meta, found.etf, found.holdings, (t) => store.company(t)) });
}
for (const arg of process.argv.slice(3)) {
  const [locale, ticker] = (arg.includes('/') ? arg.split('/') : ['en', arg]) as [Locale, string];
  const facts = store.facts(ticker)!;
  const summary = companyView(meta, facts.company);
  const c = summary.company;
  const history = {
    ok: true as const,
    generated_at: summary.generated_at,
    methodology_version: meta.methodology_version,
    dataset_snapshot_id: meta.dataset_snapshot_id,
    data_asof: meta.data_asof,
    ticker,
    data: [
      {
        dataset_snapshot_id: meta.dataset_snapshot_id,
        data_asof: meta.data_asof,
        methodology_version: meta.methodology_version,
        credibility_score: c.credibility_score,
        verdict: c.verdict,
        rank: c.rank,
        percentile: c.percentile,
        flags: c.top_flags,
        score_breakdown: c.score_breakdown,
      },
    ],
  };
  out[`${locale === 'en' ? '' : `${locale}/`}company/${ticker}`] = await render(CompanyPage, {
    meta,
    locale,
    summary,
    canonical: canonicalView(meta, facts, names),
    history,
    changes: { fromSnapshotId: null, latest: null },
    industrySlug: '24',
    reasons: scoreReasons(inputOf(facts, meta.data_asof)),
    feeYear: facts.carbonFee.registry_year,
  });
}
store.close();
console.log(JSON.stringify(out));

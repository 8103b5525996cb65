import { existsSync, statSync } from 'node:fs';
import { readCbamProducts, type CbamProductRow } from '../adapters/cbam-products.js';
import type { RejectLog } from '../adapters/read-layout.js';
import { checkRead, type Outcome } from '../sources/assertions.js';
import type { CompanyRow } from '../sources/company-profile.js';
import { joinFunds } from '../sources/etf-funds.js';
import type { EtfFund, ReportFiling } from '../sources/facts.js';
import { filesOf } from '../sources/files.js';
import type { GhgDisclosureRow } from '../sources/ghg-disclosure.js';
import { SOURCE_MODULES, sourceModule, urlVariable } from '../sources/index.js';
import { readRegistry, type RegistrySiteRow } from '../sources/moenv-ghg-registry.js';
import { readPenalties, type PenaltyRow } from '../sources/moenv-penalties.js';
import { readReportFilings } from '../sources/mops-esg-report.js';
import { readMopsEtfFunds } from '../sources/mops-etf-holdings.js';
import { readSitcaHoldings } from '../sources/sitca-etf-holdings.js';
import { FirstById, SourceTally } from '../sources/tally.js';
import { readTpexCompanies } from '../sources/tpex-company.js';
import { readTpexGhg } from '../sources/tpex-esg-ghg.js';
import { readTwseCompanies } from '../sources/twse-company.js';
import { readFundList } from '../sources/twse-etf-list.js';
import { readTwseGhg } from '../sources/twse-esg-ghg.js';
import type { Progress } from './progress.js';

/** A report filing with its assurance (never null here). */
export type AssuredReport = ReportFiling & { assurance: NonNullable<ReportFiling['assurance']> };

/** Everything the adapters read, joined onto the company universe (keyed by ticker). */
export interface SourceData {
  companies: Map<string, CompanyRow>;
  penalties: Map<string, PenaltyRow[]>;
  disclosures: Map<string, GhgDisclosureRow>;
  /** The company's most recent report that was assured (assurance may be older than the latest report). */
  assurances: Map<string, AssuredReport>;
  registrySites: Map<string, RegistrySiteRow[]>;
  latestRegistryYear: number | null;
  cbamProducts: Map<string, CbamProductRow[]>;
  /** Each fund's newest published holdings, by fund code. */
  etfs: Map<string, EtfFund>;
  /** Rows read (accepted by an adapter) per source id. */
  rowsRead: Map<string, number>;
  /** What each source gave: records, links, duplicates, skipped rows by reason, unmatched names. */
  tally: SourceTally;
  /** Assertion maxima exceeded (the minima failed the build). */
  warnings: string[];
}

/** The sources folder lacks what a build needs: every missing source is named, with what to do. */
export class MissingSourcesError extends Error {
  override name = 'MissingSourcesError';
}

/** A source yielded less than its assertions demand: a publisher's silent change must not ship. */
export class SourceAssertionError extends Error {
  override name = 'SourceAssertionError';
}

const ETF_FORMS = [['SRC-SITCA-ETF-HOLDINGS', 'SRC-TWSE-ETF-LIST'], ['SRC-MOPS-ETF-HOLDINGS']] as const;

/** Every source a build needs, checked at once: the folder, each source's files (the ETF holdings in one of their two forms). */
export function checkSourcesPresent(dir: string): void {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new MissingSourcesError(`sources folder ${dir} does not exist: run \`npm run fetch -- --out ${dir}\` first (or \`npm run refresh\`), or point --sources at a folder of publisher files`);
  }
  const has = (id: string) => filesOf(dir, sourceModule(id)).length > 0;
  const missing: string[] = [];
  for (const m of SOURCE_MODULES) {
    const id = m.info.source_id;
    if (ETF_FORMS.flat().includes(id as never)) continue;
    if (!has(id)) missing.push(`${id}: none of ${m.plan ? 'its fetched answers or ' : ''}${m.files.placed.join(', ')}`);
  }
  if (!ETF_FORMS.some((form) => form.every(has))) {
    const absent = ETF_FORMS[0].filter((id) => !has(id));
    missing.push(`ETF holdings: ${absent.join(' and ')} (SITCA's answers and the TWSE fund list), or an etf_holdings.csv placed by hand (SRC-MOPS-ETF-HOLDINGS)`);
  }
  if (missing.length > 0) {
    throw new MissingSourcesError(
      `sources folder ${dir} lacks ${missing.length} source${missing.length > 1 ? 's' : ''}:\n${missing.map((m) => `  - ${m}`).join('\n')}\n` +
        `Fetch them with \`npm run fetch -- --out ${dir}\` (a source can be pointed elsewhere with ${urlVariable('SRC-…')}), or place the files by hand.`,
    );
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V) {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

export interface LoadOptions {
  /** Absolute minima of the assertions apply to production builds (a demo universe may be any size). */
  absoluteMinima: boolean;
  /** ASSERT_MIN_SCALE. */
  scale: number;
}

/** Runs every source's reader over a sources folder, then its assertions. Rows that link to no company of the universe are dropped. */
export async function loadSources(dir: string, rejects: RejectLog, progress: Progress, o: LoadOptions): Promise<SourceData> {
  checkSourcesPresent(dir);
  const tally = new SourceTally();

  const companies = new Map<string, CompanyRow>();
  for (const read of [readTwseCompanies, readTpexCompanies]) {
    let once: FirstById | null = null;
    for await (const c of read(dir, rejects, tally)) {
      once ??= new FirstById(tally.of(c.sourceId));
      if (!once.first(c.ticker, c)) continue;
      tally.record(c.sourceId, c.ticker, true);
      if (companies.has(c.ticker)) rejects.add(c.sourceId, 0, `ticker ${c.ticker} is listed by both exchanges: kept the first profile`);
      else companies.set(c.ticker, c);
    }
  }
  progress.step(`companies: ${companies.size}`);
  const byUniformNo = new Map([...companies.values()].map((c) => [c.uniformNo, c.ticker]));
  const linked = (ticker: string | undefined) => (ticker !== undefined && companies.has(ticker) ? ticker : null);

  const cbamProducts = new Map<string, CbamProductRow[]>();
  for await (const p of readCbamProducts(dir, rejects)) if (companies.has(p.ticker)) push(cbamProducts, p.ticker, p);

  const assurances: SourceData['assurances'] = new Map();
  for await (const r of readReportFilings(dir, rejects, tally)) {
    tally.record(r.sourceId, linked(r.ticker), r.assurance !== null);
    if (!companies.has(r.ticker) || r.assurance === null) continue;
    const prev = assurances.get(r.ticker);
    if (!prev || r.year > prev.year) assurances.set(r.ticker, r as AssuredReport);
  }

  const disclosures = new Map<string, GhgDisclosureRow>();
  for (const read of [readTwseGhg, readTpexGhg]) {
    let once: FirstById | null = null;
    for await (const d of read(dir, rejects)) {
      once ??= new FirstById(tally.of(d.sourceId));
      if (!once.first(`${d.ticker}/${d.year}`, d)) continue;
      tally.record(d.sourceId, linked(d.ticker), d.scope1 !== null);
      const prev = disclosures.get(d.ticker);
      if (companies.has(d.ticker) && (!prev || d.year > prev.year)) disclosures.set(d.ticker, d);
    }
  }
  progress.step(`disclosures: ${disclosures.size}, assured companies: ${assurances.size}`);

  const registrySites = new Map<string, RegistrySiteRow[]>();
  let latestRegistryYear: number | null = null;
  for await (const s of readRegistry(dir, rejects, tally)) {
    const ticker = byUniformNo.get(s.uniformNo);
    tally.record('SRC-MOENV-GHG_P_01', ticker ?? null);
    latestRegistryYear = Math.max(latestRegistryYear ?? s.year, s.year);
    if (ticker) push(registrySites, ticker, s);
  }

  const penalties = new Map<string, PenaltyRow[]>();
  let penaltyRows = 0;
  for await (const p of readPenalties(dir, rejects, tally)) {
    // A penalty with no business ID (a vehicle, a person) or an unknown one is counted and links to no company.
    const ticker = p.uniformNo === null ? undefined : byUniformNo.get(p.uniformNo);
    tally.record('SRC-MOENV-EMS_P_46', ticker ?? null);
    if (++penaltyRows % 100_000 === 0) progress.step(`penalties read: ${penaltyRows}`);
    if (ticker) push(penalties, ticker, p);
  }
  progress.step(`penalties: ${penaltyRows} read, linked to ${penalties.size} companies`);

  const etfs = await loadEtfs(dir, rejects, tally, (code) => companies.has(code));
  progress.step(`ESG ETFs: ${etfs.size}`);

  const outcome: Outcome = { failures: [], warnings: [] };
  for (const m of SOURCE_MODULES) {
    if (filesOf(dir, m).length === 0) continue;
    const r = checkRead(m, tally.of(m.info.source_id), { scale: o.scale, absolute: o.absoluteMinima });
    outcome.failures.push(...r.failures);
    outcome.warnings.push(...r.warnings);
  }
  if (outcome.failures.length > 0) throw new SourceAssertionError(`source assertions failed:\n${outcome.failures.map((f) => `  - ${f}`).join('\n')}`);

  const rowsRead = new Map([...tally.bySource.entries()].map(([id, c]) => [id, c.records]));
  return { companies, penalties, disclosures, assurances, registrySites, latestRegistryYear, cbamProducts, etfs, rowsRead, tally, warnings: outcome.warnings };
}

/**
 * ESG ETFs and their holdings: SITCA's answers with fund codes from the TWSE fund list (a fund whose
 * name matches no code or several is listed in the summary and left out, never guessed), or the MOPS
 * CSV placed by hand.
 */
async function loadEtfs(dir: string, rejects: RejectLog, tally: SourceTally, inUniverse: (code: string) => boolean): Promise<Map<string, EtfFund>> {
  const funds: EtfFund[] = [];
  if (filesOf(dir, sourceModule('SRC-SITCA-ETF-HOLDINGS')).length > 0) {
    const sitca = await readSitcaHoldings(dir, rejects);
    const list = await readFundList(dir, rejects);
    const joined = joinFunds(sitca, list.rows);
    const sitcaCounts = tally.of('SRC-SITCA-ETF-HOLDINGS');
    sitcaCounts.unmatched.push(...joined.unmatched.map((n: string) => `${n} (no fund code)`), ...joined.ambiguous.map((n: string) => `${n} (several fund codes)`));
    tally.of('SRC-TWSE-ETF-LIST').duplicates += list.duplicates;
    for (let i = 0; i < list.rows.length; i++) tally.record('SRC-TWSE-ETF-LIST', null);
    for (const f of sitca) for (const h of f.holdings) tally.record('SRC-SITCA-ETF-HOLDINGS', inUniverse(h.code) ? h.code : null);
    const notEsg = sitca.length - joined.funds.length - joined.unmatched.length - joined.ambiguous.length;
    if (notEsg > 0) tally.skip('SRC-SITCA-ETF-HOLDINGS', 'funds that are not ESG ETFs by the published rule', notEsg);
    funds.push(...joined.funds);
  } else {
    for (const f of await readMopsEtfFunds(dir, rejects)) {
      for (const h of f.holdings) tally.record(f.sourceId, inUniverse(h.code) ? h.code : null);
      funds.push(f);
    }
  }
  return new Map(funds.sort((a, b) => (a.code < b.code ? -1 : 1)).map((f) => [f.code, f]));
}

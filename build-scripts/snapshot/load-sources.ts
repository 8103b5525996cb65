import { existsSync, statSync } from 'node:fs';
import type { RejectLog } from '../adapters/read-layout.js';
import { checkRead, type Outcome } from '../sources/kit/assertions.js';
import type {
  CbamProductRow,
  CompanyRow,
  ConductRow,
  EtfFund,
  GhgDisclosureRow,
  PenaltyRow,
  RegistrySiteRow,
  ReportFiling,
} from '../sources/kit/facts.js';
import { filesOf } from '../sources/kit/files.js';
import { disclosesAny } from '../sources/ghg-disclosures/ghg-disclosure.js';
import { REFERENCE_LISTS, SOURCE_MODULES, urlVariable } from '../sources/index.js';
import type { ReadContext, SourceModule, SourceRead } from '../sources/kit/source.js';
import { FirstById, SourceTally } from '../sources/kit/tally.js';
import type { Progress } from './progress.js';
import type { SnapshotKind } from '../../src/contract/vocabulary.js';

/** A report filing with its assurance (never null here). */
export type AssuredReport = ReportFiling & { assurance: NonNullable<ReportFiling['assurance']> };

/** A row with the source it came from (the loader knows it from the module it read). */
export type Sourced<T> = T & { sourceId: string };

/** Everything the adapters read, joined onto the company universe (keyed by ticker). */
export interface SourceData {
  /** What the snapshot is, decided from the universe before anything else was read (LoadOptions.kindOf). */
  kind: SnapshotKind;
  companies: Map<string, CompanyRow>;
  penalties: Map<string, Sourced<PenaltyRow>[]>;
  /** Each company's disclosure conduct (contract 3.2), any order. */
  conduct: Map<string, ConductRow[]>;
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

type Kind = SourceRead['kind'];
/** One reader of a kind, with the id its rows count under and its module (null for a reference list). */
interface Reader<K extends Kind> {
  id: string;
  module: SourceModule | null;
  read: Extract<SourceRead, { kind: K }>['read'];
}

/** Every reader of one kind: the sources' in the list's order, then the reference lists'. */
function readersOf<K extends Kind>(kind: K): Reader<K>[] {
  const all = [
    ...SOURCE_MODULES.flatMap((m) => (m.read ? [{ id: m.info.source_id, module: m, read: m.read }] : [])),
    ...REFERENCE_LISTS.map((l) => ({ id: l.id, module: null, read: l.read })),
  ];
  return all.filter((r) => r.read.kind === kind).map((r) => ({ id: r.id, module: r.module, read: r.read.read as Reader<K>['read'] }));
}

/** Kinds that come in alternative forms, any one of which is enough (by what the summary calls them). */
const ONE_FORM_ENOUGH: Partial<Record<Kind, string>> = { funds: 'ETF holdings' };

/** A module and the sources its reader reads beside it. */
const formOf = (m: SourceModule): SourceModule[] => [m, ...(m.uses ?? [])];
const filesNamed = (m: SourceModule) =>
  [...(m.plan ? ['its fetched answers'] : []), ...(m.files.placed.length > 0 ? [m.files.placed.join(', ')] : [])].join(' or ');

/**
 * Every source a build needs, checked at once: the folder, then each module's files and those of
 * the sources it uses; of a kind that comes in alternative forms (the ETF holdings), one whole form.
 */
export function checkSourcesPresent(dir: string): void {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new MissingSourcesError(
      `sources folder ${dir} does not exist: run \`npm run fetch -- --out ${dir}\` first (or \`npm run refresh\`), or point --sources at a folder of publisher files`,
    );
  }
  const has = (m: SourceModule) => filesOf(dir, m).length > 0;
  const missing: string[] = [];
  const alternativesDone = new Set<Kind>();
  for (const m of SOURCE_MODULES) {
    if (!m.read) continue;
    const kind = m.read.kind;
    const what = ONE_FORM_ENOUGH[kind];
    if (what === undefined) {
      for (const x of formOf(m)) if (!has(x)) missing.push(`${x.info.source_id}: none of ${filesNamed(x)}`);
      continue;
    }
    if (alternativesDone.has(kind)) continue;
    alternativesDone.add(kind);
    const forms = SOURCE_MODULES.filter((x) => x.read?.kind === kind).map(formOf);
    if (!forms.some((form) => form.every(has))) {
      missing.push(
        `${what}, in one of its forms: ${forms.map((form) => form.map((x) => `${x.info.source_id} (${filesNamed(x)})`).join(' with ')).join('; or ')}`,
      );
    }
  }
  if (missing.length > 0) {
    throw new MissingSourcesError(
      `sources folder ${dir} lacks ${missing.length} source${missing.length > 1 ? 's' : ''}:\n${missing.map((m) => `  - ${m}`).join('\n')}\n` +
        `Fetch them with \`npm run fetch -- --out ${dir}\` (a source can be pointed elsewhere with ${urlVariable('SRC-…')}), or place the files by hand.`,
    );
  }
}

/**
 * A company on both exchanges' lists is one company (sources.md, "A company moves between the
 * exchanges": 6423 億而得 left TWSE's innovation board for TPEx; lists fetched at different moments
 * both name it). The profile of the newer listing is kept, by each list's listing date (TWSE 上市日期,
 * TPEx DateOfListing); without both dates, the list stamped later (出表日期 / Date) decides, and then
 * the first read. Counted in the summary as a skip of the older list's source, never a reject.
 */
function newerListing(a: CompanyRow, b: CompanyRow, tally: SourceTally): CompanyRow {
  let newer = a;
  if (a.listedOn !== null && b.listedOn !== null) newer = b.listedOn > a.listedOn ? b : a;
  else {
    const stampA = tally.of(a.sourceId).publisherDate;
    const stampB = tally.of(b.sourceId).publisherDate;
    if (stampA !== null && stampB !== null && stampB > stampA) newer = b;
  }
  const older = newer === a ? b : a;
  tally.skip(older.sourceId, `listed by both exchanges: the newer listing's profile (${newer.sourceId}) kept`);
  return newer;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V) {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

export interface LoadOptions {
  /**
   * The snapshot's kind from the company universe (snapshot-kind.ts), asked as soon as the companies
   * are read: it may refuse the build before the other sources are. Absolute minima of the assertions
   * apply to production builds (a demo universe may be any size).
   */
  kindOf: (tickers: Iterable<string>) => SnapshotKind;
  /** ASSERT_MIN_SCALE. */
  scale: number;
}

/**
 * Runs every module's reader over a sources folder, kind by kind, then the sources' assertions. Rows
 * that link to no company of the universe are dropped. No source is named here: a module added to
 * the list is read by its kind.
 */
export async function loadSources(dir: string, rejects: RejectLog, progress: Progress, o: LoadOptions): Promise<SourceData> {
  checkSourcesPresent(dir);
  const tally = new SourceTally();
  const ctx: ReadContext = { dir, rejects, tally };

  const companies = await loadCompanies(ctx);
  progress.step(`companies: ${companies.size}`);
  const kind = o.kindOf(companies.keys());
  const u = universeOf(companies);

  const cbamProducts = new Map<string, CbamProductRow[]>();
  for (const r of readersOf('cbam-products')) for await (const p of r.read(ctx)) if (companies.has(p.ticker)) push(cbamProducts, p.ticker, p);
  const assurances = await loadAssurances(ctx, u);
  const disclosures = await loadDisclosures(ctx, u);
  progress.step(`disclosures: ${disclosures.size}, assured companies: ${assurances.size}`);
  const { registrySites, latestRegistryYear } = await loadRegistry(ctx, u);
  const penalties = await loadPenalties(ctx, u, progress);
  const conduct = await loadConduct(ctx, u);
  const etfs = await loadEtfs(ctx, (code) => companies.has(code));
  progress.step(`ESG ETFs: ${etfs.size}`);
  const warnings = checkAssertions(dir, tally, { scale: o.scale, absolute: kind === 'production' });

  const rowsRead = new Map([...tally.bySource.entries()].map(([id, c]) => [id, c.records]));
  return {
    kind,
    companies,
    penalties,
    conduct,
    disclosures,
    assurances,
    registrySites,
    latestRegistryYear,
    cbamProducts,
    etfs,
    rowsRead,
    tally,
    warnings,
  };
}

/** The company universe, and how the other sources' rows join it. */
interface Universe {
  companies: Map<string, CompanyRow>;
  byUniformNo: Map<string, string>;
  /** The ticker when it is in the universe, else null (what the tally counts a row as linked to). */
  linked: (ticker: string | undefined) => string | null;
}

function universeOf(companies: Map<string, CompanyRow>): Universe {
  return {
    companies,
    byUniformNo: new Map([...companies.values()].map((c) => [c.uniformNo, c.ticker])),
    linked: (ticker) => (ticker !== undefined && companies.has(ticker) ? ticker : null),
  };
}

/** Both exchanges' lists; a company on both is one, by its newer listing (newerListing). */
async function loadCompanies(ctx: ReadContext): Promise<Map<string, CompanyRow>> {
  const { tally } = ctx;
  const companies = new Map<string, CompanyRow>();
  for (const r of readersOf('companies')) {
    const once = new FirstById(tally.of(r.id));
    for await (const c of r.read(ctx)) {
      if (!once.first(c.ticker, c)) continue;
      tally.record(c.sourceId, c.ticker, true);
      const other = companies.get(c.ticker);
      if (other === undefined) companies.set(c.ticker, c);
      else if (other.sourceId !== c.sourceId) companies.set(c.ticker, newerListing(other, c, ctx.tally));
    }
  }
  return companies;
}

/** Each company's most recent assured report. */
async function loadAssurances(ctx: ReadContext, u: Universe): Promise<SourceData['assurances']> {
  const assurances: SourceData['assurances'] = new Map();
  for (const r of readersOf('filings')) {
    for await (const f of r.read(ctx)) {
      ctx.tally.record(f.sourceId, u.linked(f.ticker), f.assurance !== null);
      if (!u.companies.has(f.ticker) || f.assurance === null) continue;
      const prev = assurances.get(f.ticker);
      if (!prev || f.year > prev.year) assurances.set(f.ticker, f as AssuredReport);
    }
  }
  return assurances;
}

/** Each company's latest year's disclosure. */
async function loadDisclosures(ctx: ReadContext, u: Universe): Promise<Map<string, GhgDisclosureRow>> {
  const { tally } = ctx;
  const disclosures = new Map<string, GhgDisclosureRow>();
  for (const r of readersOf('disclosures')) {
    const once = new FirstById(tally.of(r.id));
    for await (const d of r.read(ctx)) {
      if (!once.first(`${d.ticker}/${d.year}`, d)) continue;
      tally.record(d.sourceId, u.linked(d.ticker), d.scope1 !== null);
      // A row whose three figures are all N/A is a filing that discloses nothing (contract 3.2): read, counted, never published.
      if (!disclosesAny(d)) {
        tally.skip(d.sourceId, 'all three figures N/A: discloses nothing');
        continue;
      }
      const prev = disclosures.get(d.ticker);
      if (u.companies.has(d.ticker) && (!prev || d.year > prev.year)) disclosures.set(d.ticker, d);
    }
  }
  return disclosures;
}

/** The registry's sites, joined on the business ID, and the latest year it has. */
async function loadRegistry(ctx: ReadContext, u: Universe): Promise<Pick<SourceData, 'registrySites' | 'latestRegistryYear'>> {
  const registrySites = new Map<string, RegistrySiteRow[]>();
  let latestRegistryYear: number | null = null;
  for (const r of readersOf('registry-sites')) {
    for await (const s of r.read(ctx)) {
      const ticker = u.byUniformNo.get(s.uniformNo);
      ctx.tally.record(r.id, ticker ?? null);
      latestRegistryYear = Math.max(latestRegistryYear ?? s.year, s.year);
      if (ticker) push(registrySites, ticker, s);
    }
  }
  return { registrySites, latestRegistryYear };
}

async function loadPenalties(ctx: ReadContext, u: Universe, progress: Progress): Promise<SourceData['penalties']> {
  const penalties: SourceData['penalties'] = new Map();
  let penaltyRows = 0;
  for (const r of readersOf('penalties')) {
    for await (const p of r.read(ctx)) {
      // A penalty with no business ID (a vehicle, a person) or an unknown one is counted and links to no company.
      const ticker = p.uniformNo === null ? undefined : u.byUniformNo.get(p.uniformNo);
      ctx.tally.record(r.id, ticker ?? null);
      if (++penaltyRows % 100_000 === 0) progress.step(`penalties read: ${penaltyRows}`);
      if (ticker) push(penalties, ticker, { ...p, sourceId: r.id });
    }
  }
  progress.step(`penalties: ${penaltyRows} read, linked to ${penalties.size} companies`);
  return penalties;
}

/** Disclosure conduct joins on the ticker; a code that is not listed is read and counted, linking to no company. */
async function loadConduct(ctx: ReadContext, u: Universe): Promise<Map<string, ConductRow[]>> {
  const conduct = new Map<string, ConductRow[]>();
  for (const r of readersOf('conduct')) {
    for await (const c of r.read(ctx)) {
      ctx.tally.record(c.sourceId, u.linked(c.ticker));
      if (u.companies.has(c.ticker)) push(conduct, c.ticker, c);
    }
  }
  return conduct;
}

/** Each read source's assertions: a failed minimum throws; the maxima exceeded are returned as warnings. */
function checkAssertions(dir: string, tally: SourceTally, o: { scale: number; absolute: boolean }): string[] {
  const outcome: Outcome = { failures: [], warnings: [] };
  for (const m of SOURCE_MODULES) {
    if (filesOf(dir, m).length === 0) continue;
    const r = checkRead(m, tally.of(m.info.source_id), o);
    outcome.failures.push(...r.failures);
    outcome.warnings.push(...r.warnings);
  }
  if (outcome.failures.length > 0) throw new SourceAssertionError(`source assertions failed:\n${outcome.failures.map((f) => `  - ${f}`).join('\n')}`);
  return outcome.warnings;
}

/**
 * ESG ETFs and their holdings, from the first form of them in the folder (checkSourcesPresent saw
 * that one is whole): in the list's order, SITCA's answers with fund codes from the TWSE fund list,
 * then the MOPS CSV placed by hand.
 */
async function loadEtfs(ctx: ReadContext, inUniverse: (code: string) => boolean): Promise<Map<string, EtfFund>> {
  const form = readersOf('funds').find((r) => r.module !== null && filesOf(ctx.dir, r.module).length > 0);
  if (!form) throw new MissingSourcesError(`sources folder ${ctx.dir} holds no form of ETF holdings`);
  const funds = await form.read(ctx, inUniverse);
  return new Map(funds.sort((a, b) => (a.code < b.code ? -1 : 1)).map((f) => [f.code, f]));
}

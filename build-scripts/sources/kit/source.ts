import type { RejectLog } from '../../adapters/read-layout.js';
import type { CbamProductRow, CompanyRow, ConductRow, EtfFund, GhgDisclosureRow, PenaltyRow, RegistrySiteRow, ReportFiling } from './facts.js';
import type { SourceInfo } from './registry-info.js';
import type { SourceTally } from './tally.js';

/**
 * One publisher's dataset, in one module (as OpenSanctions' zavod keeps one folder per dataset):
 * what the registry says of it, which files of a sources folder are its, how to fetch them, how to
 * read them and what the reader yields, and the least and most it must yield. The fetcher, the
 * registry, the assertions and the snapshot loader iterate over `SOURCE_MODULES` (../index.ts); none of
 * them names a source.
 */
export interface SourceModule {
  readonly info: SourceInfo;
  /**
   * The files of this source in a sources folder. `answers` matches the files a fetch writes (one per
   * request, as served); `placed` lists the forms an operator may put in by hand (one at most).
   */
  readonly files: { readonly answers: RegExp; readonly placed: readonly string[] };
  /** How to fetch it; null when only a hand-placed file can supply it. */
  readonly plan: FetchPlan | null;
  /** What the build reads from it; null for a source read only by the modules that list it in `uses`. */
  readonly read: SourceRead | null;
  /** Other sources this one's reader reads too (SITCA's fund names get their codes from the TWSE fund list): a build needs them beside it. */
  readonly uses?: readonly SourceModule[];
  readonly assertions: SourceAssertions;
}

/**
 * A list the project maintains, read from the sources folder like a source but published by no one:
 * not fetched, not in the registry, optional. Its id says so (`REF-…`, never `SRC-…`, which contract
 * section 3.2 reserves for registry entries).
 */
export interface ReferenceList {
  readonly id: string;
  readonly read: SourceRead;
}

/** What a reader needs: the sources folder, where rejected rows go, and the tally of what each source gave. */
export interface ReadContext {
  readonly dir: string;
  readonly rejects: RejectLog;
  readonly tally: SourceTally;
}

/**
 * A reader and the kind of record it yields: the snapshot loader takes every reader of a kind, in
 * the list's order, and joins their rows onto the company universe. Row readers stream; the loader
 * counts their rows. A funds reader returns whole funds and counts its own records (what a record is
 * differs by form: SITCA counts the holdings of every fund it lists, ESG or not).
 */
export type SourceRead =
  | { readonly kind: 'companies'; read(ctx: ReadContext): AsyncIterable<CompanyRow> }
  | { readonly kind: 'filings'; read(ctx: ReadContext): AsyncIterable<ReportFiling> }
  | { readonly kind: 'disclosures'; read(ctx: ReadContext): AsyncIterable<GhgDisclosureRow> }
  | { readonly kind: 'registry-sites'; read(ctx: ReadContext): AsyncIterable<RegistrySiteRow> }
  | { readonly kind: 'penalties'; read(ctx: ReadContext): AsyncIterable<PenaltyRow> }
  | { readonly kind: 'conduct'; read(ctx: ReadContext): AsyncIterable<ConductRow> }
  | { readonly kind: 'funds'; read(ctx: ReadContext, inUniverse: (code: string) => boolean): Promise<EtfFund[]> }
  | { readonly kind: 'cbam-products'; read(ctx: ReadContext): AsyncIterable<CbamProductRow> };

/**
 * Data assertions (zavod's `assertions`): minima are fatal, maxima a warning. Absolute minima are
 * what the real publisher serves and are scaled by `ASSERT_MIN_SCALE` (a small test universe); an
 * empty source fails at any scale (a fetch first carries forward an empty answer, fetch/carry-forward.ts). The relative minimum compares with the previous fetch of the same
 * source, as the manifest records it.
 */
export interface SourceAssertions {
  /** Fewest records a whole fetch may yield (before scaling). */
  readonly minRecords: number;
  /** Most records expected; more is a warning in the summary. */
  readonly maxRecords: number;
  /** A fetch yielding less than this fraction of the previous fetch's records fails (default 0.5). */
  readonly minOfPrevious?: number;
  /** Share of the records read that must link to a company of the universe (a join that matches almost nothing fails). */
  readonly minLinkedShare?: number;
  /** Fewest distinct companies of the universe the records must link to (before scaling). */
  readonly minLinkedCompanies?: number;
  /** Share of records that must carry the source's key figure (e.g. a scope 1 figure), with what that figure is. */
  readonly minFilled?: { readonly what: string; readonly share: number };
}

/** What a plan may ask of the fetcher: one request, its answer kept as served. */
export interface AnswerRequest {
  /** File name in the sources folder (must match the module's `files.answers`). */
  readonly file: string;
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** The body sent. */
  readonly body?: string;
  /** The body as recorded in the manifest (secrets and bulky echoed state left out); default `body`. */
  readonly recordedBody?: string;
  /** What the answer must be: checked before it is kept (HTML where JSON is expected fails at once). */
  readonly expect: 'json' | 'csv' | 'html';
  /** Counts the answer's records after the generic checks (JSON and CSV are counted by default); throws to refuse it. */
  readonly check?: (path: string) => Promise<number>;
}

/** One kept answer: where it came from and its exact bytes. */
export interface KeptAnswer {
  readonly file: string;
  readonly path: string;
  readonly records: number;
  readonly sha256: string;
}

/** The fetcher's side of a plan: requests with the shared timeouts, spacing, retries and cookies. */
export interface FetchSession {
  request(r: AnswerRequest): Promise<KeptAnswer>;
  log(message: string): void;
}

export interface PlanContext {
  /** The source's URL: the module's own, or `FETCH_URL_<id>` when set. */
  readonly url: string;
  /** The day the data describe (YYYY-MM-DD): which report years and which quarter to ask for. */
  readonly asof: string;
  /** MOENV open data key ('' when unset; a plan that needs it has declared so in `needs`). */
  readonly moenvKey: string;
}

export interface FetchPlan {
  /** The source's own URL (what `FETCH_URL_<id>` replaces). */
  readonly url: string;
  /** Preconditions checked before any download, all at once: e.g. the MOENV key. */
  readonly needs?: readonly 'moenv-key'[];
  run(session: FetchSession, ctx: PlanContext): Promise<void>;
}

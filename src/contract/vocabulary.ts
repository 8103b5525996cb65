/**
 * The API's vocabulary, defined once: every enum, code pattern and limit of the contract
 * (../shared/spec/api-v1.md). Schemas, the server, the adapters, the methodology and the demo import
 * these; a literal enum value spelled anywhere else is a second truth waiting to drift.
 */

/** Contract 3.1 verdicts, best first. */
export const VERDICTS = ['credible', 'decent', 'questionable', 'poor'] as const;
export type Verdict = (typeof VERDICTS)[number];

/** Contract 3.1: `listed` (TWSE) or `otc` (TPEx). */
export const MARKET_TYPES = ['listed', 'otc'] as const;
export type MarketType = (typeof MARKET_TYPES)[number];

/** Contract 3.1: a company's assurance level; `none` when no report was assured. */
export const ASSURANCE_LEVELS = ['none', 'limited', 'reasonable'] as const;
export type AssuranceLevel = (typeof ASSURANCE_LEVELS)[number];
/** The levels an assurance fact can have (contract 3.2: the fact is null when there is none). */
export const ASSURED_LEVELS = ['limited', 'reasonable'] as const satisfies readonly AssuranceLevel[];
export type AssuredLevel = (typeof ASSURED_LEVELS)[number];
/** Who assured a report (contract 3.2): a CPA firm under the FSC rules, or a third-party verifier only. */
export const ASSURANCE_KINDS = ['cpa', 'third_party'] as const;
export type AssuranceKind = (typeof ASSURANCE_KINDS)[number];

/** Flag severities, most severe first (contract 3.1 orders `top_flags` by this). */
export const SEVERITIES = ['critical', 'warning', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** Methodology components (contract 7.1), in the order of the breakdown. */
export const SCORE_COMPONENTS = ['disclosure', 'assurance', 'compliance', 'consistency'] as const;
export type ScoreComponent = (typeof SCORE_COMPONENTS)[number];

/** A disclosure's 資料邊界 classified (contract 3.2): exactly 已完成母公司, naming 已完成合併財務報表之母子公司, or any other text. */
export const BOUNDARIES = ['parent', 'consolidated', 'other'] as const;
export type Boundary = (typeof BOUNDARIES)[number];

/** Contract 3.3 update frequencies of a source. */
export const UPDATE_FREQUENCIES = ['daily', 'weekly', 'monthly', 'quarterly', 'annual', 'irregular'] as const;
export type UpdateFrequency = (typeof UPDATE_FREQUENCIES)[number];

/** Contract 5: what a snapshot was built from. */
export const SNAPSHOT_KINDS = ['demo', 'production'] as const;
export type SnapshotKind = (typeof SNAPSHOT_KINDS)[number];

/** Contract 4.2 ranking parameters with a closed set of values; the first is the default. */
export const RANKING_SORTS = ['score_desc', 'score_asc'] as const;
export type RankingSort = (typeof RANKING_SORTS)[number];
export const RANKING_MODES = ['compact', 'full'] as const;
export type RankingMode = (typeof RANKING_MODES)[number];
export const RANKING_FORMATS = ['json', 'csv'] as const;
export type RankingFormat = (typeof RANKING_FORMATS)[number];

/** Contract 4.1: the canonical view's six sections, and the other names `fields=` accepts for them. */
export const CANONICAL_SECTIONS = ['penalties', 'carbon_disclosure', 'carbon_fee', 'assurance', 'flags', 'disclosure_conduct'] as const;
export type CanonicalSection = (typeof CANONICAL_SECTIONS)[number];
export const SECTION_ALIASES: Readonly<Record<string, CanonicalSection>> = { carbon: 'carbon_disclosure', conduct: 'disclosure_conduct' };

/**
 * Contract 3.2, `disclosure_conduct`: an exchange's penalty for a disclosure breach (t187ap23) or an
 * FSC sanction in the company's case (t187ap22).
 */
export const CONDUCT_KINDS = ['breach', 'sanction'] as const;
export type ConductKind = (typeof CONDUCT_KINDS)[number];
/** Every name `fields=` accepts, in the order messages list them. */
export const SECTION_NAMES: readonly string[] = [...CANONICAL_SECTIONS, ...Object.keys(SECTION_ALIASES)];

/** Contract 2 error codes and their HTTP status. */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  /** Added: a request whose headers or body did not arrive in time (server/serve.ts REQUEST_TIMEOUTS). */
  REQUEST_TIMEOUT: 408,
  GONE: 410,
  PAYLOAD_TOO_LARGE: 413,
  URI_TOO_LONG: 414,
  RATE_LIMITED: 429,
  HEADERS_TOO_LARGE: 431,
  INTERNAL: 500,
  UPSTREAM_FAILURE: 502,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

/** Contract 1.1: a ticker or fund code as a client may write it (case-insensitive). */
export const CODE_PATTERN = /^[0-9A-Za-z]{1,12}$/;
/** The same code as responses spell it: upper case. */
export const UPPER_CODE_PATTERN = /^[0-9A-Z]{1,12}$/;
/** What a code looks like, for messages. */
export const CODE_RULE = '1 to 12 letters or digits (e.g. D1101)';

/** Contract 4.2 `gf`: `GF-` then letters or digits; flag ids are stored upper-case. */
export const FLAG_ID_QUERY_PATTERN = /^[Gg][Ff]-[A-Za-z0-9]+$/;
export const FLAG_ID_PATTERN = /^GF-[A-Z0-9]+$/;

/** Source registry ids (contract 3.3). */
export const SOURCE_ID_PATTERN = /^SRC-[A-Z0-9_-]+$/;

/** Snapshot ids: the publish date, then `.2`, `.3` for more builds the same day (contract 0). */
export const SNAPSHOT_ID_PATTERN = /^\d{4}-\d{2}-\d{2}(\.\d+)?$/;

/** Every numeric limit of the contract, in one place. */
/** Contract 10: why a company's score, flags or facts moved between two snapshots. */
export const CAUSE_KINDS = [
  'penalty_new',
  'penalty_aged_out',
  'disclosure_new',
  'disclosure_changed',
  'assurance_changed',
  'carbon_fee_changed',
  'conduct_new',
  'timeliness',
  'flag_raised',
  'flag_cleared',
  'methodology_changed',
  'company_added',
  'company_removed',
] as const;
export type CauseKind = (typeof CAUSE_KINDS)[number];
/** Contract 10: what happened to a company between two snapshots. */
export const CHANGE_KINDS = ['added', 'removed', 'changed'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

export const LIMITS = {
  /** 4.2: ranking page size. */
  perPageDefault: 50,
  perPageMax: 200,
  /** 1.2: `q` length in characters. */
  qMaxChars: 100,
  /** 4.4: distinct tickers in a comparison. */
  compareMin: 2,
  compareMax: 5,
  /** 4.6: distinct codes in a batch. */
  batchMax: 100,
  /** 4.7: distinct codes in an evidence pack. */
  packMax: 50,
  /** 2: POST bodies. */
  bodyBytes: 64 * 1024,
  /** A request's URL (path and query), in bytes: longer is 414. */
  urlBytes: 8 * 1024,
  /** A request's header lines together, in bytes: more is 431. */
  headerBytes: 16 * 1024,
  /** 10: changes per static page (and the computed page size's default and maximum). */
  changesPerPage: 200,
  /** 10: snapshots (entries) in the Atom feed. */
  feedEntries: 12,
} as const;

/** Contract 6: access tiers, keyless first; a tier's number (Tier 0–3) is its position. */
export const TIERS = ['free', 'academic', 'developer', 'commercial'] as const;
export type Tier = (typeof TIERS)[number];
/** The tiers a key is created for; `free` needs no key. */
export const KEY_TIERS = ['academic', 'developer', 'commercial'] as const satisfies readonly Tier[];
export type KeyTier = (typeof KEY_TIERS)[number];

/** Contract 6: the quota buckets, in the order of the contract's table. */
export const QUOTA_BUCKETS = ['calls/day', 'calls/min', 'batch/day', 'csv/day', 'packs/day'] as const;
export type QuotaBucket = (typeof QUOTA_BUCKETS)[number];

/** Contract 6: the request header that carries an API key. */
export const API_KEY_HEADER = 'X-API-Key';

import { z } from 'zod';
import { changeItemSchema, changesQuerySchema, changesResponseSchema, type ChangeItem, type ChangesResponse } from '../../src/contract/changes.js';
import { compareResponseSchema } from '../../src/contract/compare.js';
import { companyResponseSchema } from '../../src/contract/company.js';
import { canonicalViewSchema } from '../../src/contract/canonical.js';
import { etfListResponseSchema, etfResponseSchema } from '../../src/contract/etf.js';
import { historyResponseSchema } from '../../src/contract/history.js';
import { methodologyResponseSchema } from '../../src/contract/methodology.js';
import { codeSchema, intParam } from '../../src/contract/params.js';
import { RequestRuleError } from '../../src/contract/parse-request.js';
import { canonicalQuerySchema, compareQuerySchema, noQuerySchema, rankingQuerySchema } from '../../src/contract/queries.js';
import { CAUSE_KINDS, LIMITS } from '../../src/contract/vocabulary.js';
import { rankingResponseSchema } from '../../src/contract/ranking.js';
import { fullPath, operation, type OperationId } from '../../src/contract/routes.js';
import { urls } from '../../src/contract/urls.js';
import type { SnapshotStore } from '../../src/snapshot/store.js';
import { companyView } from '../../src/views/company.js';
import { etfListView, etfView } from '../../src/views/etf.js';
import { methodologyView } from '../../src/views/methodology.js';
import { unknownFund, unknownTickers } from '../../src/contract/named-errors.js';
import { canonicalBody } from '../routes/canonical.js';
import { changesBody } from '../routes/changes.js';
import { compareBody } from '../routes/compare.js';
import { rankingBody } from '../routes/ranking.js';
import { absentFile, readTreeFile } from '../routes/tree.js';
import { storedHistoryFile } from '../routes/pinned-history.js';
import type { SnapshotSource } from '../kit/snapshot-source.js';

/**
 * The MCP tools (docs/mcp.md): each is one API request. Its arguments are that request's
 * parameters, checked by the contract's own schema (src/contract/queries.ts) with the API's rules
 * and messages, and its answer is the API's body for it, built by the same function the route
 * calls (server/routes/*, src/views/*). So a tool cannot answer what the API would not.
 */
export interface Tool {
  name: string;
  title: string;
  /** What a model reads to choose the tool and fill its arguments. */
  description: string;
  /** The API operation it stands for, and its query with `<arg>` placeholders (docs and tests; `apiRequest` spells it). */
  api: { op: OperationId; query?: string };
  /** Arguments: a strict contract schema over the API's path and query parameters. */
  input: z.ZodObject;
  /** The API's response schema for the request. */
  output: z.ZodType;
  /** The API's body for the parsed arguments; throws the API's error (ApiError) otherwise. */
  run(store: SnapshotStore, source: SnapshotSource, args: Record<string, unknown>): object;
}

/** The API request a tool stands for, `GET /api/v1/company/{ticker}?…`, spelled from the route table. */
export function apiRequest(tool: Tool): string {
  const op = operation(tool.api.op);
  return `${op.method} ${fullPath(op)}${tool.api.query === undefined ? '' : `?${tool.api.query}`}`;
}

const TICKER = 'ticker: a TWSE/TPEx stock code such as 2330 (use find_company to get it from a name)';
const SOURCED =
  'Every fact carries its source_id (resolve it with the esg://sources/registry resource), and the answer names its dataset_snapshot_id and methodology_version: cite them.';

/** The history file as the API serves it (a company history is static: no view runs in the shim). */
function servedHistory(store: SnapshotStore, source: SnapshotSource, ticker: string): object {
  const url = urls.history(ticker);
  const file = readTreeFile(store.dir, url) ?? storedHistoryFile(source.root, store.meta.dataset_snapshot_id, url);
  if (!file) throw absentFile(store, source, url, unknownTickers([ticker]).message, (s) => s.company(ticker) !== undefined);
  return JSON.parse(file.bytes.toString('utf8')) as object;
}

const findInput = z.strictObject({
  q: rankingQuerySchema.shape.q.unwrap().meta({
    description: `Part of a company name (Chinese, e.g. 台積電, or its legal name) or of its code; case-insensitive, at most ${LIMITS.qMaxChars} characters`,
  }),
  limit: rankingQuerySchema.shape.limit,
});

/** The ranking's defaults (sort, mode, page), for a search that sets only `q` and `limit`. */
const RANKING_DEFAULTS = rankingQuerySchema.parse({});

/**
 * A code argument: the API's path rule, described as a tool takes it (the bare code: the `.json`
 * suffix a URL may carry is no part of an argument, and is refused).
 */
const tickerArg = codeSchema('ticker', false);
const tickerInput = z.strictObject({ ticker: tickerArg });
const fundInput = z.strictObject({ code: codeSchema('fund code', false) });

/** get_changes pages of 20, not the API's 200: a default call is about a tenth of a page of /changes. */
export const CHANGES_TOOL_LIMIT = 20;

/** `true` or `false` (a model may also send them as strings); a boolean in the tool's JSON Schema. */
const booleanArg = (name: string, description: string) =>
  z
    .string()
    .regex(/^(true|false)$/, { error: (iss) => `Query parameter "${name}" must be true or false; got "${String(iss.input).slice(0, 40)}".` })
    .optional()
    .transform((v) => v === 'true')
    .meta({
      description: `${description} (default false)`,
      override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
        delete jsonSchema.pattern;
        Object.assign(jsonSchema, { type: 'boolean', default: false });
      },
    });

const changesInput = changesQuerySchema.extend({
  ticker: tickerArg
    .optional()
    .meta({ description: 'Only this company’s change (the other filters still apply): why its score, verdict or flags moved' }),
  limit: intParam('limit', { min: 1, max: LIMITS.changesPerPage }, CHANGES_TOOL_LIMIT).meta({
    description: `Page size, 1–${LIMITS.changesPerPage} (default ${CHANGES_TOOL_LIMIT})`,
  }),
  compact: booleanArg(
    'compact',
    'One short line per company (ticker, name, kind of change, score before and after, score_delta and the kinds ' +
      'of its causes) instead of every cause with its points, detail and source_id; ask again with ticker for the why',
  ),
});

/** get_changes with compact: true: an item of /changes cut to what lists the moves. */
export const compactChangeItemSchema = z
  .strictObject({
    ticker: changeItemSchema.shape.ticker,
    company_name: z.string(),
    change: changeItemSchema.shape.change,
    score_before: z.number().int().min(0).max(100).nullable(),
    score_after: z.number().int().min(0).max(100).nullable(),
    score_delta: changeItemSchema.shape.score_delta,
    cause_kinds: z.array(z.enum(CAUSE_KINDS)).meta({ description: 'The kinds of its causes, each once, in the order of its causes' }),
  })
  .meta({ id: 'CompactChangeItem' });

const compactChange = (x: ChangeItem): z.output<typeof compactChangeItemSchema> => ({
  ticker: x.ticker,
  company_name: x.company_name,
  change: x.change,
  score_before: x.before?.credibility_score ?? null,
  score_after: x.after?.credibility_score ?? null,
  score_delta: x.score_delta,
  cause_kinds: [...new Set(x.causes.map((c) => c.kind))],
});

/** The tool's answer: the API's body for /changes, its items compact when asked. */
const changesToolOutput = changesResponseSchema.extend({ data: z.array(z.union([changeItemSchema, compactChangeItemSchema])) });

/**
 * get_changes: the API's /changes with a ticker filter. A ticker that is in neither this snapshot
 * nor the changes (a company dropped since the last snapshot is in the changes, as `removed`) is
 * NOT_FOUND, as on every tool, rather than an empty page that would read as "nothing changed".
 */
function changesToolBody(store: SnapshotStore, a: Record<string, unknown>): ChangesResponse | z.output<typeof changesToolOutput> {
  const query = a as unknown as Parameters<typeof changesBody>[1] & { compact: boolean };
  const body = changesBody(store, query);
  if (query.ticker !== undefined && body.meta.total === 0 && !store.company(query.ticker)) {
    const anyChange = changesBody(store, { ticker: query.ticker, page: 1, limit: 1 } as Parameters<typeof changesBody>[1]);
    if (anyChange.meta.total === 0) throw unknownTickers([query.ticker]);
  }
  return query.compact ? { ...body, data: body.data.map(compactChange) } : body;
}

export const TOOLS: readonly Tool[] = [
  {
    name: 'find_company',
    title: 'Find a company',
    description:
      'Find Taiwan-listed companies by part of their name or code; returns matching tickers with name, credibility ' +
      'score (0–100), verdict and rank, best score first. Start here when the user names a company.',
    api: { op: 'ranking', query: 'q=<q>&limit=<limit>' },
    input: findInput,
    output: rankingResponseSchema,
    run(store, _source, a) {
      if (a.q === undefined) throw new RequestRuleError('"q" is empty: give part of a company name or code.');
      return rankingBody(store, { ...RANKING_DEFAULTS, q: a.q as string, limit: a.limit as number });
    },
  },
  {
    name: 'get_company',
    title: 'Company analysis',
    description:
      `A company’s ESG-disclosure credibility analysis: score 0–100 with its breakdown by methodology component ` +
      `(disclosure, assurance, compliance, consistency), verdict, rank and percentile, assurance level, top red ` +
      `flags, carbon-fee liability and EU CBAM exposure. ${TICKER}.`,
    api: { op: 'company' },
    input: tickerInput,
    output: companyResponseSchema,
    run(store, _source, a) {
      const company = store.company(a.ticker as string);
      if (!company) throw unknownTickers([a.ticker as string]);
      return companyView(store.meta, company);
    },
  },
  {
    name: 'get_company_facts',
    title: 'Company facts with sources',
    description:
      `The facts behind a company’s score, each with its source: environmental penalties (date, fine, agency, link ` +
      `to the government record), greenhouse-gas disclosure (scope 1/2/3, verified or not, registry total), ` +
      `carbon-fee obligation, assurance of its sustainability report, red flags, and its disclosure conduct (the ` +
      `exchanges’ penalties for disclosure breaches and FSC sanctions: kind, date, summary, rule, fine). ${TICKER}. ${SOURCED}`,
    api: { op: 'canonical', query: 'fields=<fields>' },
    input: z.strictObject({ ...tickerInput.shape, ...canonicalQuerySchema.shape }),
    output: canonicalViewSchema,
    run: (store, _source, a) => canonicalBody(store, a.ticker as string, a.fields as Parameters<typeof canonicalBody>[2]),
  },
  {
    name: 'get_company_history',
    title: 'Company score history',
    description:
      `A company’s score, verdict, rank, flags and score breakdown in every published snapshot (monthly), newest ` +
      `first: how its score moved over time. ${TICKER}. For why it moved in the latest snapshot, use get_changes ` +
      `with the ticker.`,
    api: { op: 'history' },
    input: tickerInput,
    output: historyResponseSchema,
    run: (store, source, a) => servedHistory(store, source, a.ticker as string),
  },
  {
    name: 'compare_companies',
    title: 'Compare companies',
    description: `Compare 2 to 5 companies side by side: each one’s summary (score, verdict, rank, breakdown) and its sourced facts. tickers: comma-separated codes, e.g. "2330,2303". ${SOURCED}`,
    api: { op: 'compare', query: 'tickers=<tickers>&fields=<fields>' },
    input: compareQuerySchema,
    output: compareResponseSchema,
    run: (store, _source, a) => compareBody(store, a.tickers as string[], a.fields as Parameters<typeof compareBody>[2]),
  },
  {
    name: 'rank_companies',
    title: 'Ranking',
    description:
      'The market ranking by credibility score, filtered and paged: by TWSE industry (Chinese name, e.g. 半導體業), ' +
      'assurance level, market (listed/otc), red-flag id (gf, e.g. GF-P01) or name/code substring (q); sort best or ' +
      'worst first; mode=full gives each company’s whole summary. Ranks are always over the whole market.',
    api: { op: 'ranking', query: '<parameters>' },
    input: rankingQuerySchema.omit({ format: true }),
    output: rankingResponseSchema,
    run: (store, _source, a) => rankingBody(store, a as unknown as Parameters<typeof rankingBody>[1]),
  },
  {
    name: 'list_etfs',
    title: 'ESG ETFs covered',
    description: 'The ESG-themed Taiwan ETFs this service rates, with their codes; use get_etf for one of them.',
    api: { op: 'etfList' },
    input: noQuerySchema,
    output: etfListResponseSchema,
    run: (store) => etfListView(store.meta, store.etfs()),
  },
  {
    name: 'get_etf',
    title: 'ETF result',
    description:
      'An ESG ETF’s holdings scored: weighted average and lowest credibility score of the holdings, assurance ' +
      'coverage, and each holding with its weight and score. code: the fund code, e.g. 00850 (list_etfs gives them).',
    api: { op: 'etf' },
    input: fundInput,
    output: etfResponseSchema,
    run(store, _source, a) {
      const code = a.code as string;
      const found = store.etf(code);
      if (!found) throw unknownFund(code);
      return etfView(store.meta, found.etf, found.holdings, (t) => store.company(t));
    },
  },
  {
    name: 'get_changes',
    title: 'What changed and why',
    description:
      `What changed since the previous snapshot and why: for each company whose score, verdict or flags moved, the ` +
      `before and after, score_delta, and its causes (new or aged-out penalties, new or changed disclosures, ` +
      `assurance, carbon fee, timeliness, methodology), each with the points it moved, a readable detail and the ` +
      `source_id of the fact behind it. Give ticker to ask why one company’s score changed; filter by cause kind, ` +
      `industry or minimum |score_delta| otherwise. ${CHANGES_TOOL_LIMIT} companies a page unless limit says ` +
      `otherwise; compact: true lists the moves in a line each. ${SOURCED}`,
    api: { op: 'changes', query: '<parameters> (ticker and compact: this tool’s own; limit defaults to 20)' },
    input: changesInput,
    output: changesToolOutput,
    run: (store, _source, a) => changesToolBody(store, a),
  },
  {
    name: 'get_methodology',
    title: 'Methodology',
    description:
      'How the credibility score is computed (methodology as data): the four components and their point rules, ' +
      'verdict bands, every red flag (id, severity, when raised), the carbon-fee and CBAM rules, and the units. Use ' +
      'it to explain a score or a flag.',
    api: { op: 'methodology' },
    input: noQuerySchema,
    output: methodologyResponseSchema,
    run: (store) => methodologyView(store.meta, store.cbamProducts()),
  },
];

export const TOOLS_BY_NAME: ReadonlyMap<string, Tool> = new Map(TOOLS.map((t) => [t.name, t]));

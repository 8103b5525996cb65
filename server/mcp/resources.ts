import type { CompleteResult, ListResourcesResult, ListResourceTemplatesResult, ReadResourceResult } from '@modelcontextprotocol/server';
import { urls } from '../../src/contract/urls.js';
import type { SnapshotStore } from '../../src/snapshot/store.js';
import { ApiError } from '../../src/contract/errors.js';
import { parseCode } from '../../src/contract/params.js';
import { LIMITS } from '../../src/contract/vocabulary.js';
import { readTreeFile } from '../routes/tree.js';
import { rankingBody } from '../routes/ranking.js';
import type { SnapshotSource } from '../kit/snapshot-source.js';
import { JsonRpcError, RPC } from './call.js';
import { TOOLS_BY_NAME } from './tools.js';

/**
 * Read-only MCP resources: the API's static documents every answer refers to, each the exact body
 * of its API path in the current snapshot (a static file, so reading one counts toward no quota,
 * as the file itself would not).
 */
const RESOURCES = [
  {
    uri: 'esg://methodology',
    name: 'methodology',
    title: 'Methodology',
    description: `How the credibility score, verdicts and red flags are computed (the body of GET ${urls.methodology}).`,
    url: urls.methodology,
  },
  {
    uri: 'esg://sources/registry',
    name: 'source-registry',
    title: 'Source registry',
    description: `Every data source behind the facts, by source_id: publisher, licence, update frequency, the files read (GET ${urls.registry}).`,
    url: urls.registry,
  },
  {
    uri: 'esg://snapshots',
    name: 'snapshots',
    title: 'Published snapshots',
    description: `Every published snapshot, newest first, with its as-of date, methodology version, counts and download files (GET ${urls.snapshots}).`,
    url: urls.snapshots,
  },
] as const;

const MIME_TYPE = 'application/json';

const listed: ListResourcesResult = { resources: RESOURCES.map(({ url: _url, ...r }) => ({ ...r, mimeType: MIME_TYPE })) };
export const resourceList = (): ListResourcesResult => listed;

/**
 * Resource templates: one company or one ETF, each the answer of the tool that reads it (get_company,
 * get_etf), so the same body as GET /api/v1/company/<ticker> and /etf/<code>. `argument` names the
 * URI's variable, for completion.
 */
const TEMPLATES = [
  {
    uriTemplate: 'esg://company/{ticker}',
    name: 'company',
    title: 'Company analysis',
    description: `One company’s credibility analysis, by ticker (the body of GET ${urls.company('<ticker>')}, as the get_company tool answers); tickers complete.`,
    tool: 'get_company',
    argument: 'ticker',
  },
  {
    uriTemplate: 'esg://etf/{code}',
    name: 'etf',
    title: 'ESG ETF result',
    description: `One ESG ETF’s holdings scored, by fund code (the body of GET ${urls.etf('<code>')}, as the get_etf tool answers); codes complete.`,
    tool: 'get_etf',
    argument: 'code',
  },
] as const;

const templates: ListResourceTemplatesResult = {
  resourceTemplates: TEMPLATES.map(({ uriTemplate, name, title, description }) => ({ uriTemplate, name, title, description, mimeType: MIME_TYPE })),
};
export const resourceTemplateList = (): ListResourceTemplatesResult => templates;

const notFound = (uri: string, why: string) =>
  new JsonRpcError(RPC.resourceNotFound, `Resource not found: ${uri.slice(0, 80)}; ${why}`, { uri: uri.slice(0, 200) });

/** A URI of a template: its body from the tool, or "resource not found" with the tool's reason (unknown or malformed code). */
function readTemplated(store: SnapshotStore, source: SnapshotSource, uri: string): ReadResourceResult | undefined {
  for (const t of TEMPLATES) {
    const prefix = t.uriTemplate.slice(0, t.uriTemplate.indexOf('{'));
    if (!uri.startsWith(prefix)) continue;
    const code = parseCode(decodeURIComponent(uri.slice(prefix.length)), t.argument === 'ticker' ? 'ticker' : 'fund code');
    if (typeof code !== 'string') throw notFound(uri, code.error);
    try {
      const body = TOOLS_BY_NAME.get(t.tool)!.run(store, source, { [t.argument]: code });
      return { contents: [{ uri, mimeType: MIME_TYPE, text: JSON.stringify(body) }] };
    } catch (e) {
      if (e instanceof ApiError && e.code === 'NOT_FOUND') throw notFound(uri, `${e.message}.`);
      throw e;
    }
  }
  return undefined;
}

export function readResource(store: SnapshotStore, source: SnapshotSource, uri: string): ReadResourceResult {
  const resource = RESOURCES.find((r) => r.uri === uri);
  if (!resource) {
    const templated = readTemplated(store, source, uri);
    if (templated) return templated;
    throw notFound(
      uri,
      `the resources are ${RESOURCES.map((r) => r.uri).join(', ')}, and the templates ${TEMPLATES.map((t) => t.uriTemplate).join(', ')}.`,
    );
  }
  const file = readTreeFile(store.dir, resource.url);
  if (!file) throw new ApiError('UPSTREAM_FAILURE', `The snapshot has no ${resource.url}.`);
  return { contents: [{ uri: resource.uri, mimeType: MIME_TYPE, text: file.bytes.toString('utf8') }] };
}

/** At most this many values in one completion (the protocol's own cap). */
const COMPLETION_MAX = 100;

/**
 * Tickers for a partial one: the companies whose code or name contains it, as find_company searches
 * (the ranking's own index), those whose code starts with it first. Nothing typed yet: the first
 * tickers of the snapshot.
 */
export function completeTicker(store: SnapshotStore, value: string): CompleteResult['completion'] {
  const typed = value.trim().slice(0, LIMITS.qMaxChars);
  if (typed === '') {
    const total = store.companyCount();
    return { values: store.firstTickers(COMPLETION_MAX), total, hasMore: total > COMPLETION_MAX };
  }
  const found = rankingBody(store, { q: typed, limit: COMPLETION_MAX, page: 1, sort: 'score_desc', mode: 'compact' });
  const tickers = found.data.map((r) => r.ticker);
  const upper = typed.toUpperCase();
  const values = [...tickers.filter((t) => t.startsWith(upper)), ...tickers.filter((t) => !t.startsWith(upper))];
  return { values, total: found.meta.total, hasMore: found.meta.total > values.length };
}

/** Fund codes that start with a partial one (there are a handful of ETFs). */
function completeFundCode(store: SnapshotStore, value: string): CompleteResult['completion'] {
  const upper = value.trim().toUpperCase();
  const values = store
    .etfs()
    .map((e) => e.etf_code)
    .filter((c) => c.startsWith(upper));
  return { values: values.slice(0, COMPLETION_MAX), total: values.length, hasMore: values.length > COMPLETION_MAX };
}

/** Completion of a template's variable; undefined when the URI is no template of this server or the argument not its variable. */
export function completeTemplate(store: SnapshotStore, uri: string, argument: string, value: string): CompleteResult['completion'] | undefined {
  const t = TEMPLATES.find((x) => x.uriTemplate === uri);
  if (!t || t.argument !== argument) return undefined;
  return t.argument === 'ticker' ? completeTicker(store, value) : completeFundCode(store, value);
}

import type { GetPromptResult, ListPromptsResult, PromptMessage } from '@modelcontextprotocol/server';
import type { ChangesResponse } from '../../src/contract/changes.js';
import type { CompanyResponse } from '../../src/contract/company.js';
import { parseCode } from '../../src/contract/params.js';
import { LIMITS } from '../../src/contract/vocabulary.js';
import type { SnapshotStore } from '../../src/snapshot/store.js';
import { ApiError } from '../../src/contract/errors.js';
import type { SnapshotSource } from '../kit/snapshot-source.js';
import { JsonRpcError, RPC } from './call.js';
import { TOOLS_BY_NAME } from './tools.js';

/**
 * MCP prompts: the three questions people ask of a company, each a user message that says what to
 * answer and how to cite, followed by the data to answer from. The data are the tools' own answers
 * (so the API's bodies, from the same views): a prompt states nothing the tools would not.
 */
interface Prompt {
  name: string;
  title: string;
  description: string;
  /** The question, for a company named `who` (its name and ticker). */
  ask(who: string, company: CompanyResponse): string;
  /** The data after the question, from the tools. */
  data(store: SnapshotStore, source: SnapshotSource, ticker: string, company: CompanyResponse): PromptMessage[];
}

const CITE =
  'Answer only from the data below; cite its dataset_snapshot_id and methodology_version, and the source_id of ' +
  'each fact you use (the esg://sources/registry resource names them); say so when the snapshot is demo data.';

const run = (store: SnapshotStore, source: SnapshotSource, tool: string, args: Record<string, unknown>) =>
  TOOLS_BY_NAME.get(tool)!.run(store, source, args);

/** A user message carrying a tool's answer as text, named by the tool call that gives it. */
const toolAnswer = (call: string, body: object): PromptMessage => ({
  role: 'user',
  content: { type: 'text', text: `${call}:\n${JSON.stringify(body)}` },
});

/** The company itself, as the esg://company/{ticker} resource, embedded. */
const companyResource = (ticker: string, company: CompanyResponse): PromptMessage => ({
  role: 'user',
  content: { type: 'resource', resource: { uri: `esg://company/${ticker}`, mimeType: 'application/json', text: JSON.stringify(company) } },
});

const PROMPTS: readonly Prompt[] = [
  {
    name: 'explain_score',
    title: 'Explain this company’s score',
    description: 'Explain a company’s ESG-disclosure credibility score: what each component gave, its verdict, rank and red flags.',
    ask: (who) =>
      `Explain the ESG-disclosure credibility score of ${who}: the points of each methodology component (disclosure, ` +
      `assurance, compliance, consistency), the verdict and rank it leads to, and what each red flag means. The ` +
      `rules are in the esg://methodology resource (get_methodology); the sourced facts in get_company_facts. ${CITE}`,
    data: (store, source, ticker, company) => [
      companyResource(ticker, company),
      toolAnswer(`get_company_facts {"ticker":"${ticker}"}`, run(store, source, 'get_company_facts', { ticker })),
    ],
  },
  {
    name: 'why_changed',
    title: 'Why did its score change',
    description:
      'Why a company’s score, verdict or flags changed since the previous snapshot, cause by cause, with the points each moved and its source.',
    ask: (who) =>
      `Why did the credibility score of ${who} change since the previous snapshot? Go through its causes: what ` +
      `happened, how many points each moved (they add up to score_delta), and the source_id of the fact behind it. ` +
      `If the data show no change for it, say that it did not change and name the two snapshots. For its score over ` +
      `a longer time, get_company_history. ${CITE}`,
    data: (store, source, ticker, company) => {
      const changes = run(store, source, 'get_changes', { ticker, page: 1, limit: 1 }) as ChangesResponse;
      return [companyResource(ticker, company), toolAnswer(`get_changes {"ticker":"${ticker}"}`, changes)];
    },
  },
  {
    name: 'compare_with_industry',
    title: 'Compare with its industry',
    description:
      'Compare a company’s credibility with the other companies of its TWSE industry: where it stands, and what the better ones do differently.',
    ask: (who, company) =>
      `Compare ${who} with the other companies of its industry (${company.company.industry}): where its score, ` +
      `verdict and red flags stand among them, and what the better-scored ones disclose or have assured that it does ` +
      `not. Ranks are over the whole market. compare_companies gives the facts of up to 5 side by side. ${CITE}`,
    data: (store, source, ticker, company) => {
      const industry = company.company.industry;
      const args = { industry, limit: LIMITS.perPageDefault, page: 1, sort: 'score_desc', mode: 'compact' };
      return [
        companyResource(ticker, company),
        toolAnswer(
          `rank_companies {"industry":${JSON.stringify(industry)},"limit":${LIMITS.perPageDefault}}`,
          run(store, source, 'rank_companies', args),
        ),
      ];
    },
  },
];

const TICKER_ARGUMENT = {
  name: 'ticker',
  description: 'The company’s TWSE/TPEx code, e.g. 2330 (find_company gives it from a name); completes',
  required: true,
};

const listed: ListPromptsResult = {
  prompts: PROMPTS.map((p) => ({ name: p.name, title: p.title, description: p.description, arguments: [TICKER_ARGUMENT] })),
};
export const promptList = (): ListPromptsResult => listed;
export const isPrompt = (name: string): boolean => PROMPTS.some((p) => p.name === name);

/**
 * prompts/get: an unknown prompt, a missing, malformed or unknown ticker are "invalid params"
 * (-32602), as the protocol says for prompts; the message says which.
 */
export function getPrompt(store: SnapshotStore, source: SnapshotSource, name: string, args: Record<string, unknown> | undefined): GetPromptResult {
  const prompt = PROMPTS.find((p) => p.name === name);
  if (!prompt)
    throw new JsonRpcError(RPC.invalidParams, `Unknown prompt "${name.slice(0, 40)}"; the prompts are: ${PROMPTS.map((p) => p.name).join(', ')}.`);
  const raw = args?.ticker;
  if (typeof raw !== 'string') throw new JsonRpcError(RPC.invalidParams, `Prompt ${prompt.name} takes the argument "ticker", a company's code.`);
  const ticker = parseCode(raw.trim(), 'ticker');
  if (typeof ticker !== 'string') throw new JsonRpcError(RPC.invalidParams, ticker.error);
  let company: CompanyResponse;
  try {
    company = run(store, source, 'get_company', { ticker }) as CompanyResponse;
  } catch (e) {
    if (e instanceof ApiError && e.code === 'NOT_FOUND') throw new JsonRpcError(RPC.invalidParams, `${e.message}.`);
    throw e;
  }
  const who = `${company.company.company_name} (${ticker})`;
  return {
    description: `${prompt.title}: ${who}`,
    messages: [{ role: 'user', content: { type: 'text', text: prompt.ask(who, company) } }, ...prompt.data(store, source, ticker, company)],
  };
}

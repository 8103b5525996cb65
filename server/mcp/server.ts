import { readFileSync } from 'node:fs';
import type { Request, Response } from 'express';
import { AsyncLocalStorage } from 'node:async_hooks';
import {
  DEFAULT_NEGOTIATED_PROTOCOL_VERSION,
  PROTOCOL_VERSION_META_KEY,
  Server,
  type CallToolResult,
  type CompleteRequest,
  type ServerContext,
  type ServerOptions,
} from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { truncate } from '../../src/contract/params.js';
import type { QuotaBucket } from '../../src/contract/vocabulary.js';
import type { Access } from '../access/index.js';
import type { Logger } from '../kit/logger.js';
import { noteTool } from '../kit/observe.js';
import type { SnapshotSource } from '../kit/snapshot-source.js';
import type { SnapshotStore } from '../../src/snapshot/store.js';
import { apiFailure, JsonRpcError, parseArguments, RPC, toolFailure, toolList, toolResult, type FailureContext } from './call.js';
import { getPrompt, isPrompt, promptList } from './prompts.js';
import { completeTemplate, completeTicker, readResource, resourceList, resourceTemplateList } from './resources.js';
import { TOOLS, TOOLS_BY_NAME } from './tools.js';

const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const SERVER_INFO = { name: 'esg-credibility-tw', title: 'ESG disclosure credibility (Taiwan)', version: VERSION };

/** What a model is told at initialize: how the tools fit together to answer from the service's own data. */
const INSTRUCTIONS = [
  'Credibility of the ESG and carbon disclosures of Taiwan-listed companies (TWSE and TPEx), from government and exchange open data.',
  'Find a company with find_company (by name or code), then get_company for its score and breakdown, ' +
    'get_company_facts for the sourced facts, get_changes with its ticker for why its score changed since the ' +
    'previous snapshot (each cause with its points and source_id), get_company_history for its score over time.',
  'Every answer names its dataset_snapshot_id and methodology_version, and every fact its source_id (the ' +
    'esg://sources/registry resource resolves them): cite them, and say when a snapshot is demo data.',
  'The prompts explain_score, why_changed and compare_with_industry ask those questions of one company, with its data attached.',
].join(' ');

/** Every tools/call counts as one call toward the caller's quota, as an API call does (contract 6). */
const TOOL_CALL_BUCKETS: readonly QuotaBucket[] = ['calls/day', 'calls/min'];

/** One validator for every request's server: each Server would otherwise build its own Ajv. */
const jsonSchemaValidator = new AjvJsonSchemaValidator();

/** One request to /mcp: who asked, where to answer, and what the answers come from. */
export interface McpRequest {
  req: Request;
  res: Response;
  snapshots: SnapshotSource;
  access?: Access;
  logger: Logger;
}

/**
 * The request being answered. The SDK's handler builds a server per request from a factory that
 * is given only the web `Request`; metering, the request id and the logs need Express's own pair,
 * so the route runs the SDK inside `requestScope.run(request, …)` and the server reads it here.
 */
export const requestScope = new AsyncLocalStorage<McpRequest>();

/**
 * The protocol version a request is under: the version its `_meta` names (2026-07-28: every
 * request carries it), else its MCP-Protocol-Version header (the SDK has refused an unsupported
 * one), else 2025-03-26, as the 2025 transport spec says to assume.
 */
const protocolVersionOf = (req: Request, ctx: ServerContext): string => {
  const claimed = (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[PROTOCOL_VERSION_META_KEY];
  if (typeof claimed === 'string') return claimed;
  const header = req.headers['mcp-protocol-version'];
  return typeof header === 'string' ? header : DEFAULT_NEGOTIATED_PROTOCOL_VERSION;
};

const failureContext = (r: McpRequest, ctx: ServerContext): FailureContext => ({
  snapshots: r.snapshots,
  requestId: r.res.locals.requestId as string,
  logger: r.logger,
  protocolVersion: protocolVersionOf(r.req, ctx),
});

/**
 * A tool call, metered first (a call that then fails validation still counts, as on the API; a spent
 * quota is the tool's error result naming the reset time, never a transport failure).
 */
async function callTool(r: McpRequest, ctx: ServerContext, name: string, args: Record<string, unknown> | undefined): Promise<CallToolResult> {
  const failure = failureContext(r, ctx);
  try {
    await r.access?.meter(r.req, r.res, TOOL_CALL_BUCKETS, { bearer: true });
  } catch (e) {
    return toolFailure(e, failure);
  }
  const tool = TOOLS_BY_NAME.get(name);
  if (!tool) throw new JsonRpcError(RPC.invalidParams, `Unknown tool "${truncate(name)}"; the tools are: ${TOOLS.map((t) => t.name).join(', ')}.`);
  noteTool(r.res, tool.name);
  try {
    const input = parseArguments(tool, args);
    const store = r.snapshots.current();
    return toolResult(tool.run(store, r.snapshots, input));
  } catch (e) {
    return toolFailure(e, failure);
  }
}

/**
 * What reads the snapshot for a resource, a prompt or a completion; a snapshot that cannot be read
 * is a JSON-RPC error carrying the API's envelope (a JsonRpcError of the reader's own goes as it is).
 */
function fromSnapshot<T>(r: McpRequest, ctx: ServerContext, read: (store: SnapshotStore) => T): T {
  try {
    return read(r.snapshots.current());
  } catch (e) {
    if (e instanceof JsonRpcError) throw e;
    const { error, body } = apiFailure(e, failureContext(r, ctx));
    throw new JsonRpcError(RPC.internalError, error.message, body);
  }
}

/**
 * completion/complete: tickers for the company template and for every prompt (their one argument),
 * fund codes for the ETF template; any other reference is "invalid params", as the protocol has it.
 */
function complete(store: SnapshotStore, params: CompleteRequest['params'] | undefined) {
  const ref = params?.ref;
  const argument = params?.argument;
  if (!ref || !argument || typeof argument.name !== 'string' || typeof argument.value !== 'string')
    throw new JsonRpcError(RPC.invalidParams, 'completion/complete takes params.ref and params.argument {name, value}.');
  const completion =
    ref.type === 'ref/resource'
      ? completeTemplate(store, String(ref.uri), argument.name, argument.value.slice(0, 200))
      : ref.type === 'ref/prompt' && isPrompt(String(ref.name)) && argument.name === 'ticker'
        ? completeTicker(store, argument.value.slice(0, 200))
        : undefined;
  if (!completion)
    throw new JsonRpcError(RPC.invalidParams, `Nothing to complete for argument "${String(argument.name).slice(0, 40)}" of that reference.`);
  return { completion };
}

/**
 * Cache hints of the 2026-07-28 lists (`ttlMs`, `cacheScope`). The tools, resources, templates and
 * prompts are the code's own and never differ between callers, so any cache may keep them; they
 * change only when a new release or snapshot is published, so for as long as the API's own files
 * are cached (CACHE_PUBLIC, an hour). A resource's body is the snapshot's file, cached as the file is.
 */
const HOUR_MS = 3_600_000;
const CACHE_HINTS: ServerOptions['cacheHints'] = {
  'tools/list': { ttlMs: HOUR_MS, cacheScope: 'public' },
  'prompts/list': { ttlMs: HOUR_MS, cacheScope: 'public' },
  'resources/list': { ttlMs: HOUR_MS, cacheScope: 'public' },
  'resources/templates/list': { ttlMs: HOUR_MS, cacheScope: 'public' },
  'resources/read': { ttlMs: HOUR_MS, cacheScope: 'public' },
  'server/discover': { ttlMs: HOUR_MS, cacheScope: 'public' },
};

/**
 * The MCP server for one request (stateless: the SDK's handler asks for a new one per POST, for
 * either revision). Building it only registers handlers: the tool list and its JSON Schemas are
 * made once (call.ts), and every server shares one JSON Schema validator.
 */
export function createMcpServer(): Server {
  const r = requestScope.getStore();
  if (!r) throw new Error('createMcpServer runs inside requestScope.run: the route gives it the request');
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: {}, resources: {}, prompts: {}, completions: {} },
    instructions: INSTRUCTIONS,
    jsonSchemaValidator,
    cacheHints: CACHE_HINTS,
  });
  server.setRequestHandler('tools/list', () => toolList());
  // The SDK has checked the params against its CallToolRequest schema by now (-32602 otherwise).
  server.setRequestHandler('tools/call', (request, ctx) => callTool(r, ctx, request.params.name, request.params.arguments));
  server.setRequestHandler('resources/list', () => resourceList());
  server.setRequestHandler('resources/templates/list', () => resourceTemplateList());
  server.setRequestHandler('resources/read', (request, ctx) => fromSnapshot(r, ctx, (store) => readResource(store, r.snapshots, request.params.uri)));
  server.setRequestHandler('prompts/list', () => promptList());
  server.setRequestHandler('prompts/get', (request, ctx) =>
    fromSnapshot(r, ctx, (store) => getPrompt(store, r.snapshots, request.params.name, request.params.arguments)),
  );
  server.setRequestHandler('completion/complete', (request, ctx) => fromSnapshot(r, ctx, (store) => complete(store, request.params)));
  return server;
}

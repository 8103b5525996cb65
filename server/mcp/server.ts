import { readFileSync } from 'node:fs';
import type { Request, Response } from 'express';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  DEFAULT_NEGOTIATED_PROTOCOL_VERSION,
  type CallToolRequest,
  type CallToolResult,
  type CompleteRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { z } from 'zod';
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
 * The protocol version a request is under: its MCP-Protocol-Version header (the SDK's transport has
 * refused an unsupported one), or 2025-03-26 without one, as the transport spec says to assume.
 */
const protocolVersionOf = (req: Request): string => {
  const header = req.headers['mcp-protocol-version'];
  return typeof header === 'string' ? header : DEFAULT_NEGOTIATED_PROTOCOL_VERSION;
};

const failureContext = (r: McpRequest): FailureContext => ({
  snapshots: r.snapshots,
  requestId: r.res.locals.requestId as string,
  logger: r.logger,
  protocolVersion: protocolVersionOf(r.req),
});

/**
 * A tool call, metered first (a call that then fails validation still counts, as on the API; a spent
 * quota is the tool's error result naming the reset time, never a transport failure).
 */
async function callTool(r: McpRequest, name: string, args: Record<string, unknown> | undefined): Promise<CallToolResult> {
  const failure = failureContext(r);
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
 * The schema a handler is registered with: its method, and params left to the handler. The SDK
 * parses a request with this schema before any handler runs, and answers a failed parse "internal
 * error" with the parser's text; its own check of tools/call (invalid params) runs after it.
 */
const method = <M extends string>(name: M) => z.object({ method: z.literal(name), params: z.unknown().optional() });
/** Made once: zod compiles a schema's parser on its first use, which a schema per request would pay every time. */
const REQUESTS = {
  listTools: method('tools/list'),
  callTool: method('tools/call'),
  listResources: method('resources/list'),
  listResourceTemplates: method('resources/templates/list'),
  readResource: method('resources/read'),
  listPrompts: method('prompts/list'),
  getPrompt: method('prompts/get'),
  complete: method('completion/complete'),
};

/**
 * What reads the snapshot for a resource, a prompt or a completion; a snapshot that cannot be read
 * is a JSON-RPC error carrying the API's envelope (a JsonRpcError of the reader's own goes as it is).
 */
function fromSnapshot<T>(r: McpRequest, read: (store: SnapshotStore) => T): T {
  try {
    return read(r.snapshots.current());
  } catch (e) {
    if (e instanceof JsonRpcError) throw e;
    const { error, body } = apiFailure(e, failureContext(r));
    throw new JsonRpcError(RPC.internalError, error.message, body);
  }
}

/**
 * The MCP server for one request (stateless: a new one per POST, as the SDK's stateless Streamable
 * HTTP mode wants). Building it only registers handlers: the tool list and its JSON Schemas are
 * made once (call.ts), and every server shares one JSON Schema validator.
 */
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

export function createMcpServer(r: McpRequest): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: {}, resources: {}, prompts: {}, completions: {} },
    instructions: INSTRUCTIONS,
    jsonSchemaValidator,
  });
  server.setRequestHandler(REQUESTS.listTools, () => toolList());
  // The SDK has checked the params against its CallToolRequest schema by now (-32602 otherwise).
  server.setRequestHandler(REQUESTS.callTool, (request) => {
    const params = request.params as CallToolRequest['params'];
    return callTool(r, params.name, params.arguments);
  });
  server.setRequestHandler(REQUESTS.listResources, () => resourceList());
  server.setRequestHandler(REQUESTS.listResourceTemplates, () => resourceTemplateList());
  server.setRequestHandler(REQUESTS.readResource, (request) => {
    const uri = (request.params as { uri?: unknown } | undefined)?.uri;
    if (typeof uri !== 'string') throw new JsonRpcError(RPC.invalidParams, 'resources/read takes params.uri, a string.');
    return fromSnapshot(r, (store) => readResource(store, r.snapshots, uri));
  });
  server.setRequestHandler(REQUESTS.listPrompts, () => promptList());
  server.setRequestHandler(REQUESTS.getPrompt, (request) => {
    const params = request.params as { name?: unknown; arguments?: Record<string, unknown> } | undefined;
    if (typeof params?.name !== 'string') throw new JsonRpcError(RPC.invalidParams, 'prompts/get takes params.name, a string.');
    const name = params.name;
    return fromSnapshot(r, (store) => getPrompt(store, r.snapshots, name, params.arguments));
  });
  server.setRequestHandler(REQUESTS.complete, (request) =>
    fromSnapshot(r, (store) => complete(store, request.params as CompleteRequest['params'] | undefined)),
  );
  return server;
}

import { readFileSync } from 'node:fs';
import type { Request, Response } from 'express';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolRequest, CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { z } from 'zod';
import { truncate } from '../../src/contract/params.js';
import type { QuotaBucket } from '../../src/contract/vocabulary.js';
import type { Access } from '../access/index.js';
import type { Logger } from '../logger.js';
import { noteTool } from '../observe.js';
import type { SnapshotSource } from '../snapshot-source.js';
import { apiFailure, JsonRpcError, parseArguments, RPC, toolFailure, toolList, toolResult, type FailureContext } from './call.js';
import { readResource, resourceList } from './resources.js';
import { TOOLS, TOOLS_BY_NAME } from './tools.js';

const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const SERVER_INFO = { name: 'esg-credibility-tw', title: 'ESG disclosure credibility (Taiwan)', version: VERSION };

/** What a model is told at initialize: how the tools fit together to answer from the service's own data. */
const INSTRUCTIONS = [
  'Credibility of the ESG and carbon disclosures of Taiwan-listed companies (TWSE and TPEx), from government and exchange open data.',
  'Find a company with find_company (by name or code), then get_company for its score and breakdown, get_company_facts for the sourced facts, get_changes with its ticker for why its score changed since the previous snapshot (each cause with its points and source_id), get_company_history for its score over time.',
  'Every answer names its dataset_snapshot_id and methodology_version, and every fact its source_id (the esg://sources/registry resource resolves them): cite them, and say when a snapshot is demo data.',
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

const failureContext = (r: McpRequest): FailureContext => ({ snapshots: r.snapshots, requestId: r.res.locals.requestId as string, logger: r.logger });

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
};

/** A resource read; a snapshot that cannot be read is a JSON-RPC error carrying the API's envelope. */
function readResourceOf(r: McpRequest, uri: string) {
  try {
    return readResource(r.snapshots.current(), uri);
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
export function createMcpServer(r: McpRequest): Server {
  const server = new Server(SERVER_INFO, { capabilities: { tools: {}, resources: {} }, instructions: INSTRUCTIONS, jsonSchemaValidator });
  server.setRequestHandler(REQUESTS.listTools, () => toolList());
  // The SDK has checked the params against its CallToolRequest schema by now (-32602 otherwise).
  server.setRequestHandler(REQUESTS.callTool, (request) => {
    const params = request.params as CallToolRequest['params'];
    return callTool(r, params.name, params.arguments);
  });
  server.setRequestHandler(REQUESTS.listResources, () => resourceList());
  server.setRequestHandler(REQUESTS.listResourceTemplates, () => ({ resourceTemplates: [] }));
  server.setRequestHandler(REQUESTS.readResource, (request) => {
    const uri = (request.params as { uri?: unknown } | undefined)?.uri;
    if (typeof uri !== 'string') throw new JsonRpcError(RPC.invalidParams, 'resources/read takes params.uri, a string.');
    return readResourceOf(r, uri);
  });
  return server;
}

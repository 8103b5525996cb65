import type { CallToolResult, ListToolsResult } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { parseQuery, RequestRuleError } from '../../src/contract/parse-request.js';
import { truncate } from '../../src/contract/params.js';
import type { ErrorBody } from '../../src/contract/common.js';
import { errorBody, toApiError } from '../kit/errors.js';
import { type ApiError } from '../../src/contract/errors.js';
import type { Logger } from '../kit/logger.js';
import type { SnapshotSource } from '../kit/snapshot-source.js';
import { TOOLS, type Tool } from './tools.js';

/**
 * JSON-RPC error codes the endpoint answers with (JSON-RPC 2.0). A missing resource is invalid params
 * with its `uri` as data (SEP-2164, MCP 2026-07-28), at every revision: the SDK v2 answers that code
 * to 2025 clients too, where 2025-11-25 named -32002.
 */
export const RPC = {
  parseError: -32700,
  invalidRequest: -32600,
  invalidParams: -32602,
  internalError: -32603,
  serverError: -32000,
  resourceNotFound: -32602,
} as const;

/**
 * An error the SDK sends as a JSON-RPC error with exactly this code, message and data (its
 * McpError would prefix "MCP error -32602:" to the message).
 */
export class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'JsonRpcError';
  }
}

/**
 * A tool's arguments as the API's query string: a scalar as a URL writes it, a list of strings
 * comma-separated (as `tickers` and `fields` are written), and `null` left out (many models send
 * null for an optional argument they do not mean to set; a required one is then reported missing).
 * Anything else is not an argument of any tool.
 */
function argumentsQuery(args: Record<string, unknown>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(args)) {
    if (value === null) continue;
    if (typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value)))
      query.append(name, String(value));
    else if (Array.isArray(value) && value.every((v) => typeof v === 'string')) query.append(name, value.join(','));
    else throw new RequestRuleError(`Argument "${truncate(name)}" must be a string, a number, true or false, or a list of strings.`);
  }
  return query.toString();
}

/**
 * The arguments checked and converted by the tool's contract schema, with the API's 400 messages;
 * a required argument that is absent (or null) is named with what it takes, where zod alone would
 * say "expected string, received undefined".
 */
export function parseArguments(tool: Tool, args: Record<string, unknown> | undefined): Record<string, unknown> {
  const given = args ?? {};
  for (const [name, schema] of Object.entries(tool.input.shape as Record<string, z.ZodType>)) {
    if (given[name] != null || schema.safeParse(undefined).success) continue;
    const takes = z.globalRegistry.get(schema)?.description;
    throw new RequestRuleError(`Argument "${name}" is required${takes ? `: ${takes}` : ''}.`);
  }
  return parseQuery(tool.input, argumentsQuery(given), tool.name) as Record<string, unknown>;
}

/**
 * The API's 400 message as a tool's: a tool has arguments where the API has query parameters
 * (`Unknown query parameter "x": get_company accepts: ticker.` becomes `Unknown argument "x": …`).
 */
export const forTool = (message: string): string =>
  message.replace(/\b([Qq])uery parameter(s?)\b/g, (_m, q: string, s: string) => `${q === 'Q' ? 'A' : 'a'}rgument${s}`);

/**
 * Whether a protocol version wants argument errors as tool results. 2025-11-25 (SEP-1303) counts
 * input validation among tool execution errors, so that the model reads the message and corrects
 * its call; the earlier versions (2025-06-18, 2025-03-26, 2024-11-05) list "invalid arguments"
 * among protocol errors, so a client that negotiated one of them keeps the JSON-RPC error -32602.
 * Versions are dates, so they compare as strings.
 */
export const argumentErrorsAsResults = (protocolVersion: string): boolean => protocolVersion >= '2025-11-25';

export function toolResult(body: object): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body as Record<string, unknown> };
}

export interface FailureContext {
  snapshots: SnapshotSource;
  requestId: string;
  logger: Logger;
  /** The protocol version the request is under (its MCP-Protocol-Version header, 2025-03-26 without one). */
  protocolVersion: string;
}

/** A failure as the API answers it: its error and error envelope; a bug is logged and answered generically. */
export function apiFailure(e: unknown, o: FailureContext): { error: ApiError; body: ErrorBody } {
  const { error, unexpected } = toApiError(e);
  o.snapshots.readFailed(e); // as the API's errors: a damaged database makes the shim unready
  if (unexpected) o.logger.error('unhandled error', { request_id: o.requestId, path: '/mcp', error: e instanceof Error ? e.stack : String(e) });
  return { error, body: errorBody(o.snapshots, error.code, error.message, o.requestId) };
}

/**
 * A call that failed, as the API would have answered it, as the tool's own error result whose text
 * is the API's error envelope, so a model reads the reason: an unknown ticker, a spent quota, an
 * unreadable snapshot, and (2025-11-25) arguments that break the API's rules, with the API's 400
 * message worded for a tool. Under an earlier protocol those arguments are the JSON-RPC error
 * "invalid params", carrying the same envelope as data.
 */
export function toolFailure(e: unknown, o: FailureContext): CallToolResult {
  let { error, body } = apiFailure(e, o);
  if (error.code === 'BAD_REQUEST') {
    body = errorBody(o.snapshots, error.code, forTool(error.message), o.requestId);
    if (!argumentErrorsAsResults(o.protocolVersion)) throw new JsonRpcError(RPC.invalidParams, body.error.message, body);
  }
  return { content: [{ type: 'text', text: JSON.stringify(body) }], isError: true };
}

/** MCP tool annotations: every tool only reads a published snapshot. */
const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

/**
 * A parameter's `override` meta (src/contract/params.ts), as the OpenAPI generator applies it: an
 * object merged into its JSON Schema, or a function that edits it (digits on the wire, documented as
 * an integer). zod's own converter would copy the meta key as it is.
 */
function applyOverride(ctx: { jsonSchema: Record<string, unknown> }): void {
  const override = ctx.jsonSchema.override as Record<string, unknown> | ((o: { jsonSchema: Record<string, unknown> }) => void) | undefined;
  if (override === undefined) return;
  delete ctx.jsonSchema.override;
  if (typeof override === 'function') override({ jsonSchema: ctx.jsonSchema });
  else Object.assign(ctx.jsonSchema, override);
}

type JsonSchema = { type: 'object'; [k: string]: unknown };

/**
 * A zod schema as JSON Schema 2020-12. A response schema with an id (`CompanyResponse`) comes out as
 * a `$ref` to its own `$defs` entry; MCP wants the object itself at the root, so it is moved there
 * (and its entry dropped unless something else refers to it).
 */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const js = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
    override: (ctx) => applyOverride(ctx as unknown as { jsonSchema: Record<string, unknown> }),
  }) as Record<string, unknown>;
  const { $ref, $defs, ...rest } = js as { $ref?: string; $defs?: Record<string, unknown> };
  if (typeof $ref !== 'string' || !$ref.startsWith('#/$defs/') || !$defs) return js as JsonSchema;
  const { [$ref.slice('#/$defs/'.length)]: root, ...others } = $defs;
  const defs = JSON.stringify(others).includes(`"${$ref}"`) ? $defs : others;
  return { ...rest, ...(root as object), ...(Object.keys(defs).length > 0 ? { $defs: defs } : {}) } as JsonSchema;
}

/** tools/list, made once: the schemas are converted from zod on the first listing, never per request. */
let listed: ListToolsResult | undefined;
export function toolList(): ListToolsResult {
  listed ??= {
    tools: TOOLS.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: jsonSchema(t.input, 'input'),
      outputSchema: jsonSchema(t.output, 'output'),
      annotations: { title: t.title, ...READ_ONLY },
    })),
  };
  return listed;
}

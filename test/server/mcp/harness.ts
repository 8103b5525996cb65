import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import { getJson } from '../../helpers/server.js';

/** The headers an MCP client sends with every POST (the transport requires both types in Accept). */
export const MCP_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

/** An MCP client built on the official SDK, connected (initialize done) to a shim's /mcp. */
export async function connectClient(base: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'esg-mcp-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } }));
  return client;
}

/** One raw POST to /mcp: a JSON-RPC message (or any bytes), for what an SDK client would never send. */
export function rpc(base: string, body: unknown, headers: Record<string, string> = {}): ReturnType<typeof getJson> {
  return getJson(`${base}/mcp`, {
    method: 'POST',
    headers: { ...MCP_HEADERS, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** A tools/call message. */
export const callMessage = (name: string, args: unknown, id: number | string = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

/** A tool's successful answer: its structured content, with the text content the same JSON. */
export function answerOf(result: CallToolResult | Record<string, unknown>): Record<string, unknown> {
  const r = result as CallToolResult;
  expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
  const text = r.content.find((c) => c.type === 'text');
  expect(text?.type).toBe('text');
  expect(JSON.parse((text as { text: string }).text)).toEqual(r.structuredContent);
  return r.structuredContent!;
}

/** A tool's error result: the API's error envelope, as its text. */
export function toolErrorOf(result: CallToolResult | Record<string, unknown>): { code: string; message: string } {
  const r = result as CallToolResult;
  expect(r.isError, JSON.stringify(r)).toBe(true);
  const envelope = JSON.parse((r.content[0] as { text: string }).text) as { ok: boolean; error: { code: string; message: string } };
  expect(envelope.ok).toBe(false);
  return envelope.error;
}

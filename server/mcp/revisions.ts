import type { Request, Response } from 'express';
import { classifyInboundRequest, createMcpHandler, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { LIMITS } from '../../src/contract/vocabulary.js';
import type { Logger } from '../kit/logger.js';
import { createMcpServer } from './server.js';

/**
 * One parsed JSON-RPC message to /mcp, answered at the protocol revision it is under, from one
 * server factory: 2026-07-28 (every request carrying its `_meta`) by the SDK's per-request
 * handler, the 2025 revisions (an `initialize`, then requests naming their version in a header, or
 * none) by a stateless streamable HTTP transport. Both answer with JSON: no handler here sends
 * anything before its result (no progress, no logging), so nothing streams and a proxy buffers
 * nothing.
 *
 * Both legs are the SDK's web-standard faces, called with a body-less web `Request` (method, URL,
 * headers) and the body Express has parsed as `parsedBody`: the SDK's Node adapters would turn the
 * parsed body back into a stream for a `Request`, which cost more CPU a call than the tool itself.
 */
export type AnswerMessage = (req: Request, res: Response, body: unknown) => Promise<void>;

export function revisionsAnswer(logger: Logger): AnswerMessage {
  const modern = createMcpHandler(createMcpServer, {
    legacy: 'reject',
    responseMode: 'auto', // JSON, as nothing is sent before a result ('json' would say so in a warning at start)
    maxRequestBodySize: LIMITS.bodyBytes,
    onerror: (e) => logger.pino?.debug({ error: e.message }, 'mcp request refused'),
  });
  const legacy = async (request: globalThis.Request, body: unknown): Promise<globalThis.Response> => {
    const server = createMcpServer();
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request, { parsedBody: body });
    } finally {
      void server.close(); // and its transport
    }
  };
  return async (req, res, body) => {
    const request = webRequestOf(req);
    const answer = isLegacy(req, body) ? await legacy(request, body) : await modern.fetch(request, { parsedBody: body });
    res.status(answer.status);
    answer.headers.forEach((value, name) => res.setHeader(name, value));
    res.end(Buffer.from(await answer.arrayBuffer()));
  };
}

const header = (req: Request, name: string) => {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
};

/**
 * The SDK's own classification (the function its handler and `isLegacyRequest` run) on the parsed
 * body and the three headers it reads.
 */
const isLegacy = (req: Request, body: unknown) =>
  classifyInboundRequest({
    httpMethod: 'POST',
    protocolVersionHeader: header(req, 'mcp-protocol-version'),
    mcpMethodHeader: header(req, 'mcp-method'),
    mcpNameHeader: header(req, 'mcp-name'),
    body,
  }).kind === 'legacy';

/** The request as the SDK's web-standard faces take it: method, URL and headers; the body goes as `parsedBody`. */
function webRequestOf(req: Request): globalThis.Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  return new globalThis.Request(`http://${header(req, 'host') ?? 'localhost'}${req.originalUrl}`, { method: 'POST', headers });
}

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback HTTP server replaying the publishers' shapes for fetch tests. Each path has a handler;
 * a handler may be given a list of faults to play first (one per request), then it answers normally.
 * Every request is recorded (path and query) so tests can check paging and the key.
 */

export type Fault =
  | { kind: 'status'; status: number; retryAfter?: string }
  | { kind: 'reset-mid-body' }
  | { kind: 'html-200' }
  | { kind: 'truncated-json' }
  /** Any other answer, once (an answer in another form: `success: false`, another period's table, a renamed key). */
  | { kind: 'reply'; reply: Reply }
  /** The normal answer (to fault a later request of a sequence). */
  | { kind: 'pass' };

export interface Reply {
  status?: number;
  type: string;
  body: Buffer;
  headers?: Record<string, string | string[]>;
}

/** What a handler sees of a request besides its URL: the method, headers and the whole body. */
export interface Received {
  method: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Handler = (url: URL, req: Received) => Reply;

export interface Replay {
  base: string;
  requests: URL[];
  /** Each request with its method and body, in order. */
  received: (Received & { url: URL })[];
  /** Faults played, in order, before the path's normal answer (each request takes one). */
  fault(path: string, ...faults: Fault[]): void;
  close(): Promise<void>;
}

export async function startReplay(handlers: Record<string, Handler>): Promise<Replay> {
  const faults = new Map<string, Fault[]>();
  const requests: URL[] = [];
  const received: Replay['received'] = [];
  const answer = (req: IncomingMessage, res: ServerResponse, body: string) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push(url);
    const got: Received = { method: req.method ?? 'GET', headers: req.headers, body };
    received.push({ ...got, url });
    const handler = handlers[url.pathname];
    if (!handler) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const fault = faults.get(url.pathname)?.shift();
    if (fault?.kind === 'status') {
      res
        .writeHead(fault.status, { 'content-type': 'text/plain', ...(fault.retryAfter ? { 'retry-after': fault.retryAfter } : {}) })
        .end(`status ${fault.status}`);
      return;
    }
    if (fault?.kind === 'html-200') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!DOCTYPE html><html><body><h1>系統維護中</h1></body></html>');
      return;
    }
    if (fault?.kind === 'reply') {
      res
        .writeHead(fault.reply.status ?? 200, { ...fault.reply.headers, 'content-type': fault.reply.type, 'content-length': fault.reply.body.length })
        .end(fault.reply.body);
      return;
    }
    const reply = handler(url, got);
    if (fault?.kind === 'truncated-json') {
      const cut = reply.body.subarray(0, Math.floor(reply.body.length / 2));
      res.writeHead(200, { 'content-type': reply.type, 'content-length': cut.length }).end(cut);
      return;
    }
    if (fault?.kind === 'reset-mid-body') {
      // Promise the whole body, send half, then drop the connection.
      res.writeHead(200, { 'content-type': reply.type, 'content-length': reply.body.length });
      res.write(reply.body.subarray(0, Math.floor(reply.body.length / 2)), () => setTimeout(() => req.socket.destroy(), 10));
      return;
    }
    res.writeHead(reply.status ?? 200, { ...reply.headers, 'content-type': reply.type, 'content-length': reply.body.length }).end(reply.body);
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => answer(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    requests,
    received,
    fault: (path, ...list) => faults.set(path, [...(faults.get(path) ?? []), ...list]),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const jsonReply = (value: unknown): Reply => ({ type: 'application/json; charset=utf-8', body: Buffer.from(JSON.stringify(value)) });

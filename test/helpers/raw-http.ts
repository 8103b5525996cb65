import { request } from 'node:http';
import { expect } from 'vitest';
import { errorBodySchema } from '../../src/contract/common.js';

/** Sends a request exactly as written (no URL normalisation), e.g. for traversal attempts. */
export function raw(
  base: string,
  path: string,
  method = 'GET',
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    // A fresh connection per request: a kept-alive socket that the server closes for idleness at the
    // moment a request is written on it is reset, which would fail a test at random.
    const req = request({ hostname, port, path, method, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The one error shape: envelope valid, request id matches the header, never cached, CORS open. */
export function expectEnvelope(r: { status: number; headers: Record<string, unknown> | Headers; text: string }, status: number, code: string) {
  const get = (h: string) => (r.headers instanceof Headers ? r.headers.get(h) : (r.headers[h] as string | undefined));
  expect(r.status).toBe(status);
  expect(get('content-type')).toBe('application/json; charset=utf-8');
  expect(get('cache-control')).toBe('no-store');
  expect(get('access-control-allow-origin')).toBe('*');
  const body = errorBodySchema.parse(JSON.parse(r.text));
  expect(body.error.code).toBe(code);
  expect(body.error.request_id).toBe(get('x-request-id'));
  expect(r.text).not.toMatch(/at .*\.ts:\d+|SqliteError|SELECT /);
  return body;
}

/**
 * Sends bytes exactly as written on a fresh connection, all of them before reading, and returns what
 * arrived, even if the server resets the connection afterwards (the answer is already in).
 */
export async function rawBytes(base: string, bytes: string | Buffer): Promise<string> {
  const { Socket } = await import('node:net');
  const { port } = new URL(base);
  return new Promise<string>((resolve, reject) => {
    const socket = new Socket();
    let out = '';
    socket.on('data', (c) => (out += c.toString('latin1')));
    socket.on('close', () => resolve(out));
    socket.on('error', (e: NodeJS.ErrnoException) => (e.code === 'ECONNRESET' && out !== '' ? resolve(out) : reject(e)));
    socket.connect(Number(port), '127.0.0.1', () => socket.end(bytes));
  });
}

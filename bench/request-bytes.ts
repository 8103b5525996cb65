import type { LoadRequest } from './load.js';

/** A request's bytes as the paced clients send them: prepared once, keep-alive, a JSON body's length. */
export function requestBytes(host: string, r: LoadRequest): Buffer {
  const body = r.body ? Buffer.from(r.body) : null;
  const headers: Record<string, string> = { host, connection: 'keep-alive', ...r.headers };
  if (body) Object.assign(headers, { 'content-type': 'application/json', 'content-length': String(body.length) });
  const head = `${r.method ?? 'GET'} ${r.path} HTTP/1.1\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;
  return body ? Buffer.concat([Buffer.from(head, 'latin1'), body]) : Buffer.from(head, 'latin1');
}

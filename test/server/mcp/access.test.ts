import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE, startMetered, type Metered } from '../access/harness.js';
import { callMessage, connectClient, rpc, toolErrorOf } from './harness.js';
import { demoSnapshotsDir } from '../../helpers/demo-snapshots-dir.js';

/**
 * Access to /mcp as to the API (contract 6): anonymous is the free tier, a key (X-API-Key or
 * Authorization: Bearer) its own; each tool call counts as one call, nothing else does; a spent
 * quota is the tool's error naming the bucket, the tier and the reset time, never a transport
 * failure; a key that is not live is 401 with a JSON-RPC error.
 */
let m: Metered;
beforeAll(async () => {
  m = await startMetered(demoSnapshotsDir);
});
afterAll(() => m?.close());

const usedPerMinute = async (key?: string) => {
  const usage = await m.call('/usage', { key });
  return (usage.body.buckets as { bucket: string; used: number }[]).find((b) => b.bucket === 'calls/min')!.used;
};
const lines = () =>
  m.logs
    .join('')
    .split('\n')
    .filter((l) => l.includes('"route":"/mcp"'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('quotas', () => {
  it('free tier: only tool calls count; the sixth in a minute is a tool error naming the reset time, and the session goes on', async () => {
    m.clock.now += 10 * MINUTE; // a fresh minute
    const client = await connectClient(m.base);
    await client.listTools();
    await client.ping();
    await client.listResources();
    await client.readResource({ uri: 'esg://methodology' });
    expect(await usedPerMinute()).toBe(0); // initialize, lists, ping and resources spend nothing

    for (let i = 0; i < 5; i++) expect((await client.callTool({ name: 'get_company', arguments: { ticker: 'D1101' } })).isError).toBeFalsy();
    expect(await usedPerMinute()).toBe(5);
    const spent = await client.callTool({ name: 'get_company', arguments: { ticker: 'D1101' } });
    const error = toolErrorOf(spent);
    const resets = new Date(Math.floor(m.clock.now / MINUTE + 1) * MINUTE).toISOString().replace('.000Z', 'Z');
    expect(error.code).toBe('RATE_LIMITED');
    expect(error.message).toContain('calls/min');
    expect(error.message).toContain('free tier');
    expect(error.message).toContain(`resets at ${resets}`);
    // Still connected: listing and ping answer, and a refused call used nothing more.
    expect((await client.listTools()).tools.length).toBeGreaterThan(5);
    await client.ping();
    expect(await usedPerMinute()).toBe(5);
    // The next minute, calls are answered again.
    m.clock.now += MINUTE;
    expect((await client.callTool({ name: 'get_company', arguments: { ticker: 'D1101' } })).isError).toBeFalsy();
    await client.close();
  });

  it('a call that fails validation still counts, as on the API', async () => {
    m.clock.now += 10 * MINUTE;
    const res = await rpc(m.base, callMessage('get_company', { ticker: '!!' }));
    expect(res.body.error.code).toBe(-32602);
    expect(await usedPerMinute()).toBe(1);
  });

  it('a key in X-API-Key or as a Bearer token: its tier, its bucket, its log line (with the tool)', async () => {
    const key = m.newKey('developer');
    for (const headers of [{ 'X-API-Key': key }, { Authorization: `Bearer ${key}` }] as Record<string, string>[]) {
      const client = await connectClient(m.base, headers);
      const r = await client.callTool({ name: 'get_methodology', arguments: {} });
      expect(r.isError).toBeFalsy();
      await client.close();
    }
    expect(await usedPerMinute(key)).toBe(2);
    await new Promise((r) => setTimeout(r, 100));
    const called = lines().filter((l) => l.tool === 'get_methodology');
    expect(called.length).toBeGreaterThanOrEqual(2);
    expect(called.at(-1)).toMatchObject({ method: 'POST', status: 200, tier: 'developer', key_id: key.slice(4, 14) });
    const everything = m.logs.join('');
    expect(everything).not.toContain(key);
  });

  it('a key that is not live (unknown, malformed, revoked) is HTTP 401 with a JSON-RPC error, at initialize already', async () => {
    const init = {
      jsonrpc: '2.0',
      id: 7,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    };
    const revoked = m.newKey('academic');
    m.keys.revoke(revoked.slice(4, 14));
    for (const headers of [
      { 'X-API-Key': 'esg_0123456789_nope' },
      { Authorization: 'Bearer nope' },
      { Authorization: 'Basic abc' },
      { 'X-API-Key': revoked },
    ] as Record<string, string>[]) {
      const res = await rpc(m.base, init, headers);
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(res.body).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32000, data: { ok: false, error: { code: 'UNAUTHORIZED' } } } });
      expect(res.body.error.message).toMatch(/not a live key/);
      expect(res.body.error.data.error.request_id).toBe(res.headers.get('x-request-id'));
    }
    await expect(connectClient(m.base, { 'X-API-Key': 'esg_0123456789_nope' })).rejects.toThrow();
  });
});

describe('HTTP', () => {
  it('GET and DELETE are 405 with a JSON-RPC error (stateless: no stream, no session); a preflight allows the MCP headers', async () => {
    for (const method of ['GET', 'DELETE', 'PUT']) {
      const res = await fetch(`${m.base}/mcp`, { method, headers: { Accept: 'text/event-stream' } });
      expect(res.status, method).toBe(405);
      expect(res.headers.get('allow')).toBe('POST, OPTIONS');
      const body = (await res.json()) as { jsonrpc: string; error: { code: number; data: { error: { code: string } } } };
      expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000, data: { error: { code: 'METHOD_NOT_ALLOWED' } } } });
    }
    const preflight = await fetch(`${m.base}/mcp`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://example.org', 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/Authorization.*Mcp-Protocol-Version/);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('answers carry the shim’s headers: a request id, CORS, no-store, RateLimit on a counted call', async () => {
    m.clock.now += 10 * MINUTE;
    const res = await rpc(m.base, callMessage('get_company', { ticker: 'D1101' }));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('ratelimit')).toMatch(/"calls\/min";r=4;/);
    expect(res.body.result.structuredContent.company.ticker).toBe('D1101');
  });
});

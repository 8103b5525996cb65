import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../helpers/server.js';
import { rpc } from './harness.js';
import { demoSnapshotsDir } from '../../helpers/demo-snapshots-dir.js';

/**
 * One /mcp, two revisions, by raw POSTs as each revision's client sends them: a request carrying
 * the 2026-07-28 `_meta` envelope (and the headers that revision routes by) is answered statelessly
 * by the SDK v2's handler; a 2025 request (no envelope) as before, session header or not. What each
 * answer says that the other does not: cache hints, the server's identity, and 404 for the methods
 * 2026-07-28 removed.
 */
let server: RunningServer;
beforeAll(async () => {
  server = await startServer(demoSnapshotsDir);
});
afterAll(() => server?.close());

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

/** A 2026-07-28 request: `_meta` in its params, and the headers naming its version, method and (for a call or a read) name. */
function modern(id: number, method: string, params: Record<string, unknown> = {}, name?: string) {
  const headers: Record<string, string> = { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': method };
  if (name !== undefined) headers['Mcp-Name'] = name;
  return rpc(server.base, { jsonrpc: '2.0', id, method, params: { ...params, _meta: META } }, headers);
}
const legacy = (id: number, method: string, params: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  rpc(server.base, { jsonrpc: '2.0', id, method, params }, { 'MCP-Protocol-Version': '2025-11-25', ...headers });

describe('2026-07-28', () => {
  it('server/discover names the revision, the capabilities and the instructions, and may be cached', async () => {
    const res = await modern(1, 'server/discover');
    expect(res.status, res.text).toBe(200);
    expect(res.body.id).toBe(1);
    expect(res.body.result).toMatchObject({
      supportedVersions: ['2026-07-28'],
      capabilities: { tools: {}, resources: {}, prompts: {}, completions: {} },
      ttlMs: 3_600_000,
      cacheScope: 'public',
    });
    expect(res.body.result.instructions).toContain('find_company');
  });

  it('every list says how long it may be kept, and every result who answered', async () => {
    for (const method of ['tools/list', 'resources/list', 'resources/templates/list', 'prompts/list']) {
      const res = await modern(2, method);
      expect(res.status, `${method}: ${res.text}`).toBe(200);
      expect(res.body.result, method).toMatchObject({ ttlMs: 3_600_000, cacheScope: 'public' });
      expect(res.body.result._meta['io.modelcontextprotocol/serverInfo'], method).toMatchObject({ name: 'esg-credibility-tw' });
    }
    const call = await modern(3, 'tools/call', { name: 'get_company', arguments: { ticker: 'D1101' } }, 'get_company');
    expect(call.body.result.structuredContent.company.ticker, call.text).toBe('D1101');
    expect(call.body.result._meta['io.modelcontextprotocol/serverInfo'].name).toBe('esg-credibility-tw');
  });

  it('a bad argument is the tool’s error result with the API’s message, as at 2025-11-25', async () => {
    const res = await modern(4, 'tools/call', { name: 'get_company', arguments: { ticker: 'D1101.json' } }, 'get_company');
    expect(res.body.result.isError, res.text).toBe(true);
    expect(JSON.parse(res.body.result.content[0].text).error).toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('a missing resource is -32602 with its URI (SEP-2164), at 2025 too', async () => {
    const uri = 'esg://company/ZZZ9';
    const now = await modern(5, 'resources/read', { uri }, uri);
    expect([now.status, now.body.id, now.body.error?.code, now.body.error?.data?.uri], now.text).toEqual([200, 5, -32602, uri]);
    const before = await legacy(6, 'resources/read', { uri });
    expect([before.body.id, before.body.error?.code, before.body.error?.data?.uri], before.text).toEqual([6, -32602, uri]);
  });

  it('the removed methods are 404 with -32601 and the request’s id; headers that disagree with the body are 400 -32020', async () => {
    for (const [id, method] of [
      [7, 'initialize'],
      [8, 'ping'],
      [9, 'logging/setLevel'],
    ] as const) {
      const res = await modern(id, method);
      expect([res.status, res.body.id, res.body.error?.code], `${method}: ${res.text}`).toEqual([404, id, -32601]);
    }
    const noName = await rpc(
      server.base,
      { jsonrpc: '2.0', id: 10, method: 'tools/call', params: { name: 'get_company', arguments: { ticker: 'D1101' }, _meta: META } },
      { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call' },
    );
    expect([noName.status, noName.body.id, noName.body.error?.code], noName.text).toEqual([400, 10, -32020]);
    const otherName = await modern(11, 'tools/call', { name: 'get_company', arguments: { ticker: 'D1101' } }, 'find_company');
    expect([otherName.status, otherName.body.id, otherName.body.error?.code], otherName.text).toEqual([400, 11, -32020]);
  });

  it('no _meta under a 2026-07-28 header is -32602, HTTP 400, with the id', async () => {
    const res = await rpc(
      server.base,
      { jsonrpc: '2.0', id: 12, method: 'tools/list', params: {} },
      { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/list' },
    );
    expect([res.status, res.body.id, res.body.error?.code], res.text).toEqual([400, 12, -32602]);
  });
});

describe('2025 clients keep working', () => {
  it('initialize negotiates 2025-11-25; a stateless request answers with or without a session header, and none is set', async () => {
    const init = await rpc(server.base, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'old', version: '1' } },
    });
    expect(init.status, init.text).toBe(200);
    expect(init.headers.get('content-type')).toMatch(/^application\/json/); // JSON, not an event stream
    expect(init.body.result.protocolVersion).toBe('2025-11-25');
    for (const headers of [{}, { 'Mcp-Session-Id': 'a-session-another-server-gave' }] as Record<string, string>[]) {
      const res = await legacy(2, 'tools/list', {}, headers);
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get('mcp-session-id')).toBeNull();
      expect(res.body.result.tools.length).toBeGreaterThan(5);
      // Cache hints and the serverInfo stamp are 2026-07-28's: a 2025 answer is as it was.
      expect(res.body.result.ttlMs).toBeUndefined();
      expect(res.body.result._meta).toBeUndefined();
    }
  });
});

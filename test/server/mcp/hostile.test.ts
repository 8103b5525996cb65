import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../../src/contract/vocabulary.js';
import { startServer, type RunningServer } from '../../helpers/server.js';
import { callMessage, MCP_HEADERS, rpc } from './harness.js';
import { demoSnapshotsDir } from '../../helpers/demo-snapshots-dir.js';

/**
 * What no MCP client would send: every answer is a JSON-RPC error with a bounded body and the
 * server goes on answering. Arguments that break the API's rules are, under the protocol versions
 * before 2025-11-25 (these raw messages name none, so 2025-03-26), "invalid params" (-32602) with
 * the API's 400 message worded for a tool; a message the server cannot read is a parse error or an
 * invalid request. (Under 2025-11-25 the same arguments are tool results: best.test.ts.)
 */
let server: RunningServer;
beforeAll(async () => {
  server = await startServer(demoSnapshotsDir);
});
afterAll(() => server?.close());

const expectRpcError = (res: Awaited<ReturnType<typeof rpc>>, code: number, status = 200) => {
  expect(res.status, res.text).toBe(status);
  expect(res.body?.jsonrpc, res.text).toBe('2.0');
  expect(res.body.error.code, res.text).toBe(code);
  expect(res.text.length).toBeLessThan(4096);
  return res.body.error as { message: string; data?: { error: { code: string; message: string } } };
};

describe('hostile arguments', () => {
  it('an unknown tool, or no tool name: invalid params naming the tools', async () => {
    expect(expectRpcError(await rpc(server.base, callMessage('drop_tables', {})), -32602).message).toMatch(
      /Unknown tool "drop_tables".*find_company/,
    );
    expect(expectRpcError(await rpc(server.base, callMessage('x'.repeat(5000), {})), -32602).message.length).toBeLessThan(400);
    expectRpcError(await rpc(server.base, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { arguments: {} } }), -32602);
    expectRpcError(await rpc(server.base, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 42 } }), -32602);
  });

  it('wrong types and values: invalid params with the API’s own 400 message, its envelope as data', async () => {
    const cases: [string, unknown, RegExp][] = [
      ['get_company', { ticker: 2330.5 }, /Malformed ticker/],
      ['get_company', { ticker: { $gt: '' } }, /Argument "ticker" must be a string/],
      ['get_company', { ticker: null }, /Argument "ticker" is required: 1 to 12 letters or digits/], // null is absent
      ['get_company', {}, /Argument "ticker" is required/],
      ['get_company', { ticker: 'D1101.json' }, /Malformed ticker "D1101.json"/], // a URL's suffix, not an argument's
      ['get_company', { ticker: 'D1101', extra: 1 }, /Unknown argument "extra": get_company accepts: ticker/],
      ['rank_companies', { limit: 'abc' }, /"limit" must be a whole number from 1 to 200/],
      ['rank_companies', { limit: 1e300 }, /"limit" must be a whole number/],
      ['rank_companies', { limit: 201 }, /"limit"/],
      ['rank_companies', { sort: ['score_desc', 'x'] }, /"sort" must be one of/],
      ['rank_companies', { format: 'csv' }, /Unknown argument "format"/],
      ['get_changes', { compact: 'yes' }, /Argument "compact" must be true or false/],
      ['compare_companies', { tickers: 'D1101' }, /2 to 5 distinct tickers/],
      ['compare_companies', { tickers: [1, 2] }, /Argument "tickers"/],
      ['get_company_facts', { ticker: 'D1101', fields: 'secrets' }, /Unknown section "secrets"/],
      ['get_changes', { cause: 'everything' }, /"cause" must be one of/],
      ['find_company', { q: '' }, /"q" is empty/],
      ['find_company', { q: 'x'.repeat(50_000) }, /longer than 100 characters/],
    ];
    for (const [name, args, message] of cases) {
      // No MCP-Protocol-Version header: 2025-03-26, under which invalid arguments are a protocol error.
      const error = expectRpcError(await rpc(server.base, callMessage(name, args)), -32602);
      expect(error.message, `${name} ${JSON.stringify(args).slice(0, 80)}`).toMatch(message);
      expect(error.message).not.toMatch(/query parameter/i);
      expect(error.data?.error.code).toBe('BAD_REQUEST');
      expect(error.data?.error.message).toBe(error.message);
    }
    // `arguments` itself not an object
    expectRpcError(await rpc(server.base, callMessage('get_company', 'D1101')), -32602);
    expectRpcError(await rpc(server.base, callMessage('get_company', [1, 2])), -32602);
  });
});

describe('hostile messages', () => {
  it('over 64 KiB: 413; not JSON: parse error; a batch, or no JSON-RPC message: invalid request', async () => {
    const huge = callMessage('find_company', { q: 'x'.repeat(1024 * 1024) });
    const tooLarge = expectRpcError(await rpc(server.base, huge), -32600, 413);
    expect(tooLarge.message).toContain(`${LIMITS.bodyBytes / 1024} KiB`);
    expectRpcError(await rpc(server.base, '{"jsonrpc":"2.0","id":1,'), -32700, 400);
    expectRpcError(
      await rpc(server.base, [callMessage('get_company', { ticker: 'D1101' }, 1), callMessage('get_company', { ticker: 'D1102' }, 2)]),
      -32600,
      400,
    );
    expectRpcError(await rpc(server.base, []), -32600, 400);
    // Valid JSON that is no JSON-RPC message: invalid request (JSON-RPC 2.0 §5.1), not a parse error.
    expectRpcError(await rpc(server.base, { hello: 'world' }), -32600, 400);
    expectRpcError(await rpc(server.base, { jsonrpc: '2.0', id: 1, method: 'no/such/method' }), -32601);
    const wrongType = await rpc(server.base, callMessage('get_company', { ticker: 'D1101' }), { 'Content-Type': 'text/plain' });
    expectRpcError(wrongType, -32000, 415);
  });

  it('a client that accepts no JSON is refused by the transport (406), and the server still answers afterwards', async () => {
    const res = await fetch(`${server.base}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'text/html' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(res.status).toBe(406);
    const ping = await rpc(server.base, { jsonrpc: '2.0', id: 9, method: 'ping' });
    expect([ping.status, ping.body]).toEqual([200, { jsonrpc: '2.0', id: 9, result: {} }]);
    const ok = await rpc(server.base, callMessage('get_company', { ticker: 'd1101' }));
    expect(ok.body.result.structuredContent.company.ticker).toBe('D1101');
  });

  it('many bad messages at once leave the shim healthy', async () => {
    const bodies = Array.from({ length: 60 }, (_, i) =>
      i % 3 === 0 ? '{' : i % 3 === 1 ? callMessage('nope', { a: i }) : callMessage('rank_companies', { limit: -i }),
    );
    const answers = await Promise.all(bodies.map((b) => rpc(server.base, b)));
    expect(answers.every((a) => a.body?.jsonrpc === '2.0' && a.body.error)).toBe(true);
    expect((await fetch(`${server.base}/healthz`)).status).toBe(200);
    expect(
      (
        await fetch(`${server.base}/mcp`, {
          method: 'POST',
          headers: MCP_HEADERS,
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        })
      ).status,
    ).toBe(200);
  });
});

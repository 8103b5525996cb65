import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentSnapshotDir } from '../../../src/snapshot/published.js';
import { SnapshotStore } from '../../../src/snapshot/store.js';
import { startServer, type RunningServer } from '../../helpers/server.js';
import { demoSeriesSnapshotsDir } from '../../helpers/demo-series-dir.js';
import { answerOf, callMessage, connectClient, MCP_HEADERS, rpc, toolErrorOf } from './harness.js';

/**
 * The MCP endpoint at its best, over HTTP against the real shim (the evolving demo's second
 * month, so there are changes): argument errors as the protocol version in use wants them, null as
 * absent, a small get_changes, NOT_FOUND for an unknown ticker on every tool, descriptions that say
 * what the tools take, the Origin check, resource templates with completion, and the prompts.
 */
let server: RunningServer;
let listed: RunningServer;
let client: Client;
let store: SnapshotStore;

beforeAll(async () => {
  server = await startServer(demoSeriesSnapshotsDir);
  listed = await startServer(demoSeriesSnapshotsDir, { mcpAllowedOrigins: ['https://chat.example.org'] });
  store = SnapshotStore.open(currentSnapshotDir(demoSeriesSnapshotsDir)!);
  client = await connectClient(server.base);
});
afterAll(async () => {
  await client?.close();
  store?.close();
  await server?.close();
  await listed?.close();
});

const at = (version: string) => ({ 'MCP-Protocol-Version': version });
const api = async (path: string) => {
  const res = await fetch(`${server.base}/api/v1${path}`);
  expect(res.status, path).toBe(200);
  return (await res.json()) as Record<string, unknown>;
};
const firstTicker = () => store.firstTickers(1)[0]!;

describe('argument errors (SEP-1303)', () => {
  it('the SDK client negotiates 2025-11-25, and a bad argument is a tool result with isError and the API’s message worded for a tool', async () => {
    expect(client.getServerVersion()?.name).toBe('esg-credibility-tw');
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['get_company', { ticker: '!!' }, /^Malformed ticker "!!"/],
      ['get_company', { ticker: 'D1101', extra: 1 }, /^Unknown argument "extra": get_company accepts: ticker\.$/],
      ['rank_companies', { limit: 500 }, /^Argument "limit" must be a whole number from 1 to 200; got "500"\.$/],
      ['get_company', {}, /^Argument "ticker" is required/],
    ];
    for (const [name, args, message] of cases) {
      const error = toolErrorOf(await client.callTool({ name, arguments: args }));
      expect(error.code).toBe('BAD_REQUEST');
      expect(error.message, name).toMatch(message);
      expect(error.message).not.toMatch(/query parameter/i);
    }
  });

  it('the same arguments by protocol version: a result from 2025-11-25 on, JSON-RPC -32602 before (their spec lists invalid arguments as protocol errors)', async () => {
    const bad = callMessage('rank_companies', { limit: 0 });
    const latest = await rpc(server.base, bad, at(LATEST_PROTOCOL_VERSION));
    expect(latest.body.error).toBeUndefined();
    expect(latest.body.result.isError).toBe(true);
    expect(JSON.parse(latest.body.result.content[0].text).error).toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringMatching(/^Argument "limit"/),
    });
    for (const version of ['2025-06-18', '2025-03-26', '2024-11-05']) {
      const old = await rpc(server.base, bad, at(version));
      expect(old.body.error?.code, version).toBe(-32602);
      expect(old.body.error.message).toMatch(/^Argument "limit"/);
      expect(old.body.error.data.error.code).toBe('BAD_REQUEST');
    }
  });

  it('an unknown tool and a malformed tools/call stay protocol errors under 2025-11-25', async () => {
    const unknown = await rpc(server.base, callMessage('drop_tables', {}), at(LATEST_PROTOCOL_VERSION));
    expect(unknown.body.error.code).toBe(-32602);
    expect(unknown.body.error.message).toMatch(/Unknown tool "drop_tables"/);
    const noName = await rpc(server.base, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { arguments: {} } }, at(LATEST_PROTOCOL_VERSION));
    expect(noName.body.error.code).toBe(-32602);
    const notObject = await rpc(server.base, callMessage('get_company', 'D1101'), at(LATEST_PROTOCOL_VERSION));
    expect(notObject.body.error.code).toBe(-32602);
  });

  it('null for an optional argument is absent: the same answer as leaving it out', async () => {
    const withNulls = answerOf(
      await client.callTool({ name: 'rank_companies', arguments: { industry: null, limit: null, gf: null, q: null, sort: null } }),
    );
    expect(withNulls).toEqual(answerOf(await client.callTool({ name: 'rank_companies', arguments: {} })));
    const facts = answerOf(await client.callTool({ name: 'get_company_facts', arguments: { ticker: firstTicker(), fields: null } }));
    expect(facts).toEqual(await api(`/company/${firstTicker()}/canonical`));
  });
});

describe('get_changes', () => {
  it('pages of 20 by default; compact: one short item per company, the same companies, text and structuredContent alike', async () => {
    const full = answerOf(await client.callTool({ name: 'get_changes', arguments: {} }));
    const whole = await api('/changes?limit=200');
    expect((whole.meta as { total: number }).total, 'the demo’s second month moves more than 20 companies').toBeGreaterThan(20);
    expect(full.data).toEqual((whole.data as unknown[]).slice(0, 20));
    expect(full.meta).toMatchObject({ per_page: 20, total: (whole.meta as { total: number }).total });

    const result = await client.callTool({ name: 'get_changes', arguments: { compact: true } });
    const compact = answerOf(result); // also checks the text is the same JSON
    const items = compact.data as Record<string, unknown>[];
    type Side = { credibility_score: number } | null;
    const fullItems = full.data as { ticker: string; score_delta: number; before: Side; after: Side; causes: { kind: string }[] }[];
    expect(items.map((x) => x.ticker)).toEqual(fullItems.map((x) => x.ticker));
    expect(items[0]).toEqual({
      ticker: fullItems[0]!.ticker,
      company_name: expect.any(String),
      change: expect.any(String),
      score_before: fullItems[0]!.before?.credibility_score ?? null,
      score_after: fullItems[0]!.after?.credibility_score ?? null,
      score_delta: fullItems[0]!.score_delta,
      cause_kinds: [...new Set(fullItems[0]!.causes.map((c) => c.kind))],
    });
    const size = (r: { content: unknown }) => JSON.stringify(r).length;
    expect(size(result as { content: unknown })).toBeLessThan(
      size((await client.callTool({ name: 'get_changes', arguments: {} })) as { content: unknown }) / 2,
    );
    expect(size(result as { content: unknown })).toBeLessThan(12_000);
  });

  it('an unknown ticker is NOT_FOUND on every tool that takes one, get_changes included; a known one that did not move is an empty page', async () => {
    for (const [name, args] of [
      ['get_company', { ticker: 'ZZZ999' }],
      ['get_company_facts', { ticker: 'ZZZ999' }],
      ['get_company_history', { ticker: 'ZZZ999' }],
      ['get_changes', { ticker: 'ZZZ999' }],
      ['get_changes', { ticker: 'ZZZ999', compact: true }],
    ] as const) {
      expect(toolErrorOf(await client.callTool({ name, arguments: args })), name).toMatchObject({
        code: 'NOT_FOUND',
        message: 'Unknown ticker: ZZZ999',
      });
    }
    const moved = new Set(((await api('/changes?limit=200')).data as { ticker: string }[]).map((x) => x.ticker));
    const still = store.tickers().find((t) => !moved.has(t))!;
    expect(answerOf(await client.callTool({ name: 'get_changes', arguments: { ticker: still } }))).toMatchObject({ data: [], meta: { total: 0 } });
  });
});

describe('descriptions', () => {
  it('say what the tools take: no `.json` suffix promised, defaults as the tool applies them, booleans as booleans', async () => {
    const { tools } = await client.listTools();
    const text = JSON.stringify(tools.map((t) => t.inputSchema));
    expect(text).not.toContain('.json');
    const changes = tools.find((t) => t.name === 'get_changes')!;
    const props = changes.inputSchema.properties as Record<string, { type?: string; default?: unknown; description?: string }>;
    expect(props.limit).toMatchObject({ type: 'integer', default: 20 });
    expect(props.compact).toMatchObject({ type: 'boolean', default: false });
    expect(changes.description).toContain('20 companies a page');
    // What a description says a ticker is, a tool takes, and what it refuses, it does not promise.
    const ticker = (tools.find((t) => t.name === 'get_company')!.inputSchema.properties as Record<string, { description: string; pattern: string }>)
      .ticker!;
    expect(ticker.description).toMatch(/^1 to 12 letters or digits/);
    expect(new RegExp(ticker.pattern).test('D1101.json')).toBe(false);
    expect(answerOf(await client.callTool({ name: 'get_company', arguments: { ticker: firstTicker().toLowerCase() } }))).toMatchObject({
      company: { ticker: firstTicker() },
    });
  });
});

describe('Origin', () => {
  const init = { jsonrpc: '2.0', id: 1, method: 'ping' };
  const post = (base: string, origin?: string) => rpc(base, init, origin ? { Origin: origin } : {});

  it('no Origin (a program) is allowed; without MCP_ALLOWED_ORIGINS only loopback pages; a listed origin only where listed', async () => {
    expect((await post(server.base)).status).toBe(200);
    expect((await post(server.base, 'http://localhost:6274')).status).toBe(200);
    expect((await post(server.base, 'http://127.0.0.1:5173')).status).toBe(200);
    expect((await post(listed.base, 'https://chat.example.org')).status).toBe(200);
    expect((await post(listed.base)).status).toBe(200);
  });

  it('a disallowed Origin is 403 with the API’s error envelope, before anything else is read', async () => {
    for (const [base, origin] of [
      [server.base, 'https://evil.example'],
      [server.base, 'http://localhost.evil.example'],
      [listed.base, 'http://localhost:6274'],
      [listed.base, 'https://chat.example.org.evil.example'],
      [server.base, 'null'],
    ] as const) {
      const res = await post(base, origin);
      expect(res.status, origin).toBe(403);
      expect(res.body).toMatchObject({ ok: false, error: { code: 'FORBIDDEN', request_id: res.headers.get('x-request-id') } });
      expect(res.body.error.message).toContain('MCP_ALLOWED_ORIGINS');
      expect(res.body.dataset_snapshot_id).toBe(store.meta.dataset_snapshot_id);
    }
    const get = await fetch(`${server.base}/mcp`, { headers: { ...MCP_HEADERS, Origin: 'https://evil.example' } });
    expect(get.status).toBe(403);
  });
});

describe('resource templates and completion', () => {
  it('lists esg://company/{ticker} and esg://etf/{code}; each reads as the API’s body; an unknown code is "resource not found"', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['esg://company/{ticker}', 'esg://etf/{code}']);
    const t = firstTicker();
    const company = await client.readResource({ uri: `esg://company/${t}` });
    expect(company.contents[0]).toMatchObject({ uri: `esg://company/${t}`, mimeType: 'application/json' });
    expect(JSON.parse((company.contents[0] as { text: string }).text)).toEqual(await api(`/company/${t}`));
    const etf = store.etfs()[0]!.etf_code;
    expect(JSON.parse(((await client.readResource({ uri: `esg://etf/${etf}` })).contents[0] as { text: string }).text)).toEqual(
      await api(`/etf/${etf}`),
    );
    await expect(client.readResource({ uri: 'esg://company/ZZZ999' })).rejects.toThrow(/Resource not found.*Unknown ticker: ZZZ999/);
    await expect(client.readResource({ uri: 'esg://company/!!' })).rejects.toThrow(/Malformed ticker/);
    // The methodology is a resource too, the API's body.
    expect(((await client.readResource({ uri: 'esg://methodology' })).contents[0] as { text: string }).text).toBe(
      await (await fetch(`${server.base}/api/v1/methodology`)).text(),
    );
  });

  it('completes tickers (code prefix first, then names) and fund codes; an unknown reference is invalid params', async () => {
    const t = firstTicker();
    const prefix = t.slice(0, 2);
    const { completion } = await client.complete({
      ref: { type: 'ref/resource', uri: 'esg://company/{ticker}' },
      argument: { name: 'ticker', value: prefix.toLowerCase() },
    });
    expect(completion.values).toContain(t);
    const starting = store.tickers().filter((x) => x.startsWith(prefix));
    expect(completion.values.slice(0, Math.min(starting.length, 100)).every((v) => v.startsWith(prefix))).toBe(true);
    expect(completion.total).toBeGreaterThanOrEqual(starting.length);
    const name = store.company(t)!.company_name;
    const byName = await client.complete({ ref: { type: 'ref/prompt', name: 'explain_score' }, argument: { name: 'ticker', value: name } });
    expect(byName.completion.values).toContain(t);
    const etf = store.etfs()[0]!.etf_code;
    const funds = await client.complete({
      ref: { type: 'ref/resource', uri: 'esg://etf/{code}' },
      argument: { name: 'code', value: etf.slice(0, 3) },
    });
    expect(funds.completion.values).toContain(etf);
    await expect(client.complete({ ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'ticker', value: '1' } })).rejects.toThrow(
      /-32602|Nothing to complete/,
    );
  });
});

describe('prompts', () => {
  it('lists the three prompts, each taking a ticker', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['explain_score', 'why_changed', 'compare_with_industry']);
    for (const p of prompts) expect(p.arguments).toEqual([expect.objectContaining({ name: 'ticker', required: true })]);
  });

  it('each prompt asks its question of the company, with the tools’ answers for it attached', async () => {
    // A company still listed whose score moved (a removed one has no company to ask about).
    const moved = ((await api('/changes?min_abs_delta=1&limit=200')).data as { ticker: string; change: string; score_delta: number }[]).find(
      (x) => x.change === 'changed',
    )!;
    const company = await api(`/company/${moved.ticker}`);
    const industry = (company.company as { industry: string }).industry;
    const texts = async (name: string) => {
      const got = await client.getPrompt({ name, arguments: { ticker: moved.ticker.toLowerCase() } });
      expect(got.messages.every((m) => m.role === 'user')).toBe(true);
      const embedded = got.messages.find((m) => m.content.type === 'resource')!.content as { resource: { uri: string; text: string } };
      expect(embedded.resource.uri).toBe(`esg://company/${moved.ticker}`);
      expect(JSON.parse(embedded.resource.text)).toEqual(company);
      return got.messages.map((m) => (m.content.type === 'text' ? m.content.text : '')).join('\n');
    };
    const explain = await texts('explain_score');
    expect(explain).toContain(`(${moved.ticker})`);
    expect(explain).toContain(JSON.stringify(await api(`/company/${moved.ticker}/canonical`)));
    const why = await texts('why_changed');
    const change = await api(`/changes?limit=1&min_abs_delta=0`);
    expect(why).toContain('score_delta');
    expect(why).toContain(`"ticker":"${moved.ticker}"`);
    expect(why).toContain(`"score_delta":${moved.score_delta}`);
    expect(change.from_snapshot_id && why.includes(String(change.from_snapshot_id))).toBe(true);
    const compare = await texts('compare_with_industry');
    expect(compare).toContain(industry);
    expect(compare).toContain(JSON.stringify(await api(`/ranking?industry=${encodeURIComponent(industry)}`)));
  });

  it('an unknown prompt, a missing, malformed or unknown ticker: invalid params saying which', async () => {
    await expect(client.getPrompt({ name: 'nope' })).rejects.toThrow(/Unknown prompt "nope"/);
    await expect(client.getPrompt({ name: 'explain_score' })).rejects.toThrow(/takes the argument "ticker"/);
    await expect(client.getPrompt({ name: 'why_changed', arguments: { ticker: '!!' } })).rejects.toThrow(/Malformed ticker/);
    await expect(client.getPrompt({ name: 'compare_with_industry', arguments: { ticker: 'ZZZ999' } })).rejects.toThrow(/Unknown ticker: ZZZ999/);
    const raw = await rpc(server.base, {
      jsonrpc: '2.0',
      id: 3,
      method: 'prompts/get',
      params: { name: 'explain_score', arguments: { ticker: 'ZZZ999' } },
    });
    expect(raw.body.error.code).toBe(-32602);
  });
});

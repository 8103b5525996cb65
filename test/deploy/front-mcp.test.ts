import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyStore } from '../../server/access/key-store.js';
import { demoSnapshotsDir } from '../helpers/demo-snapshots-dir.js';
import { runConformance, unmet } from '../helpers/mcp-conformance.js';
import { NGINX, startFront, type Front } from './front.js';
import { FIXTURE_CHECKS_2026 } from '../server/mcp/conformance-scope.js';

/**
 * MCP behind the generated nginx front with two shims and no stickiness: nginx takes turns, so a
 * 2026-07-28 client's requests land on both shims, and every one is answered, because nothing is
 * kept between requests. The SDK v2 client pinned to 2026-07-28, the conformance suite's stateless
 * scenarios, and mcp-remote (a 2025 client, configured as docs/mcp.md says) each go through nginx.
 */
const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
let dir: string;
let front: Front;
let key: string;

beforeAll(async () => {
  if (!NGINX) return;
  dir = mkdtempSync(join(tmpdir(), 'esg-front-mcp-'));
  const keysDb = join(dir, 'keys.sqlite');
  const keys = KeyStore.open(keysDb);
  key = keys.create({ tier: 'developer', owner: 'front-mcp test' }).key;
  keys.close();
  front = await startFront(dir, demoSnapshotsDir, keysDb);
}, 120_000);
afterAll(async () => {
  await front?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The upstream of each /mcp request nginx logged since `from` lines (flushed once a second). */
async function mcpUpstreams(from: number): Promise<{ upstream: string; status: number }[]> {
  await new Promise((r) => setTimeout(r, 1200));
  return front.nginx
    .accessLog()
    .slice(from)
    .filter((e) => e.uri === '/mcp')
    .map((e) => ({ upstream: e.upstream, status: e.status }));
}

describe.skipIf(!NGINX)('MCP 2026-07-28 through nginx and two shims', () => {
  it('the SDK v2 client, pinned to 2026-07-28: its calls alternate between the shims and all succeed', async () => {
    const before = front.nginx.accessLog().length;
    const client = new Client({ name: 'front-mcp-2026', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${front.nginx.base}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }),
    );
    try {
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name)).toContain('get_company');
      for (const ticker of ['D1101', 'D1104', 'D1139', 'D1101', 'D1104', 'D1139']) {
        const result = await client.callTool({ name: 'get_company', arguments: { ticker } });
        expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
        expect((result.structuredContent as { company: { ticker: string } }).company.ticker).toBe(ticker);
      }
    } finally {
      await client.close();
    }
    const logged = await mcpUpstreams(before);
    expect(logged.length).toBeGreaterThanOrEqual(8); // server/discover, tools/list, six calls
    expect(logged.every((e) => e.status === 200)).toBe(true);
    expect(new Set(logged.map((e) => e.upstream))).toEqual(new Set(front.shims.map((s) => `127.0.0.1:${s.port}`)));
  });

  it('the conformance suite’s stateless, caching and header scenarios pass through nginx', async () => {
    const run = await runConformance(['server', '--url', `${front.nginx.base}/mcp`, '--requirements', '2026-07-28']);
    for (const scenario of ['caching', 'http-header-validation', 'sep-2164-resource-not-found', 'tools-list', 'resources-list', 'prompts-list']) {
      const checks = run.scenarios.get(scenario);
      expect(checks?.length, `${scenario} ran no check:\n${run.output}`).toBeGreaterThan(0);
      expect(unmet(checks!), scenario).toEqual([]);
    }
    // server-stateless: every check but those that call the suite's fixture tools (conformance-scope.ts says which).
    const stateless = unmet(run.scenarios.get('server-stateless') ?? []).filter((c) => !(c.id in FIXTURE_CHECKS_2026));
    expect(stateless).toEqual([]);
  }, 300_000);

  it('mcp-remote, configured as docs/mcp.md says, lists the tools and calls one through nginx', async () => {
    const packageDir = join(root, 'node_modules/mcp-remote');
    const bin = (JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin['mcp-remote']!;
    const home = mkdtempSync(join(tmpdir(), 'esg-mcp-remote-'));
    const child = spawn(process.execPath, [join(packageDir, bin), `${front.nginx.base}/mcp`, '--header', `Authorization: Bearer ${key}`], {
      cwd: home,
      env: { PATH: process.env.PATH, HOME: home, MCP_REMOTE_CONFIG_DIR: join(home, '.mcp-auth'), BROWSER: 'true' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const bound = setTimeout(() => child.kill('SIGKILL'), 60_000);
    const answers = new Map<number, Record<string, unknown>>();
    const waiting = new Map<number, () => void>();
    createInterface({ input: child.stdout }).on('line', (line) => {
      const message = JSON.parse(line) as { id?: number };
      if (typeof message.id !== 'number') return;
      answers.set(message.id, message as Record<string, unknown>);
      waiting.get(message.id)?.();
    });
    const ask = (id: number, method: string, params: unknown) =>
      new Promise<Record<string, unknown>>((resolve) => {
        waiting.set(id, () => resolve(answers.get(id)!));
        child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
      });
    try {
      const init = await ask(0, 'initialize', {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'claude-ai', version: '0.1.0' },
      });
      expect(init.result, stderr).toMatchObject({ serverInfo: { name: 'esg-credibility-tw' } });
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
      const tools = (await ask(1, 'tools/list', {})) as { result: { tools: { name: string }[] } };
      expect(tools.result.tools.map((t) => t.name)).toContain('find_company');
      const call = (await ask(2, 'tools/call', { name: 'find_company', arguments: { q: 'D1101' } })) as {
        result: { isError?: boolean; structuredContent: { data: { ticker: string }[] } };
      };
      expect(call.result.isError, stderr).toBeFalsy();
      expect(call.result.structuredContent.data.map((d) => d.ticker)).toContain('D1101');
    } finally {
      clearTimeout(bound);
      child.kill();
      rmSync(home, { recursive: true, force: true });
    }
  }, 90_000);
});

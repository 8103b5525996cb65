import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyStore } from '../../../server/access/key-store.js';
import { demoSnapshotsDir } from '../../helpers/demo-snapshots-dir.js';
import { startKeysShim, type KeysShim } from '../../helpers/keys-shim.js';

/**
 * `mcp-remote` (pinned in devDependencies), configured as docs/mcp.md tells people to, with a key
 * that is not live. It takes any 401 from /mcp for "OAuth required": it discovers the
 * metadata and registers, sending its configured headers along, so /register sees the key as an
 * initial access token and refuses it saying why; mcp-remote prints that and exits, rather than
 * falling back to SSE or waiting for a browser sign-in nobody asked for.
 */

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const packageDir = join(root, 'node_modules/mcp-remote');
const bin = (JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin['mcp-remote']!;
/** How long mcp-remote may run before it is killed: far more than it needs to give up (about a second). */
const BOUND_MS = 30_000;

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  killed: boolean;
  stdout: string;
  stderr: string;
  ms: number;
}

/**
 * Runs mcp-remote as Claude Desktop does: its stdin open, an `initialize` written to it, a home of
 * its own (no client registered or tokens kept from before), and no browser to open.
 */
async function mcpRemote(base: string, key: string): Promise<Run> {
  const home = mkdtempSync(join(tmpdir(), 'esg-mcp-remote-'));
  const started = Date.now();
  const child = spawn(process.execPath, [join(packageDir, bin), `${base}/mcp`, '--header', `Authorization: Bearer ${key}`], {
    cwd: home,
    env: { PATH: process.env.PATH, HOME: home, MCP_REMOTE_CONFIG_DIR: join(home, '.mcp-auth'), BROWSER: 'true' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdin.on('error', () => {}); // it may exit before reading what was written
  const initialize = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'claude-ai', version: '0.1.0' } };
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: initialize })}\n`);
  let killed = false;
  const bound = setTimeout(() => {
    killed = true;
    child.kill('SIGKILL');
  }, BOUND_MS);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('close', (c, s) => resolve([c, s])));
  clearTimeout(bound);
  rmSync(home, { recursive: true, force: true });
  return { code, signal, killed, stdout, stderr, ms: Date.now() - started };
}

/** It gave up by itself, saying `reason` as the fatal error, without the SSE fallback or a sign-in. */
function expectRefusedWith(run: Run, reason: string) {
  expect(run.killed, `mcp-remote was still running after ${BOUND_MS} ms:\n${run.stderr}`).toBe(false);
  expect(run.code).toBe(1);
  // The registration's refusal, our error_description verbatim, is what it ends with.
  expect(run.stderr).toMatch(/Fatal error: .*Dynamic Client Registration rejected \(HTTP 401\)/);
  expect(run.stderr).toContain(reason);
  // Not the SSE transport fallback (which a 404 or 405 from POST /mcp would start) and its SseError.
  expect(run.stderr).not.toMatch(/SseError|SSEClientTransport|sse-only|falling-back-to-alternate-transport|Method Not Allowed|status 405/);
  // Nor waiting for a browser sign-in: no authorization URL, no callback server.
  expect(run.stderr).not.toMatch(/Please authorize|Waiting for authorization|callback server running/);
  // Nothing reached its MCP client on stdout: it ended the process instead.
  expect(run.stdout).toBe('');
}

describe('mcp-remote with a key that is not live', () => {
  let s: KeysShim;
  let keys: KeyStore;
  const email = 'ann@example.org';

  beforeAll(async () => {
    s = await startKeysShim(demoSnapshotsDir);
    keys = KeyStore.open(s.keysPath, { maxStalenessMs: 0 });
  }, 60_000);
  afterAll(async () => {
    keys?.close();
    await s?.close();
  });

  it('a revoked key: shows the user the reason, not an SSE error', async () => {
    const { record, key } = keys.create({ tier: 'developer', owner: email, email });
    keys.revoke(record.id);
    const run = await mcpRemote(s.base, key);
    expectRefusedWith(run, `"error_description":"The key sent was revoked at `);
  }, 45_000);

  it('a revoked key whose id holds "405": the reason still, though mcp-remote falls back to SSE on any error text with 404 or 405 in it', async () => {
    // Ids are random: make keys until one holds the digits (about one in 250), then revoke it.
    let made = keys.create({ tier: 'developer', owner: email, email });
    for (let i = 0; i < 20_000 && !made.record.id.includes('405'); i++) made = keys.create({ tier: 'developer', owner: email, email });
    expect(made.record.id).toContain('405');
    keys.revoke(made.record.id);
    const run = await mcpRemote(s.base, made.key);
    expectRefusedWith(run, `"error_description":"The key sent was revoked at `);
  }, 45_000);

  it('a key that never existed: shows that it is not known', async () => {
    const run = await mcpRemote(s.base, `esg_0123456789_${'A'.repeat(43)}`);
    expectRefusedWith(run, '"error_description":"The key sent is not known to this server."');
  }, 45_000);
});

describe('mcp-remote with a revoked key, on a shim without sign-in (no SMTP: `npm start` as it comes)', () => {
  let s: KeysShim;
  beforeAll(async () => {
    s = await startKeysShim(demoSnapshotsDir, { mail: false });
  }, 60_000);
  afterAll(() => s?.close());

  it('shows the reason too: the metadata is a JSON 404, and the registration it falls back to refuses the key saying why', async () => {
    const prm = await fetch(`${s.base}/.well-known/oauth-protected-resource/mcp`);
    expect(prm.status).toBe(404);
    expect(((await prm.json()) as { error_description: string }).error_description).toMatch(/^Sign-in \(OAuth\) is not set up/);
    const keys = KeyStore.open(s.keysPath, { maxStalenessMs: 0 });
    const { record, key } = keys.create({ tier: 'developer', owner: 'bo@example.org' });
    keys.revoke(record.id);
    keys.close();
    const run = await mcpRemote(s.base, key);
    expectRefusedWith(run, `"error_description":"The key sent was revoked at `);
  }, 45_000);
});

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startMetered, type Metered } from '../access/harness.js';
import { demoSnapshotsDir } from '../../helpers/demo-snapshots-dir.js';

/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, pinned at 0.1.9: later
 * releases need Node 22) run against the started shim's /mcp, one child process per scenario.
 *
 * The server scenarios that apply to a stateless server of tools, resources and prompts without
 * auth, and that ask nothing of the suite's own fixtures: server-initialize, ping, tools-list,
 * resources-list, prompts-list. The others do not apply:
 * - tools-call-* (simple-text, image, audio, embedded-resource, mixed-content, error,
 *   with-logging, with-progress, sampling, elicitation), json-schema-2020-12 and
 *   elicitation-sep1034-defaults / -sep1330-enums call or list the suite's fixture tools
 *   (`test_simple_text`, `test_error_handling`, …), which a real server does not have. Of these,
 *   tools-call-error checks what SEP-1303 wants of a tool error (`isError: true` with a text
 *   message): best.test.ts checks exactly that of our tools' argument errors under 2025-11-25;
 * - resources-read-text, resources-read-binary and resources-templates-read read fixture URIs
 *   (`test://static-text`, `test://template/123/data`); our templates are read in best.test.ts;
 * - prompts-get-simple, -with-args, -embedded-resource, -with-image get fixture prompts
 *   (`test_simple_prompt`, …), and completion-complete completes an argument of the fixture prompt
 *   `test_prompt_with_arguments`, which this server answers "invalid params", as the protocol says
 *   for an unknown prompt (our completions and prompts: best.test.ts);
 * - resources-subscribe and resources-unsubscribe need subscriptions, which a server of immutable
 *   snapshots does not offer (the capability is not declared), logging-set-level the logging
 *   capability, which it does not declare either;
 * - server-sse-multiple-streams and server-sse-polling: server-sent event streams, which a
 *   stateless server answering JSON does not open (GET /mcp is 405).
 */
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'resources-list', 'prompts-list'];
const CLI = join(process.cwd(), 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');

let m: Metered;
let work: string;
beforeAll(async () => {
  m = await startMetered(demoSnapshotsDir);
  work = mkdtempSync(join(tmpdir(), 'esg-conformance-')); // the suite writes its results/ into its working folder
});
afterAll(async () => {
  await m?.close();
  rmSync(work, { recursive: true, force: true });
});

/** One scenario; its exit code (0: every check passed) and output. Killed after 60 s. */
function runScenario(scenario: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'server', '--url', `${m.base}/mcp`, '--scenario', scenario], {
      cwd: work,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

it.each(SCENARIOS)(
  'conformance scenario %s passes',
  async (scenario) => {
    const { code, out } = await runScenario(scenario);
    expect(out, out).toMatch(/passed/i);
    expect(out, out).not.toMatch(/FAILURE|✗/);
    expect(code, out).toBe(0);
  },
  90_000,
);

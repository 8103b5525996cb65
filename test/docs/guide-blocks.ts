import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';

/**
 * The command blocks of a Markdown guide, and a reader's terminal to run them in. A fence's info
 * string marks a block as runnable (docs/research.md, "How this guide is tested"):
 *
 * - ```` ```sh runnable ````: bash with `set -euo pipefail`; exported variables and the current
 *   folder carry over to the next block, as in one terminal;
 * - ```` ```sql runnable-sqlite3 FILE ````: typed into `sqlite3 FILE` (Debian's CLI), in that folder;
 * - ```` ```sql runnable-duckdb ````: typed into one DuckDB session started in that folder.
 */

export type BlockKind = 'sh' | 'sqlite3' | 'duckdb' | 'other';

export interface GuideBlock {
  kind: BlockKind;
  /** The fence's language (first word of its info string). */
  lang: string;
  /** The database file of a sqlite3 block. */
  file?: string;
  code: string;
  /** 1-based line of the opening fence. */
  line: number;
}

/** Every fenced code block, in order. A `runnable…` mark this file does not know is an error. */
export function guideBlocks(markdown: string): GuideBlock[] {
  const lines = markdown.split('\n');
  const blocks: GuideBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(`{3,})\s*(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const fence = open[1]!;
    const [lang = '', mark, ...args] = open[2]!.trim().split(/\s+/);
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i]!.trimEnd() !== fence; i++) body.push(lines[i]!);
    if (i >= lines.length) throw new Error(`line ${start + 1}: code block never closed`);
    const code = body.join('\n') + '\n';
    const at = { lang, code, line: start + 1 };
    if (mark === undefined || !mark.startsWith('runnable')) blocks.push({ kind: 'other', ...at });
    else if (mark === 'runnable' && (lang === 'sh' || lang === 'bash') && args.length === 0) blocks.push({ kind: 'sh', ...at });
    else if (mark === 'runnable-sqlite3' && lang === 'sql' && args.length === 1) blocks.push({ kind: 'sqlite3', file: args[0]!, ...at });
    else if (mark === 'runnable-duckdb' && lang === 'sql' && args.length === 0) blocks.push({ kind: 'duckdb', ...at });
    else throw new Error(`line ${start + 1}: unknown runnable mark "${open[2]}"`);
  }
  return blocks;
}

export interface Ran {
  stdout: string;
  stderr: string;
  /** Rows the block's last statement gave (SQL blocks only). */
  rows?: number;
}

function run(
  command: string,
  args: string[],
  o: { cwd: string; env: NodeJS.ProcessEnv; input?: string; timeoutMs: number },
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: o.cwd, env: o.env, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    const timer = setTimeout(() => child.kill('SIGKILL'), o.timeoutMs);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
    // A block that never reads its input may exit before it is written: EPIPE then says nothing
    // about the block (its status and output do), and must not escape as an unhandled error.
    child.stdin.on('error', () => {});
    child.stdin.end(o.input ?? '');
  });
}

/**
 * A reader's terminal: a current folder and the exported environment, carried from one shell block
 * to the next, and a DuckDB session (opened at the first DuckDB block) that reads files relative to
 * the current folder, as `duckdb` started there does.
 */
export class GuideSession {
  private cwd: string;
  private env: NodeJS.ProcessEnv;
  private duck: { instance: DuckDBInstance; connection: DuckDBConnection } | null = null;
  private readonly state = mkdtempSync(join(tmpdir(), 'esg-guide-state-'));

  constructor(
    cwd: string,
    env: NodeJS.ProcessEnv,
    private readonly timeoutMs = 120_000,
  ) {
    this.cwd = cwd;
    this.env = env;
  }

  get folder(): string {
    return this.cwd;
  }

  variable(name: string): string | undefined {
    return this.env[name];
  }

  async run(block: GuideBlock): Promise<Ran> {
    switch (block.kind) {
      case 'sh':
        return this.shell(block);
      case 'sqlite3':
        return this.sqlite3(block);
      case 'duckdb':
        return this.duckdb(block);
      default:
        throw new Error(`line ${block.line}: not a runnable block`);
    }
  }

  private fail(block: GuideBlock, why: string, r: { stdout: string; stderr: string }): never {
    throw new Error(
      `${block.kind} block at line ${block.line} ${why}\n--- block\n${block.code}--- stdout\n${r.stdout.slice(-4000)}\n--- stderr\n${r.stderr.slice(-4000)}`,
    );
  }

  /** The block as typed, then (only if it succeeded) the terminal's state saved for the next block. */
  private async shell(block: GuideBlock): Promise<Ran> {
    const envFile = join(this.state, 'env');
    const pwdFile = join(this.state, 'pwd');
    const script = `set -euo pipefail\n${block.code}\nenv -0 > ${JSON.stringify(envFile)}\npwd > ${JSON.stringify(pwdFile)}\n`;
    const r = await run('bash', ['-c', script], { cwd: this.cwd, env: this.env, timeoutMs: this.timeoutMs });
    if (r.status !== 0) this.fail(block, `exited with ${r.status}`, r);
    const env: NodeJS.ProcessEnv = {};
    for (const entry of readFileSync(envFile, 'utf8').split('\0')) {
      const eq = entry.indexOf('=');
      if (eq > 0) env[entry.slice(0, eq)] = entry.slice(eq + 1);
    }
    this.env = env;
    this.cwd = readFileSync(pwdFile, 'utf8').trimEnd();
    return { stdout: r.stdout, stderr: r.stderr };
  }

  private async sqlite3(block: GuideBlock): Promise<Ran> {
    const r = await run('sqlite3', ['-bail', block.file!], { cwd: this.cwd, env: this.env, input: block.code, timeoutMs: this.timeoutMs });
    if (r.status !== 0 || r.stderr !== '') this.fail(block, `failed (exit ${r.status})`, r);
    return { stdout: r.stdout, stderr: r.stderr, rows: r.stdout.trim() === '' ? 0 : r.stdout.trim().split('\n').length };
  }

  private async duckdb(block: GuideBlock): Promise<Ran> {
    if (!this.duck) {
      const instance = await DuckDBInstance.create(':memory:');
      this.duck = { instance, connection: await instance.connect() };
    }
    const c = this.duck.connection;
    // Relative file names resolve against the terminal's current folder.
    await c.run(`SET file_search_path = '${this.cwd.replace(/'/g, "''")}'`);
    try {
      const result = await c.runAndReadAll(block.code);
      const rows = result.getRowObjectsJson();
      return { stdout: JSON.stringify(rows, null, 1), stderr: '', rows: rows.length };
    } catch (e) {
      return this.fail(block, 'failed', { stdout: '', stderr: (e as Error).message });
    }
  }

  close(): void {
    this.duck?.connection.closeSync();
    this.duck?.instance.closeSync();
    this.duck = null;
    rmSync(this.state, { recursive: true, force: true });
  }
}

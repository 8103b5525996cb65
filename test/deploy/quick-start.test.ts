import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startShimProcess, type ShimProcess } from '../server/access/processes.js';
import { demoSnapshotsDir } from '../helpers/demo-snapshots-dir.js';
import { readOnlySnapshotsCopy } from '../helpers/link-copy.js';

/**
 * README.md "Quick start", pasted as written: the shim by its `npm start`, then the block of calls
 * (from `<!-- quick-start -->` to `<!-- /quick-start -->`) in bash in a second folder, with only
 * localhost:8080 changed to the shim's port. Every answer the shim logs is a success (the free tier
 * once refused the sixth computed call with 429, and the pack line wrote that JSON into a file named
 * `packs`), and the files it writes are what they say they are.
 */
const run = promisify(execFile);
const README = readFileSync('README.md', 'utf8');
const block = /<!-- quick-start -->\n```sh\n([\s\S]*?)```\n<!-- \/quick-start -->/.exec(README)?.[1];

let root: string;
let terminal: string;
let shim: ShimProcess;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'esg-quick-start-'));
  readOnlySnapshotsCopy(demoSnapshotsDir, join(root, 'snapshots'));
  // The reader's checkout, seen from a folder of its own so the files the calls write land there.
  terminal = join(root, 'checkout');
  mkdirSync(terminal);
  for (const entry of ['package.json', 'node_modules', 'server', 'src', 'build-scripts', 'tsconfig.json'])
    symlinkSync(join(process.cwd(), entry), join(terminal, entry));
  shim = await startShimProcess(
    { SNAPSHOTS_DIR: join(root, 'snapshots'), KEYS_DB: join(root, 'keys.sqlite'), LOG_LEVEL: 'info' },
    { how: { command: 'npm', args: ['start'] } },
  );
});
afterAll(async () => {
  await shim?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

/** The shim's request lines for the API so far (its readiness checks aside): route and status. */
const requests = () =>
  shim
    .log()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { message?: string; route?: string; status?: number })
    .filter((l) => l.message === 'request' && l.route?.startsWith('/api/'));

describe('README.md quick start, as written', () => {
  it('answers every call of the block with a success, within one minute, and writes a CSV and a zip', async () => {
    expect(block, 'README.md has no quick-start block').toBeDefined();
    const before = requests().length;
    const script = block!.replaceAll('localhost:8080', `127.0.0.1:${shim.port}`);
    const ran = await run('bash', ['-eo', 'pipefail', '-c', script], {
      cwd: terminal,
      env: { ...process.env, KEYS_DB: join(root, 'keys.sqlite') },
      timeout: 60_000,
      maxBuffer: 64 * 1024 * 1024,
    }).catch((e: { code: number; stderr: string }) => e);
    expect('code' in ran ? ran.code : 0, ran.stderr.slice(-2000)).toBe(0);
    const { stdout } = ran as { stdout: string };
    // One request line per curl; the shim writes them as it answers, read here as they arrive.
    const calls = block!.match(/^curl\b/gm)!.length;
    const deadline = Date.now() + 10_000;
    while (requests().length - before < calls && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const answered = requests().slice(before);
    expect(answered.length).toBe(calls);
    expect(answered.filter((r) => r.status === undefined || r.status >= 400)).toEqual([]);
    // The key went with the computed calls: the last, /usage, speaks of it.
    expect(stdout).toMatch(/"tier":"developer"[^\n]*"bucket":"packs\/day","limit":10/);
    expect(readFileSync(join(terminal, 'ranking.csv'), 'utf8')).toMatch(/^\uFEFF?ticker,company_name,/);
    expect(readFileSync(join(terminal, 'evidence-pack.zip')).subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004');
  }, 90_000);
});

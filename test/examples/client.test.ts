import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, batch, company, pack, worstInIndustry } from '../../examples/client.js';
import { TYPES_FILE, typesFromDocument } from '../../examples/generate-types.js';
import { startMetered, type Metered } from '../server/access/harness.js';
import { demoSnapshotsDir } from '../helpers/demo-snapshots-dir.js';

/**
 * The typed client (examples/): its types are what openapi-typescript generates from the document
 * the shim publishes, it compiles under strict tsc (and the types refuse the mistakes in
 * type-errors.ts), and run against a started shim it fetches a company, a filtered ranking, a batch
 * and an evidence pack, as a module and as the program a user runs.
 */
const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '../..');
let shim: Metered;
let key: string;
let work: string;

beforeAll(async () => {
  shim = await startMetered(demoSnapshotsDir);
  key = shim.newKey('developer');
  work = mkdtempSync(join(tmpdir(), 'esg-client-'));
});
afterAll(async () => {
  await shim?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the generated types', () => {
  it('are exactly what the published document generates (run `npm run client:types` after changing the contract)', async () => {
    const doc = (await (await fetch(`${shim.base}/api/v1/openapi.json`)).json()) as object;
    expect(readFileSync(TYPES_FILE, 'utf8')).toBe(await typesFromDocument(doc));
  });

  it('the example compiles under strict tsc, and the types refuse a wrong path, parameter, value, body, method and field', async () => {
    const tsc = await run(join(ROOT, 'node_modules/.bin/tsc'), ['-p', 'examples'], { cwd: ROOT }).catch((e: { stdout: string }) => e);
    expect(tsc.stdout).toBe('');
  }, 60_000);
});

describe('the example client against a started shim', () => {
  it('fetches a company', async () => {
    const c = await company(apiClient(shim.base, key), 'd1101');
    expect(c.ticker).toBe('D1101');
    expect(c).toEqual(((await (await fetch(`${shim.base}/api/v1/company/D1101`)).json()) as { company: unknown }).company);
  });

  it('fetches a filtered ranking: one industry, lowest score first', async () => {
    const api = apiClient(shim.base, key);
    const industry = (await company(api, 'D1101')).industry;
    const { total, entries } = await worstInIndustry(api, industry, 7);
    expect(entries).toHaveLength(Math.min(7, total));
    expect(total).toBeGreaterThan(1);
    for (const e of entries) expect((await company(api, e.ticker)).industry).toBe(industry);
    const scores = entries.map((e) => e.credibility_score);
    expect(scores).toEqual([...scores].sort((a, b) => a - b));
  });

  it('fetches a batch, unknown codes reported in their items', async () => {
    const b = await batch(apiClient(shim.base, key), ['D1101', 'd1104', 'D9999']);
    expect(b.meta).toEqual({ requested: 3, found: 2, not_found: 1 });
    expect(b.data.map((i) => [i.ticker, i.ok])).toEqual([
      ['D1101', true],
      ['D1104', true],
      ['D9999', false],
    ]);
  });

  it('fetches an evidence pack that unzips and verifies', async () => {
    const file = join(work, 'pack.zip');
    const p = await pack(apiClient(shim.base, key), ['D1101', 'D1104'], file);
    expect(p.name).toMatch(/^evidence-pack-.+\.zip$/);
    expect(readFileSync(file).subarray(0, 4).toString('latin1')).toBe('PK\x03\x04');
    await run('unzip', ['-q', file], { cwd: work });
    await run('sha256sum', ['-c', '--strict', '--quiet', 'SHA256SUMS'], { cwd: join(work, p.name.replace(/\.zip$/, '')) });
  });

  it("a tier without packs gets the envelope's message, not a zip", async () => {
    await expect(pack(apiClient(shim.base), ['D1101'], join(work, 'no.zip'))).rejects.toThrow(/403 FORBIDDEN: .*developer, commercial/);
  });

  it('runs as a program, as the README shows', async () => {
    const { stdout } = await run(join(ROOT, 'node_modules/.bin/tsx'), [join(ROOT, 'examples/client.ts')], {
      cwd: work,
      env: { ...process.env, ESG_API: shim.base, ESG_API_KEY: key },
    });
    expect(stdout).toMatch(/^D1101 /);
    expect(stdout).toContain('Batch: 2 found, 1 not found');
    expect(stdout).toMatch(/Evidence pack evidence-pack-.+\.zip: \d+ bytes in pack\.zip/);
    expect(readFileSync(join(work, 'pack.zip')).subarray(0, 2).toString()).toBe('PK');
  }, 60_000);
});

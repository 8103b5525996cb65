import { execFile } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { cachedFixture, FIXTURE_CACHE, fixtureHash } from './fixture-cache.js';

/**
 * The cache of built fixtures: built once for given inputs, again when an input changes, once
 * across processes asking at the same time, and after a builder that died.
 */
const run = promisify(execFile);
const name = `fixture-cache-test-${process.pid}`;
const work = mkdtempSync(join(tmpdir(), 'esg-fixture-cache-'));
const input = join(work, 'input.txt');
const builds = join(work, 'builds.log');
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
  for (const f of readdirSync(FIXTURE_CACHE)) if (f.startsWith(name)) rmSync(join(FIXTURE_CACHE, f), { recursive: true, force: true });
});

const spec = (inputs = [input]) => ({
  name,
  inputs,
  build: async (dir: string) => {
    appendFileSync(builds, `${process.pid}\n`);
    await new Promise((r) => setTimeout(r, 300));
    writeFileSync(join(dir, 'out.txt'), readFileSync(input));
  },
});
const buildCount = () => (existsSync(builds) ? readFileSync(builds, 'utf8').trim().split('\n').length : 0);

describe('cachedFixture', () => {
  it('builds once for the same inputs, and again when an input changes', async () => {
    writeFileSync(input, 'one');
    const a = await cachedFixture(spec());
    expect(await cachedFixture(spec())).toBe(a);
    expect(readFileSync(join(a, 'out.txt'), 'utf8')).toBe('one');
    expect(buildCount()).toBe(1);
    writeFileSync(input, 'two');
    const b = await cachedFixture(spec());
    expect(b).not.toBe(a);
    expect(readFileSync(join(b, 'out.txt'), 'utf8')).toBe('two');
    expect(buildCount()).toBe(2);
  });

  it('processes asking at once wait for one build; a lock left by a dead process is taken over', async () => {
    writeFileSync(input, 'three');
    // A lock naming a process that is gone (a pid past the kernel's maximum): as if a builder was killed.
    const script = (out: string) => `
      import { writeFileSync, appendFileSync, readFileSync } from 'node:fs';
      import { join } from 'node:path';
      import { cachedFixture } from ${JSON.stringify(join(process.cwd(), 'test/helpers/fixture-cache.ts'))};
      const dir = await cachedFixture({ name: ${JSON.stringify(name)}, inputs: [${JSON.stringify(input)}], build: async (d) => {
        appendFileSync(${JSON.stringify(builds)}, process.pid + '\\n');
        await new Promise((r) => setTimeout(r, 1500));
        writeFileSync(join(d, 'out.txt'), readFileSync(${JSON.stringify(input)}));
      } });
      writeFileSync(${JSON.stringify(out)}, dir);`;
    writeFileSync(join(FIXTURE_CACHE, `${name}-${fixtureHash({ name, inputs: [input] })}.lock`), '4194305');
    const before = buildCount();
    const outs = [join(work, 'a.out'), join(work, 'b.out')];
    await Promise.all(
      outs.map((out) => run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script(out)], { cwd: process.cwd() })),
    );
    const [a, b] = outs.map((o) => readFileSync(o, 'utf8'));
    expect(a).toBe(b);
    expect(readFileSync(join(a!, 'out.txt'), 'utf8')).toBe('three');
    expect(buildCount() - before).toBe(1);
  }, 60_000);
});

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

/**
 * npm run bench:against -- --rev REV [--stage snapshot-real] [--companies 100000] [--rounds 3]
 *
 * One bench stage (bench/stage.ts) of this tree against the same stage of an earlier revision, in one
 * run on this machine: each side generates its own demo sources (in its own generator's forms), then
 * the stage runs in alternating rounds (A B, B A, A B …) so that the machine's slow spells fall on
 * both. Prints each round and the ratios of the medians (this tree ÷ the revision), of wall time and of
 * the stage process's CPU time (steadier when the machine is shared). For targets such as
 * "the database stage costs at most 1.1× today's". The revision is checked out into a
 * temporary git worktree beside this one and removed at the end; it uses this tree's node_modules.
 */
const { values } = parseArgs({
  options: {
    rev: { type: 'string' },
    stage: { type: 'string', default: 'snapshot-real' },
    companies: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '3' },
  },
});
if (!values.rev) throw new Error('--rev REV: the revision to compare with (e.g. a commit before the change)');
const rounds = Number(values.rounds);
const here = resolve(import.meta.dirname, '..');
const scratch = join(tmpdir(), `bench-against-${process.pid}`);
const base = join(scratch, 'tree');

/**
 * CPU time of the children this process has waited for (/proc/self/stat cutime + cstime, in clock
 * ticks of 10 ms): a stage's own work, which a busy machine stretches far less than its wall time.
 */
function childrenCpuMs(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8')
    .replace(/^.*\) /, '')
    .split(' ');
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

function stage(tree: string, name: string, work: string): { ms: number; cpuMs: number; maxRssMb: number } {
  const cpu0 = childrenCpuMs();
  const out = execFileSync(process.execPath, ['--import', 'tsx', 'bench/stage.ts', name, work, values.companies!], {
    cwd: tree,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return { ...(JSON.parse(out.trim().split('\n').pop()!) as { ms: number; maxRssMb: number }), cpuMs: childrenCpuMs() - cpu0 };
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

execFileSync('git', ['worktree', 'add', '--detach', base, values.rev], { cwd: here, stdio: 'inherit' });
try {
  if (!existsSync(join(base, 'node_modules'))) symlinkSync(join(here, 'node_modules'), join(base, 'node_modules'));
  const sides = [
    { label: `this tree`, tree: here, work: join(scratch, 'work-this'), ms: [] as number[], cpuMs: [] as number[] },
    { label: values.rev, tree: base, work: join(scratch, 'work-rev'), ms: [] as number[], cpuMs: [] as number[] },
  ];
  for (const s of sides) stage(s.tree, 'generate', s.work);
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? sides : [...sides].reverse();
    for (const s of order) {
      const { ms, cpuMs, maxRssMb } = stage(s.tree, values.stage!, s.work);
      s.ms.push(ms);
      s.cpuMs.push(cpuMs);
      console.log(`round ${r + 1}: ${s.label.padEnd(12)} ${values.stage} ${Math.round(ms)} ms (CPU ${cpuMs} ms), peak ${maxRssMb} MB`);
    }
  }
  const [now, then] = sides.map((s) => median(s.ms));
  const [cpuNow, cpuThen] = sides.map((s) => median(s.cpuMs));
  console.log(
    `${values.stage} at ${values.companies} companies (medians of ${rounds}): this tree ${Math.round(now!)} ms, ${values.rev} ${Math.round(then!)} ms: ratio ${(now! / then!).toFixed(3)}; CPU ${cpuNow} ms against ${cpuThen} ms: ratio ${(cpuNow! / cpuThen!).toFixed(3)}`,
  );
} finally {
  execFileSync('git', ['worktree', 'remove', '--force', base], { cwd: here, stdio: 'inherit' });
  rmSync(scratch, { recursive: true, force: true });
}

import { execFile } from 'node:child_process';
import { cpus } from 'node:os';
import { compileC } from './compile-c.js';

export interface StallFigures {
  seconds: number;
  /** One probe per core, run together: each one's longest gap and its gaps over 5 and 10 ms. */
  probes: { maxGapMs: number; over5ms: number; over10ms: number }[];
}

/**
 * The machine's own stalls (stall-probe.c), one probe per core at once, on a machine otherwise quiet:
 * how long a thread loses its core when every core is busy, with no server and no load generator.
 * Null without a C compiler.
 */
export async function stallProbe(seconds = 10): Promise<StallFigures | null> {
  const binary = compileC('stall-probe');
  if (!binary) return null;
  const one = () =>
    new Promise<StallFigures['probes'][number]>((resolve, reject) =>
      execFile(binary, [String(seconds)], { timeout: (seconds + 30) * 1000 }, (err, stdout) => (err ? reject(err) : resolve(JSON.parse(stdout)))),
    );
  return { seconds, probes: await Promise.all(cpus().map(one)) };
}

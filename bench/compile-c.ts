import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const compiled = new Map<string, string | null>();

/**
 * One of the bench's C programs (`bench/<name>.c`) compiled once per source version into the temp
 * folder; null where no C compiler is installed.
 */
export function compileC(name: string): string | null {
  if (compiled.has(name)) return compiled.get(name)!;
  const source = fileURLToPath(new URL(`./${name}.c`, import.meta.url));
  const hash = createHash('sha256').update(readFileSync(source)).digest('hex').slice(0, 12);
  const binary = join(tmpdir(), `esg-${name}-${hash}`);
  if (!existsSync(binary)) {
    const cc = ['/usr/bin/cc', '/usr/bin/gcc', '/usr/bin/clang'].find(existsSync);
    if (!cc) {
      compiled.set(name, null);
      return null;
    }
    const building = `${binary}.${process.pid}`;
    execFileSync(cc, ['-O2', '-o', building, source], { stdio: 'inherit' });
    renameSync(building, binary);
  }
  compiled.set(name, binary);
  return binary;
}

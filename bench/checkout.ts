import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** This repository's own tree (the folder above bench/). */
export const HERE = resolve(import.meta.dirname, '..');

/**
 * A revision of this repository checked out into a temporary git worktree, running on this tree's
 * node_modules (so it must not need a package this tree lacks); `remove` takes the worktree away.
 */
export function checkOut(rev: string): { tree: string; remove: () => void } {
  const scratch = mkdtempSync(join(tmpdir(), 'bench-rev-'));
  const tree = join(scratch, 'tree');
  execFileSync('git', ['worktree', 'add', '--detach', tree, rev], { cwd: HERE, stdio: ['ignore', 'ignore', 'inherit'] });
  if (!existsSync(join(tree, 'node_modules'))) symlinkSync(join(HERE, 'node_modules'), join(tree, 'node_modules'));
  return {
    tree,
    remove: () => {
      execFileSync('git', ['worktree', 'remove', '--force', tree], { cwd: HERE, stdio: 'inherit' });
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}

import { copyFileSync, linkSync, lstatSync, mkdirSync, readdirSync, readlinkSync, symlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import { publishedSnapshotIds } from '../../src/snapshot/published.js';

/**
 * Copies a folder as hard links (files) and the same symlinks: quick even for a whole snapshot, where
 * a byte copy of its thousands of page files (and their removal) takes many seconds on a loaded
 * machine. A linked file is the original's inode, so none may be written in place (unlink it and
 * write anew) unless named in `copied`: those are copied byte for byte. A folder named in `shared`
 * becomes a symlink to the original, for folders a test only reads (a snapshot's tree). Paths are
 * relative to `from`. Across file systems (a cache on one, a temp folder on another) files are copied.
 */
export function linkCopy(from: string, to: string, o: { copied?: readonly string[]; shared?: readonly string[] } = {}): void {
  const copied = new Set(o.copied ?? []);
  const shared = new Set(o.shared ?? []);
  const walk = (src: string, dst: string) => {
    mkdirSync(dst, { recursive: true });
    for (const name of readdirSync(src)) {
      const [s, d] = [join(src, name), join(dst, name)];
      const info = lstatSync(s);
      if (shared.has(relative(from, s))) symlinkSync(s, d);
      else if (info.isDirectory()) walk(s, d);
      else if (info.isSymbolicLink()) symlinkSync(readlinkSync(s), d);
      else if (copied.has(relative(from, s))) copyFileSync(s, d);
      else linkOrCopy(s, d);
    }
  };
  walk(from, to);
}

function linkOrCopy(src: string, dst: string) {
  try {
    linkSync(src, dst);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e;
    copyFileSync(src, dst);
  }
}

/** A published snapshots folder for a test that only reads it (a shim, nginx): every snapshot's tree shared, the rest linked. */
export function readOnlySnapshotsCopy(from: string, to: string): void {
  linkCopy(from, to, { shared: publishedSnapshotIds(from).map((id) => join(id, 'tree')) });
}

import { closeSync, createWriteStream, fstatSync, openSync, readdirSync, readSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { endOfArchive, padding, ustarFileHeader } from './ustar.js';

/**
 * The static JSON tree as one `.tar.gz`: every regular file under the tree, by path, with fixed
 * metadata, so the same tree always gives the same bytes. Files are read one at a time and streamed
 * through gzip, so 200,000 files cost the memory of their path list, not of their contents.
 */

export interface TreeArchiveOptions {
  treeDir: string;
  outPath: string;
  /** Tree-relative posix paths of files to leave out. Only files are asked about, never directories. */
  exclude: (relPath: string) => boolean;
  /** The mtime of every entry, in seconds since the epoch. */
  mtimeSeconds: number;
  /** Directories (absolute or relative to cwd) never to descend into, such as the download folder itself. */
  skipDirs?: readonly string[];
}

/** Sorting by UTF-16 code unit, not locale: the same on every machine. */
const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Tree-relative posix paths of the files to archive, sorted. Symlinks and special files are refused, not followed. */
function listTreeFiles(treeDir: string, exclude: (relPath: string) => boolean, skipDirs: readonly string[] = []): string[] {
  const skip = new Set(skipDirs.map((d) => resolve(d)));
  const out: string[] = [];
  const walk = (abs: string, rel: string) => {
    for (const e of readdirSync(abs, { withFileTypes: true })) {
      const childAbs = join(abs, e.name);
      const childRel = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) {
        if (!skip.has(resolve(childAbs))) walk(childAbs, childRel);
      } else if (exclude(childRel)) {
        continue;
      } else if (e.isFile()) {
        out.push(childRel);
      } else {
        throw new Error(`${childAbs}: not a regular file; the tree archive holds regular files only (exclude it, or write a file)`);
      }
    }
  };
  walk(resolve(treeDir), '');
  return out.sort(byCodeUnit);
}

/** Archive bytes are handed to gzip in pieces of at least this size. */
const CHUNK_BYTES = 256 * 1024;
/** Files are read in slices of this size, so one large file does not have to fit in memory either. */
const READ_BYTES = 1024 * 1024;

/** The uncompressed ustar stream of `files` (tree-relative), in order. */
async function* tarStream(treeDir: string, files: readonly string[], mtimeSeconds: number): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let total = 0;
  const push = (b: Buffer) => {
    pending.push(b);
    pendingBytes += b.length;
    total += b.length;
  };
  const take = () => {
    const out = Buffer.concat(pending, pendingBytes);
    pending = [];
    pendingBytes = 0;
    return out;
  };
  for (const rel of files) {
    const fd = openSync(join(treeDir, rel), 'r');
    try {
      const size = fstatSync(fd).size;
      push(ustarFileHeader(rel, size, mtimeSeconds));
      let read = 0;
      while (read < size) {
        const buf = Buffer.allocUnsafe(Math.min(READ_BYTES, size - read));
        const n = readSync(fd, buf, 0, buf.length, read);
        if (n === 0) break;
        push(n === buf.length ? buf : buf.subarray(0, n));
        read += n;
        if (pendingBytes >= CHUNK_BYTES) yield take();
      }
      // The header already promised `size` bytes; a file that shrank or grew meanwhile would corrupt the archive.
      if (read !== size || readSync(fd, Buffer.alloc(1), 0, 1, size) !== 0) throw new Error(`${rel} changed size while being archived`);
      push(padding(size));
    } finally {
      closeSync(fd);
    }
    if (pendingBytes >= CHUNK_BYTES) yield take();
  }
  push(endOfArchive(total));
  yield take();
}

/**
 * Writes the archive; returns the archived paths. gzip level 6; Node writes the gzip header with
 * mtime 0 and no file name, so the compressed bytes depend only on the tar bytes (and zlib's version).
 */
export async function writeTreeArchive(o: TreeArchiveOptions): Promise<string[]> {
  const files = listTreeFiles(o.treeDir, o.exclude, o.skipDirs);
  await pipeline(Readable.from(tarStream(o.treeDir, files, o.mtimeSeconds)), createGzip({ level: 6 }), createWriteStream(o.outPath, { flags: 'wx' }));
  return files;
}

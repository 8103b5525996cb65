import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileForUrlPath } from '../../src/site/static-paths.js';
import { ApiError, notFound } from '../errors.js';
import { etagOf, sendBody } from '../http.js';
import type { RouteContext } from '../context.js';

interface CachedFile {
  bytes: Buffer;
  etag: string;
}

/**
 * Recently served tree files with their ETags, bounded in bytes. Snapshot files never change, so
 * an entry is valid for as long as its path (which includes the snapshot folder) exists.
 */
class FileCache {
  private readonly entries = new Map<string, CachedFile>();
  private bytes = 0;
  constructor(private readonly maxBytes: number) {}

  get(path: string): CachedFile | undefined {
    const hit = this.entries.get(path);
    if (hit) {
      this.entries.delete(path); // most recently used goes last
      this.entries.set(path, hit);
    }
    return hit;
  }

  set(path: string, file: CachedFile): void {
    if (file.bytes.length > this.maxBytes / 16) return;
    this.entries.set(path, file);
    this.bytes += file.bytes.length;
    while (this.bytes > this.maxBytes) {
      const [oldest, entry] = this.entries.entries().next().value!;
      this.entries.delete(oldest);
      this.bytes -= entry.bytes.length;
    }
  }
}

const cache = new FileCache(32 * 1024 * 1024);

/**
 * One file of a snapshot's static tree with its ETag, or null when it does not exist. Files are
 * small (a few KB) and usually in the page cache, so one synchronous read costs less than the four
 * thread-pool round trips of an async one; hot files are served from memory.
 */
export function readTreeFile(snapshotDir: string, url: string): CachedFile | null {
  const path = join(snapshotDir, 'tree', fileForUrlPath(url));
  let file = cache.get(path);
  if (!file) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw new ApiError('UPSTREAM_FAILURE', 'The snapshot’s static files cannot be read.');
    }
    file = { bytes, etag: etagOf(bytes) };
    cache.set(path, file);
  }
  return file;
}

/**
 * Serves one file of the current snapshot's static tree. The URL was rebuilt from validated parts,
 * so it cannot leave the tree. A missing file is the resource not existing (e.g. an unknown ticker).
 */
export function serveTreeFile(ctx: RouteContext, url: string, missing: string): void {
  const file = readTreeFile(ctx.store.dir, url);
  if (!file) throw notFound(missing);
  sendBody(ctx.req, ctx.res, file.bytes, undefined, {}, file.etag);
}

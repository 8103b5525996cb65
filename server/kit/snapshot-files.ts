import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError } from '../../src/contract/errors.js';
import { Lru } from '../../src/lru.js';
import { etagOf, type CachedFile } from './http.js';

/** Recently served tree files (JSON and pages) with their ETags, bounded in bytes (snapshot files never change). */
const cache = new Lru<CachedFile>(16 * 1024 * 1024, (f) => f.bytes.length);

/**
 * One file of a snapshot's tree, by its path inside the tree, with its ETag; null when there is no
 * such file. Files are small (a few KB) and usually in the page cache, so one synchronous read costs
 * less than the four thread-pool round trips of an async one; hot files are served from memory.
 */
export function readSnapshotFile(snapshotDir: string, treePath: string): CachedFile | null {
  const path = join(snapshotDir, 'tree', treePath);
  let file = cache.get(path);
  if (!file) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(path);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return null;
      throw new ApiError('UPSTREAM_FAILURE', 'The snapshot’s static files cannot be read.');
    }
    file = { bytes, etag: etagOf(bytes) };
    cache.set(path, file);
  }
  return file;
}

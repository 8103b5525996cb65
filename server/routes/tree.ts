import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileForUrlPath } from '../../src/site/static-paths.js';
import { ApiError, notFound } from '../errors.js';
import { sendBody } from '../http.js';
import type { RouteContext } from '../context.js';

/**
 * Serves one file of the current snapshot's static tree. The URL was rebuilt from validated parts,
 * so it cannot leave the tree. A missing file is the resource not existing (e.g. an unknown ticker).
 */
export async function serveTreeFile(ctx: RouteContext, url: string, missing: string): Promise<void> {
  const file = join(ctx.store.dir, 'tree', fileForUrlPath(url));
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw notFound(missing);
    throw new ApiError('UPSTREAM_FAILURE', 'The snapshot’s static files cannot be read.');
  }
  sendBody(ctx.req, ctx.res, bytes);
}

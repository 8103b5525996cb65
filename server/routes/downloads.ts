import { createHash } from 'node:crypto';
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { DOWNLOADS_DIR } from '../../src/contract/api-paths.js';
import { urls } from '../../src/contract/urls.js';
import type { InputOf } from '../../src/contract/routes.js';
import type { RouteContext } from './context.js';
import { notFound } from '../../src/contract/errors.js';
import { noDownload, unknownSnapshot } from '../../src/contract/named-errors.js';
import { assertSnapshotKept } from './pinned.js';
import { DOWNLOAD_CHUNK_BYTES } from '../kit/download-slots.js';
import { CACHE_PUBLIC } from '../../src/contract/headers.js';
import { matches } from '../kit/http.js';
import { PAGE_CSP } from '../../src/contract/security.js';
import { DOWNLOAD_DEFAULT_TYPE, DOWNLOAD_MEDIA_TYPES, DOWNLOAD_NAME, FOLDER_PAGE } from '../../src/contract/downloads.js';

/**
 * sha256 of the files SHA256SUMS lists, from it (files never change). SHA256SUMS itself and the
 * folder page are not listed; both are small and hashed when served.
 */
const sumsCache = new Map<string, Map<string, string>>();
async function sumsOf(dir: string): Promise<Map<string, string>> {
  let sums = sumsCache.get(dir);
  if (!sums) {
    const text = await readFile(join(dir, 'SHA256SUMS'), 'utf8');
    sums = new Map(
      text
        .split('\n')
        .filter(Boolean)
        .map((l) => [l.slice(66), l.slice(0, 64)] as [string, string]),
    );
    sumsCache.set(dir, sums);
  }
  return sums;
}

/**
 * GET /downloads/{snapshot id}/{file}: the download folder of any published snapshot (not only the
 * current one), streamed. Names are checked against a strict pattern, so nothing outside it is served.
 * The folder itself (`/downloads/{id}/`, an empty name) is its page, written there by that
 * snapshot's build: every file with a relative link, so `wget -r -np` fetches the folder.
 * A body is sent only with a slot (server/kit/download-slots.ts: per client and in all, else 429), a
 * chunk at a time as the client takes it, and cut with a reset when the client stops taking it.
 */
export async function download({ params }: InputOf<'download'>, ctx: RouteContext): Promise<void> {
  const { req, res } = ctx;
  const { id } = params;
  let name = params.file;
  // A client past its cap is refused first, before the snapshot and the file are looked up: refusing
  // 2,000 at once costs the shim no more than that. A HEAD or a conditional GET may still be answered
  // without a body, so it is not.
  if (req.method !== 'HEAD' && req.headers['if-none-match'] === undefined) ctx.downloads.check(req);
  assertSnapshotKept(ctx.source.root, id);
  const folderPage = name === '';
  if (folderPage) name = FOLDER_PAGE;
  if (!DOWNLOAD_NAME.test(name)) throw noDownload(name);
  const dir = join(ctx.source.root, id, 'tree', DOWNLOADS_DIR, id);
  const file = join(dir, name);
  // Looked up and, when it fits in one chunk, read at once, as the tree's files are: each trip
  // through libuv's thread pool is a wait in the event loop's queue on a busy machine.
  const info = statSync(file, { throwIfNoEntry: false });
  if (!info?.isFile()) {
    if (info === undefined && !statSync(dir, { throwIfNoEntry: false })) throw unknownSnapshot(id);
    // Snapshots built before folders had pages have none; their files are listed in /snapshots.
    throw folderPage ? notFound(`Snapshot ${id} has no folder page; its files are listed at ${urls.snapshots}.`) : noDownload(name, id);
  }
  const whole = info.size <= DOWNLOAD_CHUNK_BYTES ? readFileSync(file) : null;
  const sha =
    (await sumsOf(dir)).get(name) ??
    createHash('sha256')
      .update(whole ?? (await readFile(file)))
      .digest('hex');
  const ext = name.slice(name.lastIndexOf('.'));
  res.status(200);
  res.setHeader('Content-Type', DOWNLOAD_MEDIA_TYPES[ext] ?? DOWNLOAD_DEFAULT_TYPE);
  res.setHeader('Cache-Control', CACHE_PUBLIC);
  if (ext === '.html') res.setHeader('Content-Security-Policy', PAGE_CSP); // the folder's page loads the site's own assets
  if (sha) res.setHeader('ETag', `"${sha}"`);
  if (sha && matches(req.headers['if-none-match'], `"${sha}"`)) {
    res.status(304).end();
    return;
  }
  res.setHeader('Content-Length', info.size);
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  ctx.downloads.take(req, res);
  if (whole) {
    res.end(whole); // one chunk: one write, which the kernel takes whole
    return;
  }
  const source = createReadStream(file, { highWaterMark: DOWNLOAD_CHUNK_BYTES });
  // A chunk is read only once the socket took the one before: no chunk for stallMs is a client that
  // stopped reading. A reset (not a close) also frees what the kernel still holds for it.
  const stalled = setTimeout(() => (res.socket ? res.socket.resetAndDestroy() : res.destroy()), ctx.downloads.limits.stallMs);
  source.on('data', () => stalled.refresh());
  try {
    await pipeline(source, res);
  } catch (e) {
    // A client that hangs up mid-download, or one cut for stalling, is not a server error.
    if ((e as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') throw e;
  } finally {
    clearTimeout(stalled);
  }
}

/**
 * GET /downloads/{snapshot id}: the folder without its final slash. Redirected to the folder URL,
 * where the page's relative links resolve to the files beside it.
 */
export function downloadFolderRedirect({ params: { id } }: InputOf<'downloadFolder'>, ctx: RouteContext): void {
  assertSnapshotKept(ctx.source.root, id);
  ctx.res.setHeader('Cache-Control', CACHE_PUBLIC);
  ctx.res.redirect(301, `${urls.downloadFolder(id)}/`);
}
